package io.pancakej.tools;

import java.nio.file.Path;
import java.util.Locale;
import java.util.Properties;
import java.util.concurrent.Callable;

import io.pancakej.bench.Bench;
import io.pancakej.bench.ClockLoop;
import io.pancakej.bench.StoreLoop;
import io.pancakej.store.KvStore;
import io.pancakej.store.Stores;
import io.pancakej.testing.RedisServerFixture;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code bin/pancake store-bound}: what the store alone allows. Requests/s of insecure's store
 * pattern (1 get of 1.2 KB) and of PANCAKE's (3 gets + 3 puts of 1.2 KB over twice as many
 * labels), with no proxy, crypto or YCSB work ({@link StoreLoop}), side by side on one store; their
 * ratio bounds what any PANCAKE implementation can reach against insecure there. With
 * {@code --clocked}, what a clocked proxy with none of its own work allows closed-loop callers
 * instead, for each tick rate and tick size asked ({@link ClockLoop}).
 */
@Command(name = "store-bound", mixinStandardHelpOptions = true, sortOptions = false,
    description = {"What the store alone allows for insecure's and PANCAKE's access patterns.",
        "Requests/s of insecure's store pattern (1 get) and PANCAKE's (3 gets + 3 puts over 2x the keys), with no "
            + "proxy, crypto or YCSB work; their ratio bounds what PANCAKE can reach against insecure.",
        "With --clocked: requests/s that --threads closed-loop callers get from ticks on a fixed grid (one store call "
            + "each: the last tick's write-back and B x batches reads; delta = 1/2), for each --tick-rates x "
            + "--tick-batches, with no proxy, crypto or YCSB work: the bound of a clocked design on this store."})
final class StoreBound implements Callable<Integer> {
  @Option(names = "--store", defaultValue = "rocksdb",
      description = "rocksdb (a fresh directory under --work) or redis (a private server); default ${DEFAULT-VALUE}")
  String store;
  @Option(names = "--records", defaultValue = "100000", description = "keys of the insecure pattern (default ${DEFAULT-VALUE})")
  int records;
  @Option(names = "--threads", defaultValue = "8", description = "default ${DEFAULT-VALUE}")
  int threads;
  @Option(names = "--requests", defaultValue = "200000", description = "requests per round, 3 rounds (default ${DEFAULT-VALUE})")
  int requests;
  @Option(names = "--work", defaultValue = "data/store-bound",
      description = "RocksDB scratch directory, relative to the project root (default ${DEFAULT-VALUE})")
  Path work;
  @Option(names = "--clocked", description = "measure the clocked design's bound instead of the two patterns")
  boolean clocked;
  @Option(names = "--tick-rates", split = ",", defaultValue = "3200,4800,6400",
      description = "with --clocked: ticks per second asked (default ${DEFAULT-VALUE})")
  double[] tickRates;
  @Option(names = "--tick-batches", split = ",", defaultValue = "2,3,4",
      description = "with --clocked: batches per tick, B = 3 accesses each (default ${DEFAULT-VALUE})")
  int[] tickBatches;

