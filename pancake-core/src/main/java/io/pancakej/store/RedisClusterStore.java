package io.pancakej.store;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

import org.apache.commons.pool2.impl.GenericObjectPoolConfig;

import io.pancakej.ConfigException;
import io.pancakej.StoreException;
import io.pancakej.config.PropertyReader;
import redis.clients.jedis.Connection;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisCluster;
import redis.clients.jedis.Pipeline;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.Response;
import redis.clients.jedis.exceptions.JedisClusterOperationException;
import redis.clients.jedis.exceptions.JedisException;
import redis.clients.jedis.exceptions.JedisRedirectionException;
import redis.clients.jedis.providers.ClusterConnectionProvider;
import redis.clients.jedis.util.JedisClusterCRC16;

/**
 * A Redis Cluster through Jedis's cluster client. Keys land on nodes by hash slot. A multi-get,
 * multi-put or multi-delete groups its keys by master from the client's cached slot map and sends
 * one plain pipeline per master on a pooled connection, writing to every master before reading any
 * reply: one round trip per master involved, overlapping, on the calling thread. Single-key
 * {@link #get} and {@link #put} (and one-key batches) are plain cluster commands.
 *
 * <p>Why not Jedis's {@code ClusterPipeline}: in Jedis 5.1.5 its {@code sync()} creates and shuts
 * down a new thread pool on every call (two new threads per batch, measured), which made the store
 * about ten times slower than one Redis on a small host (docs/results-cluster.md).
 *
 * <p>Resharding: the per-master pipelines go where the cached slot map says and do not follow
 * {@code MOVED} or {@code ASK} replies (a slot that moved, or is moving, to another master).
 * Commands answered that way, and keys whose slot the map names no master for, are retried one by
 * one, in list order, through the regular cluster commands, which follow both redirections and
 * refresh the slot map, so the next batch goes to the right master again. A multi-put is therefore
 * still "every write applied, in order" for each key; it is not atomic across keys (neither is a
 * pipeline on a cluster).
 */
public final class RedisClusterStore implements KvStore {
  private static final int MAX_ATTEMPTS = 5;

  private final ClusterConnectionProvider provider;
  private final JedisCluster cluster;
  private final String description;
  private final AtomicBoolean open = new AtomicBoolean(true);

  public RedisClusterStore(Set<HostAndPort> seeds, String password, int timeoutMs) {
    DefaultJedisClientConfig config = DefaultJedisClientConfig.builder()
        .connectionTimeoutMillis(timeoutMs).socketTimeoutMillis(timeoutMs).password(password).build();
    GenericObjectPoolConfig<Connection> pool = new GenericObjectPoolConfig<>();
    pool.setMaxTotal(64);
    pool.setMaxIdle(64);
    pool.setJmxEnabled(false);
    // what new JedisCluster(seeds, config, 5, pool) builds, keeping the provider for its slot map
    this.provider = new ClusterConnectionProvider(seeds, config, pool);
    try {
      this.cluster = new JedisCluster(provider, MAX_ATTEMPTS, Duration.ofMillis((long) timeoutMs * MAX_ATTEMPTS));
    } catch (RuntimeException e) {
      provider.close();
      throw e;
    }
    this.description = "redis-cluster:" + seeds.stream().map(HostAndPort::toString).sorted().findFirst().orElse("?");
  }

  private byte[] redirectedGet(byte[] key) {
    return redirected(() -> cluster.get(key), provider::renewSlotCache);
  }

  private void redirectedSet(byte[] key, byte[] value) {
    redirected(() -> cluster.set(key, value), provider::renewSlotCache);
  }

  private void redirectedDel(byte[] key) {
    redirected(() -> cluster.del(key), provider::renewSlotCache);
  }

  /** Times a command goes through the redirecting client before its failure is the store's. */
  static final int RESHARD_TRIES = 7;
  /** The first pause between two of them (doubling after each). */
  static final long RESHARD_PAUSE_MS = 25;

