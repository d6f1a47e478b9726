package io.pancakej.baseline;

import java.security.SecureRandom;

import io.pancakej.KvClient;
import io.pancakej.crypto.MasterKey;
import io.pancakej.store.MemoryStore;
import io.pancakej.testing.KvClientContractTest;

class EncryptedClientTest extends KvClientContractTest {
  @Override
  protected KvClient newClient() {
    return EncryptedClient.builder().store(new MemoryStore())
        .masterKey(MasterKey.generate(new SecureRandom())).valueSize(1200).keySize(128).build();
  }
}
