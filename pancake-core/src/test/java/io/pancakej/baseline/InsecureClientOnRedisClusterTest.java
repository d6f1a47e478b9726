package io.pancakej.baseline;


import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

import io.pancakej.KvClient;
import io.pancakej.store.RedisClusterStore;
import io.pancakej.testing.KvClientContractTest;
import io.pancakej.testing.RedisClusterFixture;

/** The client contract, on the insecure baseline over a real three-master Redis Cluster. */
class InsecureClientOnRedisClusterTest extends KvClientContractTest {
  private static RedisClusterFixture cluster;

  @BeforeAll
  static void startCluster() {
    cluster = new RedisClusterFixture();
  }

  @AfterAll
  static void stopCluster() {
    cluster.close();
  }

  @Override
  protected KvClient newClient() {
    cluster.flushAll();
    return InsecureClient.builder().store(RedisClusterStore.open(cluster.properties())).build();
  }

  @Override
  protected int randomOperationCount() {
    return 1000;
  }

  @Override
  protected int incrementsPerThread() {
    return 50;
  }

  @Override
  protected int keysPerThread() {
    return 30;
  }
}
