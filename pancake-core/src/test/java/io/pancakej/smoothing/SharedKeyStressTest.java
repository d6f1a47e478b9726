package io.pancakej.smoothing;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.pancakej.PancakeConfig;
import io.pancakej.distribution.DistributionFile;
import io.pancakej.store.KvStore;
import io.pancakej.store.MemoryStore;
import io.pancakej.store.RocksDbStore;

/**
 * Puts, deletes, updates and gets from many threads on a few shared hot keys with several
 * replicas each: no request may fail, and every answer must fit a linearizable history of the
 * acknowledged operations. Every written value is unique, so each read names the write it saw.
 * This is the workload that once freed a key's slot while a concurrent put still needed it (the
 * batch that completed a deletion recorded it after releasing its locks): acknowledged puts then
 * read back absent and replicas held another key's value.
 */
class SharedKeyStressTest {
  private static final int THREADS = 8;
  private static final long RUN_NANOS = TimeUnit.SECONDS.toNanos(4);
  private static final String[] KEYS = {"hot0", "hot1", "warm0", "warm1", "warm2", "warm3", "warm4", "warm5"};

  @TempDir
  Path dir;

  @ParameterizedTest(name = "store: {0}")
  @ValueSource(strings = {"memory", "rocksdb"})
  void putsDeletesAndReads_onSharedHotKeys_areLinearizable(String storeName) throws Exception {
    Path dist = dir.resolve("hot.dist");
    Map<String, Double> weights = new LinkedHashMap<>();
    weights.put("hot0", 0.4);
    weights.put("hot1", 0.4);
    for (int i = 0; i < 6; i++) {
      weights.put("warm" + i, 0.2 / 6);
    }
    DistributionFile.write(dist, weights);
    KvStore store = "memory".equals(storeName) ? new MemoryStore() : RocksDbStore.open(dir.resolve("db"), 8);
    PancakeConfig config = PancakeConfig.builder().stateDir(dir.resolve("state")).capacity(KEYS.length)
        .distributionFile(dist).valueSize(48).keySize(16).pacerRate(500).store(store).build();
    History history = new History();
    Map<String, byte[]> last = new LinkedHashMap<>();
    try (Proxy proxy = Proxy.open(config)) {
      assertTrue(proxy.phase.target.replicaCount(proxy.keys.peek(bytes("hot0"))) >= 4, "hot keys need several replicas");
      ExecutorService pool = Executors.newFixedThreadPool(THREADS);
      List<Future<?>> futures = new ArrayList<>();
      long deadline = System.nanoTime() + RUN_NANOS;
      for (int t = 0; t < THREADS; t++) {
        int thread = t;
        futures.add(pool.submit(() -> runClient(proxy, thread, deadline, history)));
      }
      for (Future<?> f : futures) {
        f.get(120, TimeUnit.SECONDS);
      }
      pool.shutdown();
      // the final state: one more read of every key, then every replica once the cache drained
      for (String k : KEYS) {
        history.read(k, () -> proxy.get(bytes(k)));
      }
      List<String> violations = history.violations();
      if (!history.failures.isEmpty() || !violations.isEmpty()) {
        fail(history.failures.size() + " of " + history.ops.get() + " requests failed (first: "
            + history.failures.peek() + "); " + violations.size()
            + " answers contradict every linearization (first: " + (violations.isEmpty() ? "-" : violations.get(0))
            + ")");
      }
      for (String k : KEYS) {
        last.put(k, proxy.get(bytes(k)).orElse(null));
      }
      // the estimator may change the plan meanwhile (more likely the more requests a run serves): a
      // new replica gets its key's value by a swap once the plan is saved. Checked in one phase.
      Map<String, List<byte[]>> replicas = null;
      for (int attempt = 0; attempt < 5 && replicas == null; attempt++) {
        ProxyCorrectnessTest.quiesce(proxy);
        long settle = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (proxy.phase instanceof Transition && System.nanoTime() < settle) {
          ProxyProbe.idleBatch(proxy);
        }
        assertFalse(proxy.phase instanceof Transition, "a plan change did not finish in 60 s of idle ticks");
        ProxyCorrectnessTest.quiesce(proxy);
        Phase checked = proxy.phase;
        Map<String, List<byte[]>> read = new LinkedHashMap<>();
        for (String k : KEYS) {
          int slot = proxy.keys.peek(bytes(k));
          List<byte[]> values = new ArrayList<>();
          for (int j = 0; slot >= 0 && j < checked.target.replicaCount(slot); j++) {
            values.add(ProxyProbe.readReplicaValue(proxy, checked.target.replica(slot, j)));
          }
          read.put(k, values);
        }
        replicas = proxy.phase == checked ? read : null; // a plan change began meanwhile: again
      }
      assertTrue(replicas != null, "the plan kept changing while the replicas were read");
      for (String k : KEYS) {
        for (int j = 0; j < replicas.get(k).size(); j++) {
          assertTrue(Arrays.equals(last.get(k), replicas.get(k).get(j)), "replica " + j + " of " + k + " after the run");
        }
      }
      assertTrue(history.ops.get() > 10_000, "too few operations to mean anything: " + history.ops.get());
      System.out.printf("shared-key stress (%s): %d requests, 0 failed, 0 answers outside a linearization%n",
          storeName, history.ops.get());
    }
    // and after a restart every key still reads its latest value
    KvStore again = "memory".equals(storeName) ? ((MemoryStore) store).reopen() : RocksDbStore.open(dir.resolve("db"), 8);
    try (Proxy proxy = Proxy.open(PancakeConfig.builder().stateDir(dir.resolve("state")).createIfMissing(false)
        .valueSize(48).keySize(16).pacerRate(500).store(again).build())) {
      for (String k : KEYS) {
        assertTrue(Arrays.equals(last.get(k), proxy.get(bytes(k)).orElse(null)), k + " after a reopen");
      }
    }
  }

