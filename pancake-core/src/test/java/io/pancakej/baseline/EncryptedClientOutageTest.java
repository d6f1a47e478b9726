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
    return EncryptedClient.builder().store(RedisStore.open(storeProperties))
        .masterKey(MasterKey.generate(new SecureRandom())).valueSize(1200).keySize(128).build();
  }
}
