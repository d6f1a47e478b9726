package io.pancakej;

import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

import io.pancakej.store.RedisClusterStore;
import io.pancakej.testing.KvClientContractTest;
import io.pancakej.testing.RedisClusterFixture;

/** The client contract, on PANCAKE over a real three-master Redis Cluster started by the test. */
class PancakeClientOnRedisClusterTest extends KvClientContractTest {
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
    return PancakeClient.open(PancakeConfig.builder().stateDir(dir.resolve("state" + opened.incrementAndGet()))
        .capacity(1000).pacerRate(1000).store(RedisClusterStore.open(cluster.properties())).build());
  }

  @Override
  protected int randomOperationCount() {
    return 500;
  }

  @Override
  protected int incrementsPerThread() {
    return 40;
  }

  @Override
  protected int keysPerThread() {
    return 25;
  }
}
