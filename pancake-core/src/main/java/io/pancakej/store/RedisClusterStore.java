package io.pancakej.store;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;

import org.apache.commons.pool2.impl.GenericObjectPoolConfig;

import io.pancakej.ConfigException;
import io.pancakej.StoreException;
import redis.clients.jedis.ClusterPipeline;
import redis.clients.jedis.Connection;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisCluster;
import redis.clients.jedis.Response;
import redis.clients.jedis.exceptions.JedisException;
import redis.clients.jedis.exceptions.JedisRedirectionException;

/**
 * A Redis Cluster through Jedis's cluster client. Keys land on nodes by hash slot; a multi-get or
 * multi-put is a cluster pipeline, which Jedis sends as one round trip per node involved.
 *
 * <p>Resharding: Jedis's cluster pipeline sends each command to the node its cached slot map
 * names and does not follow {@code MOVED} or {@code ASK} replies (a slot that moved, or is moving,
 * to another master). Commands answered that way are retried one by one, in list order, through
 * the regular cluster commands, which follow both redirections and refresh the slot map, so the
 * next pipeline goes to the right node again. A multi-put is therefore still "every write applied,
 * in order" for each key; it is not atomic across keys (neither is a pipeline on a cluster).
 */
public final class RedisClusterStore implements KvStore {
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
    this.cluster = new JedisCluster(seeds, config, 5, pool);
    this.description = "redis-cluster:" + seeds.stream().map(HostAndPort::toString).sorted().findFirst().orElse("?");
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
      try {
        seeds.add(new HostAndPort(s.substring(0, colon), Integer.parseInt(s.substring(colon + 1))));
      } catch (NumberFormatException e) {
        throw new ConfigException("bad port in seed node '" + s + "' of " + Stores.REDIS_CLUSTER_NODES_PROPERTY, e);
      }
    }
    String password = props.getProperty(Stores.REDIS_PASSWORD_PROPERTY);
    int timeout = Stores.intProperty(props, Stores.REDIS_TIMEOUT_PROPERTY, RedisStore.DEFAULT_TIMEOUT_MS);
    try {
      return new RedisClusterStore(seeds, password == null || password.isEmpty() ? null : password, timeout);
    } catch (JedisException e) {
      throw RedisStore.failure("cannot reach Redis Cluster at " + nodes, e);
    }
  }

  @Override
  public List<byte[]> multiGet(List<byte[]> keys) {
    checkOpen();
    if (keys.isEmpty()) {
      return new ArrayList<>(0);
    }
    try (ClusterPipeline p = cluster.pipelined()) {
      List<Response<byte[]>> responses = new ArrayList<>(keys.size());
      for (byte[] k : keys) {
        responses.add(p.get(k));
      }
      p.sync();
      List<byte[]> out = new ArrayList<>(keys.size());
      for (int i = 0; i < keys.size(); i++) {
        try {
          out.add(responses.get(i).get());
        } catch (JedisRedirectionException moved) {
          out.add(cluster.get(keys.get(i))); // follows MOVED/ASK, refreshes the slot map
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
    try (ClusterPipeline p = cluster.pipelined()) {
      List<Response<String>> responses = new ArrayList<>(keys.size());
      for (int i = 0; i < keys.size(); i++) {
        responses.add(p.set(keys.get(i), values.get(i)));
      }
      p.sync();
      for (int i = 0; i < keys.size(); i++) {
        try {
          responses.get(i).get(); // surfaces a per-command error
        } catch (JedisRedirectionException moved) {
          // the slot moved: replay this write through the redirecting client; later writes of
          // the same key in this list are redirected too (same slot), so list order is kept
          cluster.set(keys.get(i), values.get(i));
        }
      }
    } catch (JedisException e) {
      throw RedisStore.failure("Redis Cluster multi-put failed", e);
    }
  }

  @Override
  public void multiDelete(List<byte[]> keys) {
    checkOpen();
    if (keys.isEmpty()) {
      return;
    }
    try (ClusterPipeline p = cluster.pipelined()) {
      List<Response<Long>> responses = new ArrayList<>(keys.size());
      for (byte[] k : keys) {
        responses.add(p.del(k));
      }
      p.sync();
      for (int i = 0; i < keys.size(); i++) {
        try {
          responses.get(i).get();
        } catch (JedisRedirectionException moved) {
          cluster.del(keys.get(i));
        }
      }
    } catch (JedisException e) {
      throw RedisStore.failure("Redis Cluster delete failed", e);
    }
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
}