  /**
   * Runs one key's command through the redirecting client, which follows MOVED and ASK. While a
   * slot moves, the masters may for a moment disagree on its owner, and the client's own attempts
   * run out bouncing between them ("No more cluster attempts left", with the MOVED or ASK replies
   * attached): then the slot map is read again and the command tried again after a pause, up to
   * {@value #RESHARD_TRIES} times in all (some 1.6 s of pauses: moving a slot's keys can take that
   * long, and 175 ms was seen to run out in CI), before the failure goes to the
   * caller. Attempts that ran out for another reason (no node answered) are not tried again.
   * Writes retried this way are plain SET/DEL of the whole value, so a repeat leaves the same result.
   */
  static <T> T redirected(Supplier<T> command, Runnable renewSlotMap) {
    for (int tried = 1; ; tried++) {
      try {
        return command.get();
      } catch (JedisClusterOperationException e) {
        if (tried >= RESHARD_TRIES || !bouncedBetweenMasters(e)) {
          throw e; // an outage (the attempts met no node) reaches the caller as before
        }
        try {
          renewSlotMap.run();
          Thread.sleep(RESHARD_PAUSE_MS << (tried - 1));
        } catch (InterruptedException interrupted) {
          Thread.currentThread().interrupt();
          throw e;
        } catch (JedisException renewFailed) {
          e.addSuppressed(renewFailed); // no node answered: the next try finds out again
        }
      }
    }
  }

  /** Whether the client's attempts ran out on MOVED/ASK replies (a slot changing owner), not on a dead node. */
  private static boolean bouncedBetweenMasters(JedisClusterOperationException e) {
    for (Throwable t : e.getSuppressed()) {
      if (t instanceof JedisRedirectionException) {
        return true;
      }
    }
    return false;
  }

  /** Opens from {@code redis.cluster.nodes} (comma-separated host:port), {@code redis.password}, {@code redis.timeout}. */
  public static RedisClusterStore open(Properties props) {
    String nodes = props.getProperty(Stores.REDIS_CLUSTER_NODES_PROPERTY);
    if (nodes == null || nodes.isBlank()) {
      throw new ConfigException("store redis-cluster needs property " + Stores.REDIS_CLUSTER_NODES_PROPERTY
          + " (comma-separated host:port seed nodes)");
    }
    Set<HostAndPort> seeds = new HashSet<>();
    for (String n : nodes.split(",")) {
      String s = n.trim();
      int colon = s.lastIndexOf(':');
      if (colon <= 0) {
        throw new ConfigException("bad seed node '" + s + "' in " + Stores.REDIS_CLUSTER_NODES_PROPERTY + "; expected host:port");
      }
      int port;
      try {
        port = Integer.parseInt(s.substring(colon + 1));
      } catch (NumberFormatException e) {
        throw new ConfigException("bad port in seed node '" + s + "' of " + Stores.REDIS_CLUSTER_NODES_PROPERTY, e);
      }
      if (port < Stores.MIN_PORT || port > Stores.MAX_PORT) {
        throw new ConfigException("port " + port + " of seed node '" + s + "' in " + Stores.REDIS_CLUSTER_NODES_PROPERTY
            + " is out of range; a TCP port must be in " + Stores.MIN_PORT + ".." + Stores.MAX_PORT);
      }
      seeds.add(new HostAndPort(s.substring(0, colon), port));
    }
    String password = props.getProperty(Stores.REDIS_PASSWORD_PROPERTY);
    // 0: no timeout (a server that stops answering then holds the proxy's threads until it answers)
    int timeout = PropertyReader.intValue(props, Stores.REDIS_TIMEOUT_PROPERTY, RedisStore.DEFAULT_TIMEOUT_MS, 0,
        Integer.MAX_VALUE);
    try {
      return new RedisClusterStore(seeds, password == null || password.isEmpty() ? null : password, timeout);
    } catch (JedisException e) {
      throw RedisStore.failure("cannot reach Redis Cluster at " + nodes, e);
    }
  }

  @Override
  public byte[] get(byte[] key) {
    checkOpen();
    try {
      return redirectedGet(key); // follows MOVED/ASK
    } catch (JedisException e) {
      throw RedisStore.failure("Redis Cluster get failed", e);
    }
  }

  @Override
  public void put(byte[] key, byte[] value) {
    checkOpen();
    try {
      redirectedSet(key, value);
    } catch (JedisException e) {
      throw RedisStore.failure("Redis Cluster put failed", e);
    }
  }

  @Override
  public List<byte[]> multiGet(List<byte[]> keys) {
    checkOpen();
    if (keys.isEmpty()) {
      return new ArrayList<>(0);
    }
    if (keys.size() == 1) {
      List<byte[]> one = new ArrayList<>(1);
      one.add(get(keys.get(0)));
      return one;
    }
    try {
      List<Response<byte[]>> responses = pipelined(keys, (p, i) -> p.get(keys.get(i)));
      List<byte[]> out = new ArrayList<>(keys.size());
      for (int i = 0; i < keys.size(); i++) {
        Response<byte[]> r = responses.get(i);
        try {
          out.add(r == null ? redirectedGet(keys.get(i)) : r.get());
        } catch (JedisRedirectionException moved) {
          out.add(redirectedGet(keys.get(i))); // follows MOVED/ASK, refreshes the slot map
        }
      }
      return out;
    } catch (JedisException e) {
      throw RedisStore.failure("Redis Cluster multi-get failed", e);
    }
  }

