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

  /**
   * Slots moved back to back (the reshard tests' pattern) end with every node naming the same
   * owner. Before the fixture waited for the masters' config epochs to settle, 1 of about 50 such
   * moves left two masters sending clients to each other for good.
   */
  @Test
  void clusterFixture_movesSlotsBackToBack_andEveryNodeAgreesOnTheOwner() {
    try (RedisClusterFixture cluster = new RedisClusterFixture()) {
      int[] slots = {100, 2400, 4700, 7000, 9300, 11600, 13900};
      for (int m = 0; m < 100; m++) {
        int slot = slots[m % slots.length];
        cluster.moveSlot(slot, (cluster.ownerOf(slot) + 1 + m % 2) % RedisClusterFixture.NODES, 1, () -> { });
      }
      for (int slot : slots) {
        long deadline = System.currentTimeMillis() + 3_000; // gossip settles a consistent move within a ping or two
        while (!everyNodeNamesTheOwner(cluster, slot) && System.currentTimeMillis() < deadline) {
          RedisProcess.sleep(50);
        }
        for (int i = 0; i < RedisClusterFixture.NODES; i++) {
          assertEquals(cluster.ownerOf(slot), cluster.ownerSeenBy(i, slot), "owner of slot " + slot + " as node " + i + " sees it");
        }
      }
    }
  }

  private static boolean everyNodeNamesTheOwner(RedisClusterFixture cluster, int slot) {
    for (int i = 0; i < RedisClusterFixture.NODES; i++) {
      if (cluster.ownerSeenBy(i, slot) != cluster.ownerOf(slot)) {
        return false;
      }
    }
    return true;
  }
}
