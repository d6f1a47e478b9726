package io.pancakej.testing;

import java.nio.file.Path;
import java.util.List;
import java.util.Properties;

import io.pancakej.store.Stores;
import redis.clients.jedis.Jedis;

/**
 * A real {@code redis-server} (6.2, from the {@code embedded-redis} test jar) on 127.0.0.1 and a
 * free loopback port, without persistence. The constructor returns once the server answers PING;
 * {@link #close()} kills it and deletes its directory.
 *
 * <p>{@link #stop()} and {@link #start()} stop and restart the same server on the same port, to
 * test behaviour during and after a Redis outage. The default server has no persistence, so a
 * restart loses the data; {@link #withPersistence()} starts one with an append-only file synced
 * on every write ({@code appendonly yes}, {@code appendfsync always}), the configuration that
 * keeps every acknowledged write of a real deployment across a restart.
 *
 * <pre>{@code
 * try (RedisServerFixture redis = new RedisServerFixture();
 *      KvStore store = Stores.open(redis.properties())) { ... }
 * }</pre>
 */
public final class RedisServerFixture implements AutoCloseable {
  private static final int START_ATTEMPTS = 3;
  private final RedisProcess process;

  /** Starts a server without persistence on a free loopback port. */
  public RedisServerFixture() {
    this(List.of());
  }

  private RedisServerFixture(List<String> extraConfig) {
    this.process = startProcess(extraConfig);
  }

  /** Starts a server whose data survives {@link #stop()} and {@link #start()} (AOF, fsync always). */
  public static RedisServerFixture withPersistence() {
    return new RedisServerFixture(List.of("appendonly yes", "appendfsync always"));
  }

  private static RedisProcess startProcess(List<String> extraConfig) {
    RuntimeException last = null;
    for (int attempt = 0; attempt < START_ATTEMPTS; attempt++) {
      Path dir = RedisProcess.tempDir("pancake-redis");
      RedisProcess p = new RedisProcess(RedisProcess.freePort(), dir, extraConfig);
      try {
        p.start();
        return p;
      } catch (RuntimeException e) { // most likely the port was taken between probe and bind
        p.destroy();
        last = e;
      }
    }
    throw last;
  }

  /** The host the server listens on: {@code 127.0.0.1}. */
  public String host() {
    return RedisProcess.HOST;
  }

  /** The server's port (never 6379). */
  public int port() {
    return process.port();
  }

  /** {@code host:port}. */
  public String address() {
    return host() + ":" + port();
  }

  /** Store properties: {@code pancake.store=redis}, {@code redis.host}, {@code redis.port}. */
  public Properties properties() {
    Properties p = new Properties();
    p.setProperty(Stores.STORE_PROPERTY, "redis");
    p.setProperty(Stores.REDIS_HOST_PROPERTY, host());
    p.setProperty(Stores.REDIS_PORT_PROPERTY, Integer.toString(port()));
    return p;
  }

  /** Whether the server process is up. */
  public boolean isRunning() {
    return process.isRunning();
  }

  /**
   * Stops the server (SIGTERM) and waits for it to exit (a no-op when stopped). Its data is lost
   * unless it was started {@link #withPersistence()}.
   */
  public void stop() {
    process.stop();
  }

  /** Starts the server again on the same port and waits for PING (a no-op when running). */
  public void start() {
    process.start();
  }

  /** Removes every key ({@code FLUSHALL}). */
  public void flushAll() {
    try (Jedis j = process.connect()) {
      j.flushAll();
    }
  }

  /** A new plain Jedis connection to the server, for assertions; the caller closes it. */
  public Jedis jedis() {
    return process.connect();
  }

  /** Kills the server and deletes its directory; idempotent. */
  @Override
  public void close() {
    process.destroy();
  }

  @Override
  public String toString() {
    return "RedisServerFixture[" + address() + (isRunning() ? "" : ", stopped") + "]";
  }
}