  @Spec
  CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    if (!store.equals("rocksdb") && !store.equals("redis")) {
      throw new CommandLine.ParameterException(spec.commandLine(), "--store must be rocksdb or redis, not '" + store + "'");
    }
    if (records < 1 || threads < 1 || requests < 1) {
      throw new CommandLine.ParameterException(spec.commandLine(),
          "--records, --threads and --requests take positive whole numbers");
    }
    CommandLine.ParseResult given = spec.commandLine().getParseResult();
    if (!clocked && (given.hasMatchedOption("--tick-rates") || given.hasMatchedOption("--tick-batches"))) {
      throw new CommandLine.ParameterException(spec.commandLine(), "--tick-rates and --tick-batches need --clocked");
    }
    if (clocked && requests < threads) {
      throw new CommandLine.ParameterException(spec.commandLine(), "--clocked needs --requests of at least --threads");
    }
    for (double r : tickRates) {
      if (!(r > 0) || r > 1e6) {
        throw new CommandLine.ParameterException(spec.commandLine(), "--tick-rates take rates in (0, 10^6], not " + r);
      }
    }
    for (int b : tickBatches) {
      if (b < 1 || b > 1000) {
        throw new CommandLine.ParameterException(spec.commandLine(), "--tick-batches take whole numbers in [1, 1000], not " + b);
      }
    }
    Path root = Path.of(System.getProperty("pancake.root", ".")).toAbsolutePath().normalize();
    RedisServerFixture redis = store.equals("redis") ? new RedisServerFixture() : null;
    try {
      if (clocked) {
        return clocked(root, redis);
      }
      double insecure = pattern("insecure", 0, records, root, redis);
      double pancake = pattern("pancake", 3, 2 * records, root, redis);
      System.out.printf(Locale.ROOT, "store: %s, %d records, %d threads, %d CPUs, last of 3 rounds (the first warms up):%n",
          store, records, threads, Runtime.getRuntime().availableProcessors());
      System.out.printf(Locale.ROOT, "  insecure pattern (1 get):             %.0f requests/s%n", insecure);
      System.out.printf(Locale.ROOT, "  PANCAKE pattern (3 gets + 3 puts):    %.0f requests/s%n", pancake);
      System.out.printf(Locale.ROOT, "  ratio of the two (store work only): %.3f%n", pancake / insecure);
      return 0;
    } finally {
      if (redis != null) {
        redis.close();
      }
    }
  }

  /** The clocked skeleton over 2 x records labels, one row per tick rate and size (the last of 3 rounds). */
  private int clocked(Path root, RedisServerFixture redis) throws Exception {
    int keys = 2 * records;
    try (KvStore kv = Stores.open(storeProperties("clocked", root, redis))) {
      System.err.printf(Locale.ROOT, "store-bound: loading %d keys...%n", keys);
      StoreLoop.load(kv, keys);
      StringBuilder table = new StringBuilder();
      for (int batches : tickBatches) {
        for (double rate : tickRates) {
          System.err.printf(Locale.ROOT, "store-bound: clocked, %.0f ticks/s of %d batches...%n", rate, batches);
          ClockLoop.Result r = ClockLoop.run(kv, threads, requests, keys, rate, batches, 3, System.err);
          table.append(String.format(Locale.ROOT, "  %8.0f  %7d  %10.0f  %12.0f  %11.0f  %9.2f%n", rate, batches,
              r.ticksSent(), r.requestsPerSecond(), r.meanMicros(), r.requestsPerSecond() / (r.ticksSent() * batches)));
        }
      }
      System.out.printf(Locale.ROOT, "store: %s, %d labels, %d closed-loop callers, %d CPUs, clocked design with no proxy "
          + "work, last of 3 rounds:%n", store, keys, threads, Runtime.getRuntime().availableProcessors());
      System.out.printf(Locale.ROOT, "  ticks/s  batches  ticks sent  requests/s  mean wait us  per batch%n");
      System.out.print(table);
      return 0;
    }
  }

  private double pattern(String label, int batch, int keys, Path root, RedisServerFixture redis) throws Exception {
    System.err.printf(Locale.ROOT, "store-bound: %s pattern, %d keys, %d threads...%n", label, keys, threads);
    return StoreLoop.run(threads, requests, batch, keys, storeProperties(label, root, redis), System.err);
  }

  private Properties storeProperties(String label, Path root, RedisServerFixture redis) throws Exception {
    Properties p;
    if (redis != null) {
      redis.flushAll();
      p = redis.properties();
    } else {
      Path dir = root.resolve(work).resolve(label);
      Bench.deleteTree(dir);
      p = new Properties();
      p.setProperty("pancake.store", "rocksdb");
      p.setProperty("rocksdb.dir", dir.toString());
    }
    return p;
  }
}