  @Override
  public void multiPut(List<byte[]> keys, List<byte[]> values) {
    checkOpen();
    Stores.checkSameSize(keys, values);
    if (keys.isEmpty()) {
      return;
    }
    if (keys.size() == 1) {
      put(keys.get(0), values.get(0));
      return;
    }
    try {
      List<Response<String>> responses = pipelined(keys, (p, i) -> p.set(keys.get(i), values.get(i)));
      for (int i = 0; i < keys.size(); i++) {
        Response<String> r = responses.get(i);
        try {
          if (r == null) {
            redirectedSet(keys.get(i), values.get(i)); // slot not in the map: the redirecting client
          } else {
            r.get(); // surfaces a per-command error
          }
        } catch (JedisRedirectionException moved) {
          // the slot moved: replay this write through the redirecting client; later writes of
          // the same key in this list are redirected too (same slot), so list order is kept
          redirectedSet(keys.get(i), values.get(i));
        }
      }
    } catch (JedisException e) {
      throw RedisStore.failure("Redis Cluster multi-put failed", e);
    }
  }

  /**
   * One pipeline per master for both sides: each master gets its SETs, then its GETs (a master's
   * commands keep list order), so the writes and reads of a combined group share round trips.
   */
  @Override
  public List<byte[]> multiPutGet(List<byte[]> putKeys, List<byte[]> putValues, List<byte[]> getKeys) {
    List<byte[]> simple = Stores.oneSided(this, putKeys, putValues, getKeys);
    if (simple != null) {
      return simple;
    }
    checkOpen();
    Stores.checkSameSize(putKeys, putValues);
    int puts = putKeys.size();
    List<byte[]> all = new ArrayList<>(puts + getKeys.size());
    all.addAll(putKeys);
    all.addAll(getKeys);
    try {
      List<Response<Object>> responses = pipelined(all,
          (p, i) -> i < puts ? erase(p.set(all.get(i), putValues.get(i))) : erase(p.get(all.get(i))));
      for (int i = 0; i < puts; i++) {
        Response<Object> r = responses.get(i);
        try {
          if (r == null) {
            redirectedSet(all.get(i), putValues.get(i));
          } else {
            r.get();
          }
        } catch (JedisRedirectionException moved) {
          redirectedSet(all.get(i), putValues.get(i));
        }
      }
      List<byte[]> out = new ArrayList<>(getKeys.size());
      for (int i = puts; i < all.size(); i++) {
        Response<Object> r = responses.get(i);
        try {
          out.add(r == null ? redirectedGet(all.get(i)) : (byte[]) r.get());
        } catch (JedisRedirectionException moved) {
          out.add(redirectedGet(all.get(i)));
        }
      }
      return out;
    } catch (JedisException e) {
      throw RedisStore.failure("Redis Cluster multi-put-get failed", e);
    }
  }

  @SuppressWarnings("unchecked")
  private static Response<Object> erase(Response<?> r) {
    return (Response<Object>) r;
  }

  @Override
  public void multiDelete(List<byte[]> keys) {
    checkOpen();
    if (keys.isEmpty()) {
      return;
    }
    try {
      List<Response<Long>> responses = pipelined(keys, (p, i) -> p.del(keys.get(i)));
      for (int i = 0; i < keys.size(); i++) {
        Response<Long> r = responses.get(i);
        try {
          if (r == null) {
            redirectedDel(keys.get(i));
          } else {
            r.get();
          }
        } catch (JedisRedirectionException moved) {
          redirectedDel(keys.get(i));
        }
      }
    } catch (JedisException e) {
      throw RedisStore.failure("Redis Cluster delete failed", e);
    }
  }

  /** Appends command {@code i} of a batch to a node's pipeline. */
  @FunctionalInterface
  private interface Command<T> {
    Response<T> append(Pipeline p, int i);
  }

