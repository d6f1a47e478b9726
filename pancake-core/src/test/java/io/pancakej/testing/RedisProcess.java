package io.pancakej.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.exceptions.JedisException;

/**
 * One {@code redis-server} process on 127.0.0.1 with a fixed port, its own working directory and
 * config file, no persistence. It can be stopped and started again on the same port.
 */
final class RedisProcess {
  static final String HOST = "127.0.0.1";
  private static final long START_TIMEOUT_MS = 15_000;

  private final int port;
  private final Path dir;
  private final Path config;
  private final Path log;
  private Process process;
  private Thread shutdownHook;

  /** Writes the config; {@code extraConfig} lines are appended (e.g. cluster settings). */
  RedisProcess(int port, Path dir, List<String> extraConfig) {
    this.port = port;
    this.dir = dir;
    this.config = dir.resolve("redis.conf");
    this.log = dir.resolve("redis.log");
    StringBuilder sb = new StringBuilder()
        .append("bind ").append(HOST).append('\n')
        .append("port ").append(port).append('\n')
        .append("protected-mode no\n")
        .append("daemonize no\n")
        .append("save \"\"\n")
        .append("appendonly no\n")
        .append("dir ").append(dir.toAbsolutePath()).append('\n')
        .append("logfile ").append(log.toAbsolutePath()).append('\n');
    for (String line : extraConfig) {
      sb.append(line).append('\n');
    }
    try {
      Files.writeString(config, sb.toString(), StandardCharsets.US_ASCII);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + config, e);
    }
  }

  int port() {
    return port;
  }

  synchronized boolean isRunning() {
    return process != null && process.isAlive();
  }

  /** Starts the server and waits until it answers PING; a no-op when already running. */
  synchronized void start() {
    if (isRunning()) {
      return;
    }
    ProcessBuilder pb = new ProcessBuilder(RedisBinary.path().toString(), config.toAbsolutePath().toString())
        .directory(dir.toFile())
        .redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("redis.out").toFile()));
    try {
      process = pb.start();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start redis-server on port " + port, e);
    }
    Process p = process;
    shutdownHook = new Thread(p::destroyForcibly, "redis-" + port + "-killer");
    Runtime.getRuntime().addShutdownHook(shutdownHook);
    long deadline = System.currentTimeMillis() + START_TIMEOUT_MS;
    while (true) {
      if (!p.isAlive()) {
        String out = tail();
        stop();
        throw new IllegalStateException("redis-server on port " + port + " exited with code "
            + p.exitValue() + ":\n" + out);
      }
      if (ping()) {
        return;
      }
      if (System.currentTimeMillis() > deadline) {
        String out = tail();
        stop();
        throw new IllegalStateException("redis-server on port " + port + " did not answer PING within "
            + START_TIMEOUT_MS + " ms:\n" + out);
      }
      sleep(20);
    }
  }

  /** Kills the server and waits for it to exit; a no-op when not running. */
  synchronized void stop() {
    if (process == null) {
      return;
    }
    Process p = process;
    process = null;
    p.destroy(); // SIGTERM: exits at once (an AOF is already synced with appendfsync always)
    try {
      if (!p.waitFor(5, TimeUnit.SECONDS)) {
        p.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      p.destroyForcibly();
      Thread.currentThread().interrupt();
    }
    try {
      Runtime.getRuntime().removeShutdownHook(shutdownHook);
    } catch (IllegalStateException e) {
      // JVM already shutting down; the hook kills the process anyway
    }
    shutdownHook = null;
  }

  /** A fresh connection to this server (the caller closes it). */
  Jedis connect() {
    return new Jedis(new HostAndPort(HOST, port),
        DefaultJedisClientConfig.builder().connectionTimeoutMillis(1000).socketTimeoutMillis(5000).build());
  }

  private boolean ping() {
    try (Jedis j = new Jedis(new HostAndPort(HOST, port),
        DefaultJedisClientConfig.builder().connectionTimeoutMillis(200).socketTimeoutMillis(1000).build())) {
      return "PONG".equals(j.ping());
    } catch (JedisException e) {
      return false;
    }
  }

  /** The last lines the server logged, for error messages. */
  String tail() {
    StringBuilder sb = new StringBuilder();
    for (Path f : List.of(dir.resolve("redis.out"), log)) {
      try {
        if (Files.exists(f)) {
          List<String> lines = Files.readAllLines(f, StandardCharsets.ISO_8859_1);
          lines.subList(Math.max(0, lines.size() - 20), lines.size()).forEach(l -> sb.append(l).append('\n'));
        }
      } catch (IOException e) {
        sb.append("(cannot read ").append(f).append(")\n");
      }
    }
    return sb.toString();
  }

  /** Stops the server and deletes its directory. */
  void destroy() {
    stop();
    deleteRecursively(dir);
  }

  /** A loopback port that was free a moment ago (never 6379). */
  static int freePort() {
    for (int i = 0; i < 20; i++) {
      try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName(HOST))) {
        s.setReuseAddress(true);
        int p = s.getLocalPort();
        // the cluster bus listens on port + 10000, which must also be a valid port
        if (p != 6379 && p + 10_000 <= 65_535 && isFree(p + 10_000)) {
          return p;
        }
      } catch (IOException e) {
        throw new UncheckedIOException("cannot find a free loopback port", e);
      }
    }
    throw new IllegalStateException("cannot find a free loopback port");
  }

  private static boolean isFree(int port) {
    try (ServerSocket s = new ServerSocket(port, 1, InetAddress.getByName(HOST))) {
      return s.getLocalPort() == port;
    } catch (IOException e) {
      return false;
    }
  }

  static Path tempDir(String prefix) {
    try {
      return Files.createTempDirectory(prefix);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create a temporary directory", e);
    }
  }

  static void deleteRecursively(Path dir) {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> walk = Files.walk(dir)) {
      walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      // best effort: a temp dir left behind is harmless
    }
  }

  static void sleep(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }
}
