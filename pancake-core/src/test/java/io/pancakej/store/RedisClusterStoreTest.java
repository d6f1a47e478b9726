package io.pancakej.store;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.pancakej.testing.KvStoreContractTest;
import io.pancakej.testing.RedisClusterFixture;

class RedisClusterStoreTest extends KvStoreContractTest {
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
  protected KvStore newStore() {
    return Stores.open(cluster.properties());
  }

  @Override
  protected void cleanUp() {
    cluster.flushAll();
  }

  @Test
  void multiPut_spreadsKeysOverEveryMaster() {
    store.multiPut(randomBytesList(300, 16), randomBytesList(300, 8));
    for (int i = 0; i < RedisClusterFixture.NODES; i++) {
      assertTrue(cluster.dbSize(i) > 50, "node " + i + " holds " + cluster.dbSize(i) + " of 300 keys");
    }
  }
}
