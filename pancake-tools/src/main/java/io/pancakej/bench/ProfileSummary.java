package io.pancakej.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Where the CPU time of a profiled YCSB run went: reads async-profiler's collapsed stacks
 * ({@code frame;frame;... count} per line, written by {@code bin/profile}) and sorts every sample
 * into one category, the first that matches. For the YCSB client threads: thread hand-offs
 * (parking and waking), store calls (RocksDB, Jedis and sockets), crypto, the PANCAKE engine, and
 * the rest (YCSB and the binding).
 */
public final class ProfileSummary {
  private ProfileSummary() {}

  /** Categories in matching order: name, then substrings of which any frame must contain one. */
  static final List<Map.Entry<String, List<String>>> CATEGORIES = List.of(
      Map.entry("JIT compilation", List.of("CompileBroker")),
      Map.entry("garbage collection", List.of("GCThread", "GangWorker", "G1ConcurrentRefine", "WorkerThread")),
      Map.entry("store background threads (RocksDB flush, compaction)", List.of("rocksdb::ThreadPoolImpl")),
      Map.entry("PANCAKE pacer batches", List.of("smoothing/Pacer")),
      Map.entry("request threads: hand-offs (park, unpark)", List.of("LockSupport.park", "LockSupport.unpark")),
      Map.entry("request threads: store calls (RocksDB, Jedis, sockets)",
          List.of("org/rocksdb/", "redis/clients/jedis/", "store/MemoryStore")),
      Map.entry("request threads: crypto (AES-GCM, HMAC)", List.of("javax/crypto/", "io/pancakej/crypto/")),
      Map.entry("request threads: PANCAKE engine", List.of("io/pancakej/smoothing/", "store/CombiningStore")),
      Map.entry("request threads: YCSB and binding", List.of("site/ycsb/ClientThread")));

  /** Samples per category (in {@link #CATEGORIES} order, then "other"), from collapsed stacks. */
  static Map<String, Long> summarize(List<String> lines) {
    Map<String, Long> counts = new LinkedHashMap<>();
    for (Map.Entry<String, List<String>> c : CATEGORIES) {
      counts.put(c.getKey(), 0L);
    }
    counts.put("other (JVM start-up, class loading, ...)", 0L);
    for (String line : lines) {
      int space = line.lastIndexOf(' ');
      if (space <= 0) {
        continue;
      }
      long n;
      try {
        n = Long.parseLong(line.substring(space + 1).trim());
      } catch (NumberFormatException e) {
        continue;
      }
      String stack = line.substring(0, space);
      String category = "other (JVM start-up, class loading, ...)";
      for (Map.Entry<String, List<String>> c : CATEGORIES) {
        if (c.getValue().stream().anyMatch(stack::contains)) {
          category = c.getKey();
          break;
        }
      }
      counts.merge(category, n, Long::sum);
    }
    return counts;
  }

  static void print(Map<String, Long> counts, PrintStream out) {
    long total = counts.values().stream().mapToLong(Long::longValue).sum();
    out.printf(Locale.ROOT, "%d CPU samples%n", total);
    for (Map.Entry<String, Long> e : counts.entrySet()) {
      out.printf(Locale.ROOT, "%6.1f %%  %s%n", total == 0 ? 0 : 100.0 * e.getValue() / total, e.getKey());
    }
  }

  public static void main(String[] args) throws IOException {
    if (args.length != 1) {
      System.err.println("usage: ProfileSummary <collapsed stacks file>");
      System.exit(2);
    }
    Path file = Path.of(args[0]);
    if (!Files.isRegularFile(file)) {
      System.err.println("ProfileSummary: no such file: " + file);
      System.exit(1);
    }
    print(summarize(Files.readAllLines(file)), System.out);
  }
}
