package io.pancakej.tools;

import java.io.PrintWriter;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;

import io.pancakej.testing.RedisClusterFixture;
import io.pancakej.testing.RedisServerFixture;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import redis.clients.jedis.Jedis;

/**
 * {@code bin/pancake redis} ({@code bin/redis-local}): a private {@code redis-server} for
 * benchmarks, the tests' own {@link RedisServerFixture} (or {@link RedisClusterFixture}): the
 * binary shipped in the embedded-redis jar, 127.0.0.1, a free port (never 6379), no persistence.
 * It prints the address on stdout and serves until the process is stopped (Ctrl-C, SIGTERM), then
 * removes the server and its directory.
 */
@Command(name = "redis", mixinStandardHelpOptions = true, sortOptions = false, subcommands = Redis.Flush.class,
    description = {"A private redis-server (or Redis Cluster) on a free loopback port, until stopped.",
        "Prints 127.0.0.1:<port> (for a cluster: the seed list for -p redis.cluster.nodes=...) on stdout once it "
            + "answers and serves until stopped (Ctrl-C or kill); no persistence, never port 6379."})
final class Redis implements Callable<Integer> {
  @Option(names = "--cluster", description = "a three-master Redis Cluster instead of one server")
  boolean cluster;

  @Spec
  CommandSpec spec;

  @Override
  public Integer call() throws InterruptedException {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    err.println("redis: starting " + (cluster ? "a three-master Redis Cluster" : "redis-server") + "...");
    err.flush();
    AutoCloseable server;
    String address;
    if (cluster) {
      RedisClusterFixture c = new RedisClusterFixture();
      server = c;
      address = c.seeds();
    } else {
      RedisServerFixture r = new RedisServerFixture();
      server = r;
      address = r.address();
    }
    Thread stopper = new Thread(() -> close(server), "redis-stopper");
    Runtime.getRuntime().addShutdownHook(stopper);
    try {
      out.println(address);
      out.flush();
      err.println("redis: serving on " + address + " (pid " + ProcessHandle.current().pid()
          + "); stop with Ctrl-C or kill " + ProcessHandle.current().pid());
      err.flush();
      new CountDownLatch(1).await(); // until interrupted or the JVM is stopped
      return 0;
    } catch (InterruptedException e) {
      return 0;
    } finally {
      close(server);
      try {
        Runtime.getRuntime().removeShutdownHook(stopper);
      } catch (IllegalStateException e) {
        // shutting down: the hook closes the server
      }
    }
  }

  private static void close(AutoCloseable server) {
    try {
      server.close(); // idempotent
    } catch (Exception e) {
      // best effort at exit
    }
  }

  /** {@code redis flush}: empties one database (FLUSHDB) or, without {@code --redis-db}, all (FLUSHALL). */
  @Command(name = "flush", mixinStandardHelpOptions = true, sortOptions = false,
      description = "Empties a Redis server: FLUSHALL, or with --redis-db FLUSHDB of that database only.")
  static final class Flush implements Callable<Integer> {
    @Option(names = "--redis-host", defaultValue = "127.0.0.1", description = "default ${DEFAULT-VALUE}")
    String host;
    @Option(names = "--redis-port", required = true, description = "the server's port")
    int port;
    @Option(names = "--redis-db", description = "only this logical database")
    Integer db;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
      try (Jedis j = new Jedis(host, port)) {
        String reply;
        if (db == null) {
          reply = j.flushAll();
        } else {
          j.select(db);
          reply = j.flushDB();
        }
        spec.commandLine().getOut().println(reply);
        spec.commandLine().getOut().flush();
        return "OK".equals(reply) ? 0 : 1;
      }
    }
  }
}
