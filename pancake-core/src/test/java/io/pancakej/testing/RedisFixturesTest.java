package io.pancakej.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;

import org.junit.jupiter.api.Test;

import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisCluster;
import redis.clients.jedis.exceptions.JedisConnectionException;

class RedisFixturesTest {

  @Test
  void serverFixture_answersPing_andRestartsOnTheSamePort() {
    try (RedisServerFixture redis = new RedisServerFixture()) {
      int port = redis.port();
      assertNotEquals(6379, port);
      assertEquals("redis", redis.properties().getProperty("pancake.store"));
      assertEquals(Integer.toString(port), redis.properties().getProperty("redis.port"));
      try (Jedis j = redis.jedis()) {
        assertEquals("PONG", j.ping());
        assertEquals("", j.configGet("save").get("save"));
        assertEquals("no", j.configGet("appendonly").get("appendonly"));
      }

      redis.stop();
      assertFalse(redis.isRunning());
      assertThrows(JedisConnectionException.class, () -> {
        try (Jedis j = redis.jedis()) {
          j.ping();
        }
      });

      redis.start();
      assertTrue(redis.isRunning());
      assertEquals(port, redis.port());
      try (Jedis j = redis.jedis()) {
        assertEquals("PONG", j.ping());
      }
    }
  }

  @Test
  void serverFixture_closeIsIdempotent() {
    RedisServerFixture redis = new RedisServerFixture();
    redis.close();
    redis.close();
    assertFalse(redis.isRunning());
  }

  @Test
  void clusterFixture_servesAllSlots_onThreeMasters() {
    try (RedisClusterFixture cluster = new RedisClusterFixture()) {
      assertEquals("redis-cluster", cluster.properties().getProperty("pancake.store"));
      assertEquals(3, cluster.ports().size());
      Set<HostAndPort> seeds = new HashSet<>();
      for (int port : cluster.ports()) {
        seeds.add(new HostAndPort(cluster.host(), port));
      }
      try (JedisCluster jc = new JedisCluster(seeds, DefaultJedisClientConfig.builder().build())) {
        for (int i = 0; i < 300; i++) {
          jc.set("k" + i, "v" + i);
        }
        for (int i = 0; i < 300; i++) {
          assertEquals("v" + i, jc.get("k" + i));
        }
      }
      for (int i = 0; i < 3; i++) {
        assertTrue(cluster.dbSize(i) > 50, "keys should spread over node " + i);
      }
    }
  }
}
