package io.pancakej.store;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicBoolean;

import io.pancakej.ConfigException;
import io.pancakej.StoreException;
import io.pancakej.config.PropertyReader;
import redis.clients.jedis.CommandArguments;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.JedisFactory;
import redis.clients.jedis.JedisPool;
import redis.clients.jedis.JedisPoolConfig;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.exceptions.JedisException;

/**
 * A standalone Redis server through a Jedis connection pool. A multi-get is one {@code MGET},
 * a multi-put one {@code MSET} (atomic on the server), a multi-delete one {@code DEL}. Connections
 * send a pipeline in one write and read a reply in as few reads as they can ({@link RedisSockets}).
 * A put-and-get ({@link #sendPutGet}, {@link #multiPutGet}) goes out on one connection of its own
 * ({@link RedisPipeline}), so such calls run in the order they were sent, whichever thread reads
 * their replies.
 *
 * <p>Outages: a connection failure raises {@link StoreException} and drops every idle pooled
 * connection, so that once the server is back the same store object reconnects instead of
 * failing on stale sockets. A multi-get that fails on a connection is retried once on a fresh
 * connection (reads are side-effect free) unless it timed out (a hung server: retrying would double
 * the time to fail); writes and deletes are never retried, since a write
 * whose reply was lost may have been applied and replaying it could undo a later write.
 */
public final class RedisStore implements KvStore {
  public static final String DEFAULT_HOST = "127.0.0.1";
  public static final int DEFAULT_PORT = 6379;
  public static final int DEFAULT_TIMEOUT_MS = 5000;
  public static final int DEFAULT_DB = 0;

  private final JedisPool pool;
  private final String description;
  private final AtomicBoolean open = new AtomicBoolean(true);
  /** The connection {@link #sendPutGet}'s calls are pipelined on. */
  private final RedisPipeline pipeline;

  public RedisStore(String host, int port, String password, int db, int timeoutMs) {
    JedisPoolConfig config = new JedisPoolConfig();
    config.setMaxTotal(64);
    config.setMaxIdle(64);
    config.setMinIdle(0);
    config.setMaxWait(Duration.ofMillis(timeoutMs));
    config.setJmxEnabled(false);
    JedisClientConfig client = DefaultJedisClientConfig.builder().connectionTimeoutMillis(timeoutMs)
        .socketTimeoutMillis(timeoutMs).password(password).database(db).build();
    // JedisFactory's constructor that takes a socket factory is protected: an anonymous subclass
    RedisSockets sockets = new RedisSockets(host, port, timeoutMs);
    this.pool = new JedisPool(config, new JedisFactory(sockets, client) {});
    this.pipeline = new RedisPipeline(sockets, password, db);
    this.description = "redis:" + host + ":" + port + "/" + db;
  }

  /** Opens from {@code redis.host}, {@code redis.port}, {@code redis.password}, {@code redis.db}, {@code redis.timeout}. */
  public static RedisStore open(Properties props) {
    String host = PropertyReader.string(props, Stores.REDIS_HOST_PROPERTY, DEFAULT_HOST);
    // a port out of range would otherwise surface later as a connection error that says nothing about the configuration
    int port = PropertyReader.intValue(props, Stores.REDIS_PORT_PROPERTY, DEFAULT_PORT, Stores.MIN_PORT, Stores.MAX_PORT);
    String password = props.getProperty(Stores.REDIS_PASSWORD_PROPERTY);
    int db = PropertyReader.intValue(props, Stores.REDIS_DB_PROPERTY, DEFAULT_DB);
    // 0: no timeout (a server that stops answering then holds the proxy's threads until it answers)
    int timeout = PropertyReader.intValue(props, Stores.REDIS_TIMEOUT_PROPERTY, DEFAULT_TIMEOUT_MS, 0, Integer.MAX_VALUE);
    RedisStore store = new RedisStore(host, port, password == null || password.isEmpty() ? null : password, db, timeout);
    try (Jedis j = store.pool.getResource()) {
      j.ping();
    } catch (JedisException e) {
      store.close();
      String reply = serverReply(e);
      if (reply != null && reply.contains("DB index")) {
        throw new ConfigException(reply + " -- Redis at " + host + ":" + port + " refused SELECT " + db
            + " from property " + Stores.REDIS_DB_PROPERTY + "=" + db + "; a database index must be below the server's "
            + "'databases' setting (16 by default)", e);
      }
      throw failure("cannot reach Redis at " + host + ":" + port, e);
    }
    return store;
  }

