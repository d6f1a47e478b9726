package io.pancakej.testing;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.stream.Collectors;

import io.pancakej.store.Stores;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.exceptions.JedisException;
import redis.clients.jedis.params.MigrateParams;
import redis.clients.jedis.util.JedisClusterCRC16;

/**
 * A real three-master Redis Cluster (6.2, from the {@code embedded-redis} test jar) on free
 * loopback ports, no replicas, no persistence. The constructor starts the nodes, joins them with
 * {@code CLUSTER MEET}, splits slots 0..16383 into three ranges with {@code CLUSTER ADDSLOTS}
 * and returns once every node reports {@code cluster_state:ok} and knows all three masters and
 * all 16384 slots. {@link #close()} kills the nodes and deletes their directories.
 *
 * <p>{@link #moveSlot} reshards one hash slot to another master the way
 * {@code redis-cli --cluster reshard} does, step by step, so a test can keep a workload running
 * while keys migrate.
 */
public final class RedisClusterFixture implements AutoCloseable {
  /** Number of master nodes. */
  public static final int NODES = 3;
  private static final int SLOTS = 16_384;
  private static final long READY_TIMEOUT_MS = 30_000;

  private final List<RedisProcess> nodes = new ArrayList<>();
  private final int[] slotOwner = new int[SLOTS];

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
      for (int s : slots) {
        slotOwner[s] = i;
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
              || !allConnected(j.clusterNodes())) {
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

  /**
   * Waits until the masters' config epochs are distinct and every node knows each one's current
   * epoch. {@code SETSLOT NODE} on the target raises its epoch only when the target does not
   * already hold the highest it knows of; with a stale view (right after another move raised the
   * source's) it claims the slot at a lower epoch than the source's, a node that still sees the
   * source's claim tells it the slot is the source's (deleting the keys it imported), and the two
   * masters then send clients to each other for good (seen in 1 of 50 back-to-back moves; clients
   * failed with "No more cluster attempts left" in CI). {@code redis-cli --cluster reshard} does not
   * wait either. Gossip settles the epochs within a few pings.
   */
  private void awaitAgreedEpochs() {
    long deadline = System.currentTimeMillis() + READY_TIMEOUT_MS;
    List<Map<String, String>> views = new ArrayList<>();
    while (System.currentTimeMillis() < deadline) {
      views.clear();
      try {
        for (RedisProcess n : nodes) {
          try (Jedis j = n.connect()) {
            views.add(configEpochs(j.clusterNodes()));
          }
        }
        Map<String, String> first = views.get(0);
        if (first.size() == NODES && new HashSet<>(first.values()).size() == NODES
            && views.stream().allMatch(first::equals)) {
          return;
        }
      } catch (JedisException e) {
        views.add(Map.of("error", e.toString())); // a node did not answer this time: ask again
      }
      RedisProcess.sleep(20);
    }
    throw new IllegalStateException("Redis Cluster " + seeds() + ": the masters' config epochs did not settle within "
        + READY_TIMEOUT_MS + " ms (node id -> epoch, as each node sees them): " + views);
  }

  /** Node id to config epoch, from a {@code CLUSTER NODES} reply. */
  private static Map<String, String> configEpochs(String clusterNodes) {
    Map<String, String> epochs = new HashMap<>();
    for (String[] fields : nodeFields(clusterNodes)) {
      if (fields.length > 6) {
        epochs.put(fields[0], fields[6]);
      }
    }
    return epochs;
  }

  /** The fields of each node's line of a {@code CLUSTER NODES} reply (id, address, flags, ..., epoch, link, slots). */
  private static List<String[]> nodeFields(String clusterNodes) {
    List<String[]> lines = new ArrayList<>();
    for (String line : clusterNodes.strip().split("\n")) {
      lines.add(line.split(" "));
    }
    return lines;
  }

  /** Whether a {@code CLUSTER NODES} reply lists every node as a connected master, none failing or in handshake. */
  private static boolean allConnected(String clusterNodes) {
    String[] lines = clusterNodes.strip().split("\n");
    if (lines.length != NODES) {
      return false;
    }
    for (String line : lines) {
      if (!line.contains("master") || !line.contains(" connected") || line.contains("fail") || line.contains("handshake")) {
        return false;
      }
    }
    return true;
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

  /** The hash slot of {@code key} (CRC16 modulo 16384, honouring {@code {hash tags}}). */
  public static int slotOf(byte[] key) {
    return JedisClusterCRC16.getSlot(key);
  }

  /** Index of the master that serves {@code slot}. */
  public synchronized int ownerOf(int slot) {
    return slotOwner[slot];
  }

  /**
   * Index of the master that node {@code i} says serves {@code slot} (from its {@code CLUSTER NODES}),
   * -1 if it names none.
   */
  public int ownerSeenBy(int i, int slot) {
    String clusterNodes;
    try (Jedis j = nodes.get(i).connect()) {
      clusterNodes = j.clusterNodes();
    }
    for (String[] fields : nodeFields(clusterNodes)) {
      for (int f = 8; f < fields.length; f++) {
        if (fields[f].startsWith("[")) {
          continue; // a slot being imported or migrated, not served
        }
        String[] range = fields[f].split("-");
        if (slot >= Integer.parseInt(range[0]) && slot <= Integer.parseInt(range[range.length - 1])) {
          return indexOfPort(Integer.parseInt(fields[1].substring(fields[1].indexOf(':') + 1, fields[1].indexOf('@'))));
        }
      }
    }
    return -1;
  }

  private int indexOfPort(int port) {
    for (int i = 0; i < nodes.size(); i++) {
      if (nodes.get(i).port() == port) {
        return i;
      }
    }
    return -1;
  }

  /**
   * Up to {@code count} distinct slots of node {@code i} that hold keys, found by sampling
   * {@code RANDOMKEY} (at most {@code 50 x count} samples).
   */
  public List<Integer> busySlots(int i, int count) {
    Set<Integer> found = new LinkedHashSet<>();
    try (Jedis j = nodes.get(i).connect()) {
      for (int tries = 0; tries < 50 * count && found.size() < count; tries++) {
        byte[] k = j.randomBinaryKey();
        if (k == null) {
          break;
        }
        found.add(slotOf(k));
      }
    }
    return new ArrayList<>(found);
  }

  /**
   * Moves {@code slot} and its keys to master {@code to} while clients keep running, as a
   * resharding tool does: {@code CLUSTER SETSLOT IMPORTING} on the target, {@code MIGRATING} on
   * the source, {@code MIGRATE} of {@code keysPerStep} keys at a time (calling
   * {@code betweenSteps} after each step, e.g. to sleep so that clients run into the half-moved
   * slot and its {@code ASK} redirections), then {@code SETSLOT NODE} on every master, target
   * first. Returns the number of keys moved.
   */
  public synchronized int moveSlot(int slot, int to, int keysPerStep, Runnable betweenSteps) {
    int from = slotOwner[slot];
    if (from == to) {
      return 0;
    }
    awaitAgreedEpochs();
    RedisProcess source = nodes.get(from);
    RedisProcess target = nodes.get(to);
    int moved = 0;
    try (Jedis src = source.connect(); Jedis dst = target.connect()) {
      String sourceId = src.clusterMyId();
      String targetId = dst.clusterMyId();
      dst.clusterSetSlotImporting(slot, sourceId);
      src.clusterSetSlotMigrating(slot, targetId);
      betweenSteps.run();
      while (true) {
        List<byte[]> keys = src.clusterGetKeysInSlotBinary(slot, keysPerStep);
        if (keys.isEmpty()) {
          break;
        }
        src.migrate(RedisProcess.HOST, target.port(), 0, 5000, MigrateParams.migrateParams(),
            keys.toArray(new byte[0][]));
        moved += keys.size();
        betweenSteps.run();
      }
      dst.clusterSetSlotNode(slot, targetId);
      src.clusterSetSlotNode(slot, targetId);
      for (int i = 0; i < nodes.size(); i++) {
        if (i != from && i != to) {
          try (Jedis other = nodes.get(i).connect()) {
            other.clusterSetSlotNode(slot, targetId);
          }
        }
      }
    }
    slotOwner[slot] = to;
    return moved;
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
