package io.pancakej.testing;

import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.stream.Collectors;

import io.pancakej.store.Stores;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.exceptions.JedisException;

/**
 * A real three-master Redis Cluster (6.2, from the {@code embedded-redis} test jar) on free
 * loopback ports, no replicas, no persistence. The constructor starts the nodes, joins them with
 * {@code CLUSTER MEET}, splits slots 0..16383 into three ranges with {@code CLUSTER ADDSLOTS}
 * and returns once every node reports {@code cluster_state:ok} and knows all three masters and
 * all 16384 slots. {@link #close()} kills the nodes and deletes their directories.
 */
public final class RedisClusterFixture implements AutoCloseable {
  /** Number of master nodes. */
  public static final int NODES = 3;
  private static final int SLOTS = 16_384;
  private static final long READY_TIMEOUT_MS = 30_000;

  private final List<RedisProcess> nodes = new ArrayList<>();

  /** Starts and joins a three-master cluster. */
  public RedisClusterFixture() {
    try {
      for (int i = 0; i < NODES; i++) {
        nodes.add(startNode());
      }
      join();
      assignSlots();
      awaitReady();
    } catch (RuntimeException e) {
      close();
      throw e;
    }
  }

  private static RedisProcess startNode() {
    RuntimeException last = null;
    for (int attempt = 0; attempt < 3; attempt++) {
      RedisProcess p = new RedisProcess(RedisProcess.freePort(), RedisProcess.tempDir("pancake-redis-cluster"),
          List.of("cluster-enabled yes", "cluster-config-file nodes.conf", "cluster-node-timeout 5000",
              "cluster-require-full-coverage yes"));
      try {
        p.start();
        return p;
      } catch (RuntimeException e) { // most likely the port (or port + 10000) was taken meanwhile
        p.destroy();
        last = e;
      }
    }
    throw last;
  }

  private void join() {
    RedisProcess first = nodes.get(0);
    for (RedisProcess n : nodes.subList(1, nodes.size())) {
      try (Jedis j = n.connect()) {
        j.clusterMeet(RedisProcess.HOST, first.port());
      }
    }
  }

  private void assignSlots() {
    for (int i = 0; i < nodes.size(); i++) {
      int from = SLOTS * i / nodes.size();
      int to = SLOTS * (i + 1) / nodes.size(); // exclusive
      int[] slots = new int[to - from];
      for (int s = 0; s < slots.length; s++) {
        slots[s] = from + s;
      }
      try (Jedis j = nodes.get(i).connect()) {
        j.clusterAddSlots(slots); // ADDSLOTSRANGE needs Redis 7
      }
    }
  }

  private void awaitReady() {
    long deadline = System.currentTimeMillis() + READY_TIMEOUT_MS;
    String lastInfo = "";
    while (System.currentTimeMillis() < deadline) {
      boolean ready = true;
      for (RedisProcess n : nodes) {
        try (Jedis j = n.connect()) {
          lastInfo = j.clusterInfo();
          if (!lastInfo.contains("cluster_state:ok")
              || !lastInfo.contains("cluster_slots_assigned:" + SLOTS)
              || !lastInfo.contains("cluster_known_nodes:" + NODES)
              || j.clusterSlots().size() != NODES) {
            ready = false;
            break;
          }
        } catch (JedisException e) {
          ready = false;
          lastInfo = e.toString();
          break;
        }
      }
      if (ready) {
        return;
      }
      RedisProcess.sleep(50);
    }
    throw new IllegalStateException("Redis Cluster " + seeds() + " not ready within " + READY_TIMEOUT_MS
        + " ms; last CLUSTER INFO:\n" + lastInfo);
  }

  /** The host every node listens on: {@code 127.0.0.1}. */
  public String host() {
    return RedisProcess.HOST;
  }

  /** The nodes' ports. */
  public List<Integer> ports() {
    return nodes.stream().map(RedisProcess::port).collect(Collectors.toUnmodifiableList());
  }

  /** Comma-separated {@code host:port} of every node (the {@code redis.cluster.nodes} value). */
  public String seeds() {
    return nodes.stream().map(n -> RedisProcess.HOST + ":" + n.port()).collect(Collectors.joining(","));
  }

  /** Store properties: {@code pancake.store=redis-cluster} and {@code redis.cluster.nodes}. */
  public Properties properties() {
    Properties p = new Properties();
    p.setProperty(Stores.STORE_PROPERTY, "redis-cluster");
    p.setProperty(Stores.REDIS_CLUSTER_NODES_PROPERTY, seeds());
    return p;
  }

  /** Removes every key on every node. */
  public void flushAll() {
    for (RedisProcess n : nodes) {
      try (Jedis j = n.connect()) {
        j.flushAll();
      }
    }
  }

  /** Number of keys held by node {@code i} ({@code DBSIZE}), to check keys are spread. */
  public long dbSize(int i) {
    try (Jedis j = nodes.get(i).connect()) {
      return j.dbSize();
    }
  }

  /** Kills every node and deletes their directories; idempotent. */
  @Override
  public void close() {
    for (RedisProcess n : nodes) {
      n.destroy();
    }
  }

  @Override
  public String toString() {
    return "RedisClusterFixture[" + seeds() + "]";
  }
}