  private static void runClient(Proxy proxy, int thread, long deadline, History history) {
    SplittableRandom rnd = new SplittableRandom(thread * 31L + 7);
    long seq = 0;
    while (System.nanoTime() < deadline) {
      String k = KEYS[rnd.nextInt(4) == 0 ? 2 + rnd.nextInt(KEYS.length - 2) : rnd.nextInt(2)];
      String value = "t" + thread + "-" + seq++;
      int op = rnd.nextInt(10);
      if (op < 3) {
        history.write(k, value, () -> {
          proxy.put(bytes(k), bytes(value));
          return true;
        });
      } else if (op < 5) {
        history.delete(k, () -> proxy.delete(bytes(k)));
      } else if (op < 6) {
        history.write(k, value, () -> proxy.update(bytes(k), old -> bytes(value)));
      } else {
        history.read(k, () -> proxy.get(bytes(k)));
      }
    }
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  /** One completed operation: its interval, and the value written (W), or read (R; null = absent). */
  private record Op(String key, char kind, String value, long invoked, long responded) {}

  private interface Call<T> {
    T run();
  }

  /** Records operations with their real-time intervals and checks them per key. */
  private static final class History {
    final ConcurrentLinkedQueue<Op> log = new ConcurrentLinkedQueue<>();
    final ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
    final AtomicLong ops = new AtomicLong();

    /** A put, or an update (which writes only if it returns true). */
    void write(String key, String value, Call<Boolean> call) {
      long start = System.nanoTime();
      try {
        boolean wrote = call.run();
        long end = System.nanoTime();
        // an update that found nothing is a read of "absent"
        log.add(wrote ? new Op(key, 'W', value, start, end) : new Op(key, 'R', null, start, end));
      } catch (RuntimeException e) {
        failures.add(e.toString());
      }
      ops.incrementAndGet();
    }

    /** A delete that returns true writes "absent"; one that returns false read "absent". */
    void delete(String key, Call<Boolean> call) {
      long start = System.nanoTime();
      try {
        boolean deleted = call.run();
        log.add(new Op(key, deleted ? 'D' : 'R', null, start, System.nanoTime()));
      } catch (RuntimeException e) {
        failures.add(e.toString());
      }
      ops.incrementAndGet();
    }

    void read(String key, Call<Optional<byte[]>> call) {
      long start = System.nanoTime();
      try {
        Optional<byte[]> v = call.run();
        log.add(new Op(key, 'R', v.map(b -> new String(b, StandardCharsets.UTF_8)).orElse(null), start,
            System.nanoTime()));
      } catch (RuntimeException e) {
        failures.add(e.toString());
      }
      ops.incrementAndGet();
    }

    /**
     * Necessary conditions of a linearizable register with unique writes: a read of v overlaps or
     * follows the write of v, and no complete write or delete lies wholly between them; a read of
     * "absent" is not preceded by a complete write that no delete could have followed.
     */
    List<String> violations() {
      Map<String, List<Op>> byKey = new LinkedHashMap<>();
      for (Op op : log) {
        byKey.computeIfAbsent(op.key, k -> new ArrayList<>()).add(op);
      }
      List<String> violations = new ArrayList<>();
      for (List<Op> ops : byKey.values()) {
        checkKey(ops, violations);
      }
      return violations;
    }

    private static void checkKey(List<Op> ops, List<String> violations) {
      Map<String, Op> writeOf = new LinkedHashMap<>();
      List<Op> changes = new ArrayList<>(); // writes and effective deletes
      List<Op> writesByEnd = new ArrayList<>();
      List<Op> deletesByStart = new ArrayList<>();
      for (Op op : ops) {
        if (op.kind == 'W') {
          writeOf.put(op.value, op);
          writesByEnd.add(op);
        }
        if (op.kind == 'D') {
          deletesByStart.add(op);
        }
        if (op.kind != 'R') {
          changes.add(op);
        }
      }
      changes.sort(Comparator.comparingLong(Op::invoked));
      long[] changeStart = changes.stream().mapToLong(Op::invoked).toArray();
      long[] suffixMinEnd = new long[changes.size() + 1];
      suffixMinEnd[changes.size()] = Long.MAX_VALUE;
      for (int i = changes.size() - 1; i >= 0; i--) {
        suffixMinEnd[i] = Math.min(suffixMinEnd[i + 1], changes.get(i).responded);
      }
      writesByEnd.sort(Comparator.comparingLong(Op::responded));
      long[] writeEnd = writesByEnd.stream().mapToLong(Op::responded).toArray();
      long[] prefixMaxStart = new long[writesByEnd.size()];
      for (int i = 0; i < writesByEnd.size(); i++) {
        prefixMaxStart[i] = Math.max(i == 0 ? Long.MIN_VALUE : prefixMaxStart[i - 1], writesByEnd.get(i).invoked);
      }
      deletesByStart.sort(Comparator.comparingLong(Op::invoked));
      long[] deleteStart = deletesByStart.stream().mapToLong(Op::invoked).toArray();
      long[] prefixMaxEnd = new long[deletesByStart.size()];
      for (int i = 0; i < deletesByStart.size(); i++) {
        prefixMaxEnd[i] = Math.max(i == 0 ? Long.MIN_VALUE : prefixMaxEnd[i - 1], deletesByStart.get(i).responded);
      }
      for (Op r : ops) {
        if (r.kind != 'R') {
          continue;
        }
        if (r.value != null) {
          Op w = writeOf.get(r.value);
          if (w == null) {
            violations.add(r + " read a value never written to its key");
          } else if (w.invoked > r.responded) {
            violations.add(r + " read the value of a later write " + w);
          } else {
            // a change that starts after w ended and ends before r started overwrote w for good
            int from = upperBound(changeStart, w.responded);
            if (suffixMinEnd[from] < r.invoked) {
              violations.add(r + " read " + w + ", overwritten before the read began");
            }
          }
        } else {
          // the latest-starting write that ended before r began must be followed by a delete
          int n = upperBound(writeEnd, r.invoked - 1);
          if (n > 0) {
            long lastWriteStart = prefixMaxStart[n - 1];
            int d = upperBound(deleteStart, r.responded - 1);
            if (d == 0 || prefixMaxEnd[d - 1] < lastWriteStart) {
              violations.add(r + " read absent after a completed write that no delete followed");
            }
          }
        }
      }
    }

    /** The number of entries of sorted {@code a} that are at most {@code x}. */
    private static int upperBound(long[] a, long x) {
      int lo = 0;
      int hi = a.length;
      while (lo < hi) {
        int mid = (lo + hi) >>> 1;
        if (a[mid] <= x) {
          lo = mid + 1;
        } else {
          hi = mid;
        }
      }
      return lo;
    }
  }
}
