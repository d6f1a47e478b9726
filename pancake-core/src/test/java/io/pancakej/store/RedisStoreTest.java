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
  void open_withADatabaseTheServerDoesNotHave_leadsWithRedisOwnReply_thenTheProperty() {
    java.util.Properties p = redis.properties();
    p.setProperty(Stores.REDIS_DB_PROPERTY, "99"); // redis-server has 16 databases by default
    io.pancakej.PancakeException e = org.junit.jupiter.api.Assertions.assertThrows(
        io.pancakej.PancakeException.class, () -> Stores.open(p));
    String m = e.getMessage();
    org.junit.jupiter.api.Assertions.assertTrue(m.startsWith("ERR DB index is out of range"), m);
    org.junit.jupiter.api.Assertions.assertTrue(m.contains("redis.db=99"), m);
    org.junit.jupiter.api.Assertions.assertTrue(m.contains(Integer.toString(redis.port())), m);
  }

  @Test
  void describe_namesHostPortAndDatabase() {
    assertEquals("redis:127.0.0.1:" + redis.port() + "/0", store.describe());
  }
}
