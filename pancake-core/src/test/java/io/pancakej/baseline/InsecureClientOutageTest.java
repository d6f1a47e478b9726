package io.pancakej.baseline;

import java.util.Properties;

import io.pancakej.KvClient;
import io.pancakej.store.RedisStore;
import io.pancakej.testing.KvClientOutageTest;

/** Redis outages under the insecure baseline. */
class InsecureClientOutageTest extends KvClientOutageTest {
  @Override
  protected KvClient open(Properties storeProperties) {
    return InsecureClient.builder().store(RedisStore.open(storeProperties)).build();
  }
}
