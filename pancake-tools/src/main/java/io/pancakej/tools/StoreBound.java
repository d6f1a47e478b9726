package io.pancakej.tools;

import java.nio.file.Path;
import java.util.Locale;
import java.util.Properties;
import java.util.concurrent.Callable;

import io.pancakej.bench.Bench;
import io.pancakej.bench.StoreLoop;
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
 * ratio bounds what any PANCAKE implementation can reach against insecure there.
 */
@Command(name = "store-bound", mixinStandardHelpOptions = true, sortOptions = false,
    description = {"What the store alone allows for insecure's and PANCAKE's access patterns.",
        "Requests/s of insecure's store pattern (1 get) and PANCAKE's (3 gets + 3 puts over 2x the keys), with no "
            + "proxy, crypto or YCSB work; their ratio bounds what PANCAKE can reach against insecure."})
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
    Path root = Path.of(System.getProperty("pancake.root", ".")).toAbsolutePath().normalize();
    RedisServerFixture redis = store.equals("redis") ? new RedisServerFixture() : null;
    try {
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

  private double pattern(String label, int batch, int keys, Path root, RedisServerFixture redis) throws Exception {
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
    System.err.printf(Locale.ROOT, "store-bound: %s pattern, %d keys, %d threads...%n", label, keys, threads);
    return StoreLoop.run(threads, requests, batch, keys, p, System.err);
  }
}
