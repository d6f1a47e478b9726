package io.pancakej.baseline;

import java.security.SecureRandom;
import java.util.Properties;

import io.pancakej.KvClient;
import io.pancakej.crypto.MasterKey;
import io.pancakej.store.RedisStore;
import io.pancakej.testing.KvClientOutageTest;

/** Redis outages under the encrypted baseline. */
class EncryptedClientOutageTest extends KvClientOutageTest {
  @Override
  protected KvClient open(Properties storeProperties) {
    return new EncryptedClient(RedisStore.open(storeProperties), MasterKey.generate(new SecureRandom()), 1200, 128);
  }
}
