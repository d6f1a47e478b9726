package io.pancakej.baseline;

import java.security.SecureRandom;

import io.pancakej.KvClient;
import io.pancakej.crypto.MasterKey;
import io.pancakej.store.MemoryStore;
import io.pancakej.testing.KvClientContractTest;

class EncryptedClientTest extends KvClientContractTest {
  @Override
  protected KvClient newClient() {
    return new EncryptedClient(new MemoryStore(), MasterKey.generate(new SecureRandom()), 1200, 128);
  }
}
