package io.pancakej.store;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.pancakej.testing.KvStoreContractTest;
import io.pancakej.testing.RedisServerFixture;

class RedisStoreTest extends KvStoreContractTest {
  private static RedisServerFixture redis;

  @BeforeAll
  static void startRedis() {
    redis = new RedisServerFixture();
  }

  @AfterAll
  static void stopRedis() {
    redis.close();
  }

  @Override
  protected KvStore newStore() {
    return Stores.open(redis.properties());
  }

  @Override
  protected void cleanUp() {
    redis.flushAll();
  }

  @Test
  void describe_namesHostPortAndDatabase() {
    assertEquals("redis:127.0.0.1:" + redis.port() + "/0", store.describe());
  }
}
