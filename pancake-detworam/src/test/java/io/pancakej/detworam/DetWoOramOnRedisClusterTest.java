package io.pancakej.detworam;

import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

import io.pancakej.KvClient;
import io.pancakej.store.RedisClusterStore;
import io.pancakej.testing.KvClientContractTest;
import io.pancakej.testing.RedisClusterFixture;

/** The client contract, on DetWoORAM over a real three-master Redis Cluster (smaller workloads). */
class DetWoOramOnRedisClusterTest extends KvClientContractTest {
  private static RedisClusterFixture cluster;
  @TempDir
  Path dir;
  private final AtomicInteger opened = new AtomicInteger();

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
    return DetWoOramClient.builder().stateDir(dir.resolve("state" + opened.incrementAndGet())).capacity(500)
        .store(RedisClusterStore.open(cluster.properties())).build();
  }

  @Override
  protected int randomKeyCount() {
    return 100;
  }

  @Override
  protected int randomOperationCount() {
    return 300;
  }

  @Override
  protected int incrementsPerThread() {
    return 25;
  }

  @Override
  protected int keysPerThread() {
    return 15;
  }
}
