package io.pancakej;

import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

import io.pancakej.store.RedisStore;
import io.pancakej.testing.KvClientContractTest;
import io.pancakej.testing.RedisServerFixture;

/** The client contract, on PANCAKE over a real Redis server started by the test. */
class PancakeClientOnRedisTest extends KvClientContractTest {
  private static RedisServerFixture redis;
  @TempDir
  Path dir;
  private final AtomicInteger opened = new AtomicInteger();

  @BeforeAll
  static void startRedis() {
    redis = new RedisServerFixture();
  }

  @AfterAll
  static void stopRedis() {
    redis.close();
  }

  @Override
  protected KvClient newClient() {
    redis.flushAll();
    return PancakeClient.open(PancakeConfig.builder().stateDir(dir.resolve("state" + opened.incrementAndGet()))
        .capacity(2000).pacerRate(1000).store(RedisStore.open(redis.properties())).build());
  }
}