  /**
   * Sends command {@code i} for every key to the master the cached slot map names for it, one
   * pipeline per master on a pooled connection, in list order within each master (so repeated
   * writes of a key, which share a slot, keep their order). Every pipeline is flushed before any
   * reply is read: one round trip per master, overlapping, on the calling thread. The result has
   * the response at each key's position, or {@code null} where the slot map names no master (the
   * caller sends those through the redirecting client). A reply that is an error, MOVED/ASK
   * included, is thrown by its {@link Response#get()}.
   */
  private <T> List<Response<T>> pipelined(List<byte[]> keys, Command<T> command) {
    int n = keys.size();
    Map<HostAndPort, List<Integer>> byNode = new HashMap<>(8);
    for (int i = 0; i < n; i++) {
      HostAndPort node = provider.getNode(JedisClusterCRC16.getSlot(keys.get(i)));
      if (node != null) {
        byNode.computeIfAbsent(node, k -> new ArrayList<>(n)).add(i);
      }
    }
    List<Response<T>> responses = new ArrayList<>(Collections.nCopies(n, null));
    List<Connection> connections = new ArrayList<>(byNode.size());
    List<Pipeline> pipelines = new ArrayList<>(byNode.size());
    int synced = 0;
    try {
      for (Map.Entry<HostAndPort, List<Integer>> e : byNode.entrySet()) {
        Connection c = provider.getConnection(e.getKey());
        connections.add(c);
        Pipeline p = new Pipeline(c);
        pipelines.add(p);
        for (int i : e.getValue()) {
          responses.set(i, command.append(p, i));
        }
        if (byNode.size() > 1) {
          Flush.flush(c); // the master starts on its commands while we write to the next one
        }
      }
      for (Pipeline p : pipelines) {
        p.sync(); // flushes (if not yet) and reads every reply of this master
        synced++;
      }
      return responses;
    } finally {
      for (int j = 0; j < connections.size(); j++) {
        Connection c = connections.get(j);
        if (j >= synced) {
          c.setBroken(); // replies may still be in flight: never hand this connection out again
        }
        try {
          c.close(); // back to its pool (or destroyed, if broken)
        } catch (RuntimeException ignored) {
          // a failing return to the pool must not hide the outcome of the batch
        }
      }
    }
  }

  /**
   * {@code DBSIZE} on every master the slot map names (replicas mirror their master). A cluster
   * whose map leaves slots without a master is an error: what they hold cannot be checked.
   */
  @Override
  public boolean isEmpty() {
    checkOpen();
    try {
      Set<HostAndPort> masters = masters();
      if (masters == null) {
        provider.renewSlotCache();
        masters = masters();
      }
      if (masters == null) {
        throw new StoreException("Redis Cluster " + description + " has hash slots without a master"
            + " (cluster not ready?): cannot tell whether it holds data");
      }
      for (HostAndPort master : masters) {
        try (Connection c = provider.getConnection(master)) {
          if (((Number) c.executeCommand(Protocol.Command.DBSIZE)).longValue() != 0) {
            return false;
          }
        }
      }
      return true;
    } catch (JedisException e) {
      throw RedisStore.failure("Redis Cluster DBSIZE failed on " + description, e);
    }
  }

  /** Every master in the cached slot map, or null if some slot has none. */
  private Set<HostAndPort> masters() {
    Set<HostAndPort> masters = new HashSet<>();
    for (int slot = 0; slot < Protocol.CLUSTER_HASHSLOTS; slot++) {
      HostAndPort node = provider.getNode(slot);
      if (node == null) {
        return null;
      }
      masters.add(node);
    }
    return masters;
  }

  private void checkOpen() {
    if (!open.get()) {
      throw new StoreException("Redis Cluster store " + description + " is closed");
    }
  }

  @Override
  public String describe() {
    return description;
  }

  @Override
  public void close() {
    if (open.compareAndSet(true, false)) {
      try {
        cluster.close();
      } catch (RuntimeException e) {
        throw new StoreException("closing the Redis Cluster client failed", e);
      }
    }
  }

  /**
   * Flushes a connection's output buffer without reading, so that several masters work on their
   * pipelines at once. {@code Connection.flush()} is protected in Jedis 5.1.5; when it cannot be
   * reached this does nothing and each pipeline is flushed by its {@code sync()} (one round trip
   * per master in turn, still correct).
   */
  private static final class Flush {
    private static final MethodHandle FLUSH = find();

    private static MethodHandle find() {
      try {
        Method m = Connection.class.getDeclaredMethod("flush");
        m.setAccessible(true);
        return MethodHandles.lookup().unreflect(m);
      } catch (ReflectiveOperationException | RuntimeException e) {
        return null;
      }
    }

    static void flush(Connection c) {
      if (FLUSH == null) {
        return;
      }
      try {
        FLUSH.invoke(c);
      } catch (RuntimeException | Error e) {
        throw e;
      } catch (Throwable t) {
        throw new IllegalStateException(t);
      }
    }
  }
}