  /** Redis's own error reply ({@code ERR ...}) behind {@code e}, or null if it is not one. */
  private static String serverReply(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof JedisDataException && t.getMessage() != null) {
        return t.getMessage();
      }
    }
    return null;
  }

  @Override
  public List<byte[]> multiGet(List<byte[]> keys) {
    checkOpen();
    if (keys.isEmpty()) {
      return new ArrayList<>(0); // MGET needs at least one key
    }
    byte[][] args = keys.toArray(new byte[0][]);
    try {
      return mget(args);
    } catch (JedisConnectionException e) {
      dropIdleConnections();
      if (timedOut(e)) {
        // a hung server: a second attempt would only double the time to fail
        throw failure("Redis MGET failed on " + description, e);
      }
      try {
        return mget(args); // once, on a fresh connection: the first may have been stale
      } catch (JedisException retry) {
        retry.addSuppressed(e);
        throw failed("Redis MGET failed on " + description, retry);
      }
    } catch (JedisException e) {
      throw failed("Redis MGET failed on " + description, e);
    }
  }

  private static boolean timedOut(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof java.net.SocketTimeoutException) {
        return true;
      }
    }
    return false;
  }

  private List<byte[]> mget(byte[][] keys) {
    try (Jedis j = pool.getResource()) {
      return j.mget(keys);
    }
  }

  @Override
  public void multiPut(List<byte[]> keys, List<byte[]> values) {
    checkOpen();
    Stores.checkSameSize(keys, values);
    if (keys.isEmpty()) {
      return;
    }
    byte[][] kv = new byte[keys.size() * 2][];
    for (int i = 0; i < keys.size(); i++) {
      kv[2 * i] = keys.get(i);
      kv[2 * i + 1] = values.get(i);
    }
    try (Jedis j = pool.getResource()) {
      j.mset(kv);
    } catch (JedisException e) {
      throw failed("Redis MSET failed on " + description, e);
    }
  }

  /**
   * One round trip: {@code MSET} and {@code MGET} in one pipeline, {@link #sendPutGet}'s, waited
   * for (never retried, since it writes); with one side empty, a plain multi-get or multi-put.
   */
  @Override
  public List<byte[]> multiPutGet(List<byte[]> putKeys, List<byte[]> putValues, List<byte[]> getKeys) {
    List<byte[]> simple = Stores.oneSided(this, putKeys, putValues, getKeys);
    return simple != null ? simple : sendPutGet(putKeys, putValues, getKeys).await();
  }

  /**
   * {@code MSET} and {@code MGET} written at once on the store's pipelined connection, the reply
   * read when awaited (never retried, since it writes). A connection failure drops the idle pooled
   * connections too, as the other calls' failures do.
   */
  @Override
  public PendingReply sendPutGet(List<byte[]> putKeys, List<byte[]> putValues, List<byte[]> getKeys) {
    checkOpen();
    Stores.checkSameSize(putKeys, putValues);
    List<CommandArguments> commands = new ArrayList<>(2);
    if (!putKeys.isEmpty()) {
      CommandArguments mset = new CommandArguments(Protocol.Command.MSET);
      for (int i = 0; i < putKeys.size(); i++) {
        mset.add(putKeys.get(i)).add(putValues.get(i));
      }
      commands.add(mset);
    }
    if (!getKeys.isEmpty()) {
      CommandArguments mget = new CommandArguments(Protocol.Command.MGET);
      for (byte[] k : getKeys) {
        mget.add(k);
      }
      commands.add(mget);
    }
    if (commands.isEmpty()) {
      return ArrayList::new;
    }
    String what = "Redis " + (putKeys.isEmpty() ? "MGET" : getKeys.isEmpty() ? "MSET" : "MSET+MGET pipeline")
        + " failed on " + description;
    RedisPipeline.Call call;
    try {
      call = pipeline.send(commands, !getKeys.isEmpty());
    } catch (JedisException e) {
      throw failed(what, e);
    }
    return () -> {
      try {
        return call.await();
      } catch (JedisException e) {
        throw failed(what, e);
      }
    };
  }

  @Override
  public void multiDelete(List<byte[]> keys) {
    checkOpen();
    if (keys.isEmpty()) {
      return;
    }
    try (Jedis j = pool.getResource()) {
      j.del(keys.toArray(new byte[0][]));
    } catch (JedisException e) {
      throw failed("Redis DEL failed on " + description, e);
    }
  }

  /** Maps a Jedis failure, dropping idle connections first when the connection broke. */
  private StoreException failed(String what, JedisException e) {
    if (e instanceof JedisConnectionException) {
      dropIdleConnections();
    }
    return failure(what, e);
  }

  private void dropIdleConnections() {
    try {
      pool.clear();
    } catch (RuntimeException e) {
      // best effort: a stale connection left behind only fails one more call
    }
  }

  private void checkOpen() {
    if (!open.get()) {
      throw new StoreException("Redis store " + description + " is closed");
    }
  }

  static StoreException failure(String what, JedisException e) {
    String kind = e instanceof JedisConnectionException ? " (connection)" : "";
    return new StoreException(what + kind + ": " + e.getMessage(), e);
  }

  /** {@code DBSIZE} of the configured logical database. */
  @Override
  public boolean isEmpty() {
    checkOpen();
    try (Jedis j = pool.getResource()) {
      return j.dbSize() == 0;
    } catch (JedisException e) {
      throw failed("Redis DBSIZE failed on " + description, e);
    }
  }

  @Override
  public String describe() {
    return description;
  }

  /** {@code DBSIZE} entries and {@code INFO memory}'s {@code used_memory} bytes (the whole server). */
  @Override
  public Optional<Storage> storage() {
    checkOpen();
    try (Jedis j = pool.getResource()) {
      long keys = j.dbSize();
      long bytes = -1;
      for (String line : j.info("memory").split("\r?\n")) {
        if (line.startsWith("used_memory:")) {
          bytes = Long.parseLong(line.substring("used_memory:".length()).trim());
        }
      }
      return Optional.of(new Storage(keys, bytes));
    } catch (JedisException | NumberFormatException e) {
      return Optional.empty();
    }
  }

  @Override
  public void close() {
    if (open.compareAndSet(true, false)) {
      pipeline.close();
      try {
        pool.close();
      } catch (JedisException e) {
        throw failure("closing the Redis pool for " + description + " failed", e);
      }
    }
  }
}
