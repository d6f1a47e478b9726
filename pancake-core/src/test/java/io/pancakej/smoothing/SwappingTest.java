package io.pancakej.smoothing;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.apache.commons.math3.distribution.EnumeratedIntegerDistribution;
import org.apache.commons.math3.random.Well19937c;
import org.apache.commons.math3.stat.inference.ChiSquareTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.pancakej.CapacityException;
import io.pancakej.PancakeConfig;
import io.pancakej.distribution.DistributionFile;
import io.pancakej.store.ForwardingStore;
import io.pancakej.store.KvStore;
import io.pancakej.store.MemoryStore;

/** Replica swapping (paper section 5.1): correct, complete, and uniform while it runs. */
class SwappingTest {
  @TempDir
  Path dir;

  /** Counts reads and writes per label while {@link #recording}. */
  static final class Recorder extends ForwardingStore {
    final Map<ByteBuffer, long[]> reads = new HashMap<>();
    final Map<ByteBuffer, long[]> writes = new HashMap<>();
    volatile boolean recording;
    /** When set, only this thread's calls are counted. */
    volatile Thread only;

    Recorder(KvStore delegate) {
      super(delegate);
    }

    private void count(Map<ByteBuffer, long[]> counts, List<byte[]> keys) {
      if (recording && (only == null || only == Thread.currentThread())) {
        synchronized (counts) {
          for (byte[] k : keys) {
            counts.computeIfAbsent(ByteBuffer.wrap(k.clone()), x -> new long[1])[0]++;
          }
        }
      }
    }

    @Override
    public List<byte[]> multiGet(List<byte[]> keys) {
      count(reads, keys);
      return super.multiGet(keys);
    }

    @Override
    public void multiPut(List<byte[]> keys, List<byte[]> values) {
      count(writes, keys);
      super.multiPut(keys, values);
    }

    // every read and write goes through multiGet and multiPut, where they are counted
    // the proxy's ticks are sent through here: made at once, through multiPutGet
    @Override
    public PendingReply sendPutGet(List<byte[]> putKeys, List<byte[]> putValues, List<byte[]> getKeys) {
      return standardSendPutGet(putKeys, putValues, getKeys);
    }

    @Override
    public List<byte[]> multiPutGet(List<byte[]> putKeys, List<byte[]> putValues, List<byte[]> getKeys) {
      return standardMultiPutGet(putKeys, putValues, getKeys);
    }

    @Override
    public byte[] get(byte[] key) {
      return standardGet(key);
    }

    @Override
    public void put(byte[] key, byte[] value) {
      standardPut(key, value);
    }

    /** Chi-square p-value of recorded counts against uniform over {@code labels} labels. */
    static double uniformityPValue(Map<ByteBuffer, long[]> counts, int labels) {
      long[] observed = new long[labels];
      int i = 0;
      long total = 0;
      synchronized (counts) {
        for (long[] c : counts.values()) {
          observed[i++] = c[0];
          total += c[0];
        }
      }
      double[] expected = new double[labels];
      Arrays.fill(expected, (double) total / labels);
      return new ChiSquareTest().chiSquareTest(expected, observed);
    }
  }

  static byte[] key(int i) {
    return ("user" + i).getBytes(StandardCharsets.UTF_8);
  }

  private PancakeConfig.Builder config(String name, int capacity, KvStore store) {
    return PancakeConfig.builder().stateDir(dir.resolve(name)).capacity(capacity).valueSize(32).keySize(16)
        .pacerRate(2000).seed(5).adapt(false).store(store);
  }

  private static void runUntilSteady(Proxy proxy, EnumeratedIntegerDistribution workload, int maxRequests) {
    for (int i = 0; i < maxRequests && proxy.phase instanceof Transition; i++) {
      proxy.get(key(workload.sample()));
    }
    assertTrue(proxy.phase instanceof Phase.Steady, "swapping did not finish within " + maxRequests
        + " requests; " + proxy.stats().pendingSwaps() + " swaps pending");
  }

  private static EnumeratedIntegerDistribution workload(double[] p, long seed) {
    int[] keys = new int[p.length];
    for (int i = 0; i < p.length; i++) {
      keys[i] = i;
    }
    return new EnumeratedIntegerDistribution(new Well19937c(seed), keys, p);
  }

  /** Key i's probability in slot order: the test needs it per key, the engine per slot. */
  static double[] bySlot(Proxy proxy, double[] byKey) {
    double[] out = new double[proxy.phase.target.keySlots];
    Arrays.fill(out, 1e-12);
    for (int i = 0; i < byKey.length; i++) {
      out[proxy.keys.peek(key(i))] = byKey[i];
    }
    return out;
  }

  @Test
  void swapping_completes_replicaCountsMatchNewPlan_andEveryReplicaHoldsItsOwnersValue() {
    int n = 400;
    try (Proxy proxy = Proxy.open(config("a", n, new MemoryStore()).build())) {
      Map<Integer, byte[]> model = new HashMap<>();
      for (int i = 0; i < n; i++) {
        byte[] v = ("v" + i).getBytes(StandardCharsets.UTF_8);
        proxy.put(key(i), v);
        model.put(i, v);
      }
      double[] zipf = ReplicaPlanTest.zipf(n, 0.99, 0);
      assertTrue(proxy.transitions.start(bySlot(proxy, zipf), Estimator.EXACT, "test"));
      int swaps = proxy.stats().pendingSwaps();
      assertTrue(swaps > 50, "a uniform-to-zipf change swaps many replicas: " + swaps);
      // writes during swapping too
      Random rnd = new Random(3);
      EnumeratedIntegerDistribution w = workload(zipf, 9);
      for (int i = 0; i < 3000; i++) {
        int k = w.sample();
        byte[] v = ("w" + i).getBytes(StandardCharsets.UTF_8);
        proxy.put(key(k), v);
        model.put(k, v);
        int r = rnd.nextInt(n);
        assertArrayEquals(model.get(r), proxy.get(key(r)).orElseThrow(), "read during swapping, key " + r);
      }
      runUntilSteady(proxy, w, 2_000_000);
      ReplicaPlan plan = proxy.phase.target;
      for (int i = 0; i < n; i++) {
        int s = proxy.keys.peek(key(i));
        assertEquals(Math.max(1, (int) Math.ceil(plan.estimate[s] * n - 1e-9)), plan.replicaCount(s));
      }
      assertEquals(swaps, proxy.stats().swapsDone());
      for (Map.Entry<Integer, byte[]> e : model.entrySet()) {
        assertArrayEquals(e.getValue(), proxy.get(key(e.getKey())).orElseThrow());
      }
      ProxyCorrectnessTest.quiesce(proxy);
      ProxyCorrectnessTest.assertEveryReplicaHoldsLatest(proxy, model);
    }
  }

  @Test
  void concurrentIncrements_acrossRepeatedSwaps_loseNothing_andNeverReadAnotherKey() throws Exception {
    int n = 200;
    int threads = 8;
    try (Proxy proxy = Proxy.open(config("b", n, new MemoryStore()).build())) {
      for (int i = 0; i < n; i++) {
        proxy.put(key(i), counter(i, 0));
      }
      ConcurrentHashMap<Integer, Long> expected = new ConcurrentHashMap<>();
      AtomicBoolean stop = new AtomicBoolean();
      ExecutorService pool = Executors.newFixedThreadPool(threads);
      List<Future<?>> futures = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int seed = t;
        futures.add(pool.submit(() -> {
          EnumeratedIntegerDistribution w = workload(ReplicaPlanTest.zipf(n, 0.8, seed * 7), seed);
          while (!stop.get()) {
            int k = w.sample();
            assertTrue(proxy.update(key(k), old -> {
              ByteBuffer b = ByteBuffer.wrap(old);
              assertEquals(k, b.getInt(), "update saw another key's value");
              return counter(k, b.getLong() + 1);
            }));
            expected.merge(k, 1L, Long::sum);
            ByteBuffer got = ByteBuffer.wrap(proxy.get(key(k)).orElseThrow());
            assertEquals(k, got.getInt(), "read returned another key's value");
          }
        }));
      }
      double[][] estimates = {ReplicaPlanTest.zipf(n, 1.1, 0), ReplicaPlanTest.uniform(n),
          ReplicaPlanTest.zipf(n, 0.9, 50), ReplicaPlanTest.zipf(n, 1.3, 120)};
      for (double[] e : estimates) {
        assertTrue(proxy.transitions.start(bySlot(proxy, e), Estimator.EXACT, "test"));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (proxy.phase instanceof Transition && System.nanoTime() < deadline) {
          Thread.sleep(5);
        }
        assertTrue(proxy.phase instanceof Phase.Steady, "swapping did not finish");
      }
      stop.set(true);
      for (Future<?> f : futures) {
        f.get(60, TimeUnit.SECONDS);
      }
      pool.shutdown();
      Map<Integer, byte[]> model = new HashMap<>();
      for (int i = 0; i < n; i++) {
        long want = expected.getOrDefault(i, 0L);
        assertArrayEquals(counter(i, want), proxy.get(key(i)).orElseThrow(), "counter " + i);
        model.put(i, counter(i, want));
      }
      assertEquals(4, proxy.stats().transitions());
      ProxyCorrectnessTest.quiesce(proxy);
      ProxyCorrectnessTest.assertEveryReplicaHoldsLatest(proxy, model);
    }
  }

  /** Puts key i -> counter(i, value) for every i below n, noting each in {@code model}. */
  private static void putAll(Proxy proxy, int n, long value, Map<Integer, byte[]> model) {
    for (int i = 0; i < n; i++) {
      proxy.put(key(i), counter(i, value));
      model.put(i, counter(i, value));
    }
  }

  /** A distribution file giving key i the weight {@code weights[i]}. */
  private Path distributionFile(String name, double[] weights) throws java.io.IOException {
    Path dist = dir.resolve(name + ".dist");
    Map<String, Double> byKey = new LinkedHashMap<>();
    for (int i = 0; i < weights.length; i++) {
      byKey.put("user" + i, weights[i]);
    }
    DistributionFile.write(dist, byKey);
    return dist;
  }

  private static byte[] counter(int key, long value) {
    return ByteBuffer.allocate(12).putInt(key).putLong(value).array();
  }

  /**
   * Records every store operation from the moment swapping starts, uniform to zipf(1.2): over the
   * first ~2n accesses (about one per label) and over the whole transition. Lazy swapping (the
   * paper's) stays uniform. Swapping eagerly -- copying each hot key's value into its new replicas
   * at once -- reads the hot keys' existing replicas again and again, and shows.
   */
  private double[] transitionUniformity(boolean eager, String name) {
    int n = 1000;
    Recorder recorder = new Recorder(new MemoryStore());
    try (Proxy proxy = Proxy.open(config(name, n, recorder).build())) {
      for (int i = 0; i < n; i++) {
        proxy.put(key(i), counter(i, 0));
      }
      ProxyCorrectnessTest.quiesce(proxy);
      double[] to = ReplicaPlanTest.zipf(n, 1.2, 0);
      EnumeratedIntegerDistribution w = workload(to, 17);
      recorder.recording = true;
      assertTrue(proxy.transitions.start(bySlot(proxy, to), Estimator.EXACT, "test"));
      if (eager) {
        proxy.checkpoint(); // no swap reaches the store before its plan is saved
        Transition t = (Transition) proxy.phase;
        ProxyProbe.exclusive(proxy, () -> swapEagerly(proxy, t));
      }
      for (int i = 0; i < (2 * n) / 6 * 2; i++) {
        proxy.get(key(w.sample()));
      }
      double earlyReads = Recorder.uniformityPValue(recorder.reads, 2 * n);
      double earlyWrites = Recorder.uniformityPValue(recorder.writes, 2 * n);
      long started = System.nanoTime();
      runUntilSteady(proxy, w, 5_000_000);
      System.out.printf("%s swapping finished in %.1f s%n", name, (System.nanoTime() - started) / 1e9);
      double whole = Recorder.uniformityPValue(recorder.reads, 2 * n);
      return new double[] {earlyReads, earlyWrites, whole};
    }
  }

  /**
   * The insecure alternative the paper warns against, for the uniformity test's teeth: every swap
   * written at once, with no tick in flight (what {@code Proxy} once did behind a test flag).
   */
  private static void swapEagerly(Proxy proxy, Transition t) {
    for (int r : t.pendingSlots()) {
      boolean last;
      long stamp = proxy.phaseLock.readLock();
      try {
        if (!t.isPending(r)) {
          continue; // a tick swapped it meanwhile
        }
        int owner = t.target.ownerOf[r];
        byte[] key = owner == ReplicaPlan.DUMMY ? null : proxy.keys.keyOf(owner);
        byte[] value = null;
        if (key != null) {
          ReplicaCodec.View stable = ProxyProbe.readReplica(proxy, t, t.replicaFor(owner, proxy.random.get()));
          UpdateCache.Entry e = proxy.cache.get(owner);
          value = e != null ? e.value : stable.valueOrNull();
        }
        byte kind = owner == ReplicaPlan.DUMMY ? ReplicaCodec.DUMMY
            : value == null ? ReplicaCodec.ABSENT : ReplicaCodec.PRESENT;
        byte[] label = proxy.label(r);
        proxy.store.put(label, proxy.aead.encrypt(proxy.codec.encode(kind, r, owner, key, value), label));
        last = t.completeSwap(r);
      } finally {
        proxy.phaseLock.unlockRead(stamp);
      }
      if (last) {
        proxy.finishTransition();
      }
    }
  }

  @Test
  void labelAccesses_stayUniformWhileSwapping_butEagerSwapsAreVisible() {
    double[] lazy = transitionUniformity(false, "lazy");
    double[] eager = transitionUniformity(true, "eager");
    System.out.printf("swapping uniformity: lazy p(early reads)=%.4f p(early writes)=%.4f p(whole)=%.4f;"
        + " eager p(early reads)=%.3g%n", lazy[0], lazy[1], lazy[2], eager[0]);
    assertTrue(lazy[0] > 0.001, "lazy swapping: reads not uniform early on, p = " + lazy[0]);
    assertTrue(lazy[1] > 0.001, "lazy swapping: writes not uniform early on, p = " + lazy[1]);
    assertTrue(lazy[2] > 0.001, "lazy swapping: reads not uniform over the transition, p = " + lazy[2]);
    assertTrue(eager[0] < 0.001, "the check has no teeth: eager swaps passed, p = " + eager[0]);
  }

  @Test
  void insertAndDelete_roundTrips_upToAndBeyondCapacity() {
    int n = 50;
    try (Proxy proxy = Proxy.open(config("c", n, new MemoryStore()).build())) {
      for (int i = 0; i < n; i++) {
        proxy.put(key(i), counter(i, i));
      }
      assertThrows(CapacityException.class, () -> proxy.put(key(n), counter(n, 0)));
      for (int round = 0; round < 3; round++) {
        for (int i = 0; i < 10; i++) {
          assertTrue(proxy.delete(key(round * 1000 + i)), "delete " + i + " in round " + round);
        }
        // deletions must reach every replica before the slots come back
        ProxyCorrectnessTest.quiesce(proxy);
        for (int i = 0; i < 10; i++) {
          int k = (round + 1) * 1000 + i;
          proxy.put(key(k), counter(k, k));
        }
        assertThrows(CapacityException.class, () -> proxy.put(key(99_999), counter(0, 0)));
        for (int i = 0; i < 10; i++) {
          assertFalse(proxy.get(key(round * 1000 + i)).isPresent(), "deleted key reads absent");
          int k = (round + 1) * 1000 + i;
          assertArrayEquals(counter(k, k), proxy.get(key(k)).orElseThrow());
        }
      }
      for (int i = 10; i < n; i++) {
        assertArrayEquals(counter(i, i), proxy.get(key(i)).orElseThrow());
      }
    }
  }

  @Test
  void swappingInterruptedByClose_resumesAfterReopen() {
    int n = 300;
    MemoryStore store = new MemoryStore();
    Map<Integer, byte[]> model = new HashMap<>();
    int pendingAtClose;
    try (Proxy proxy = Proxy.open(config("d", n, store).pacerRate(50).build())) {
      putAll(proxy, n, 7, model);
      assertTrue(proxy.transitions.start(bySlot(proxy, ReplicaPlanTest.zipf(n, 1.0, 0)), Estimator.EXACT, "test"));
      for (int i = 0; i < 20; i++) {
        proxy.get(key(i % n));
      }
      pendingAtClose = proxy.stats().pendingSwaps();
      assertTrue(pendingAtClose > 0);
    }
    try (Proxy proxy = Proxy.open(config("d", n, store.reopen()).createIfMissing(false).build())) {
      // the saved swap resumes and is finished before open returns
      assertTrue(proxy.phase instanceof Phase.Steady, "the saved swap should be finished at open");
      assertTrue(proxy.stats().swapsDone() > 0 && proxy.stats().swapsDone() <= pendingAtClose,
          proxy.stats().swapsDone() + " swaps at open, " + pendingAtClose + " were pending");
      for (Map.Entry<Integer, byte[]> e : model.entrySet()) {
        assertArrayEquals(e.getValue(), proxy.get(key(e.getKey())).orElseThrow());
      }
      ProxyCorrectnessTest.quiesce(proxy);
      ProxyCorrectnessTest.assertEveryReplicaHoldsLatest(proxy, model);
    }
  }

  /**
   * A swap must not reach the store before the plan it belongs to is saved: a crash would reopen
   * the old plan over replicas holding new owners. With both saves failing (a directory where the
   * plan saved ahead and the state file put their temporary files), the transition starts in
   * memory but swaps nothing; once a checkpoint succeeds, swapping runs to the end and every key
   * reads its value.
   */
  @Test
  void swapsWaitUntilTheNewPlanIsSaved() throws Exception {
    int n = 300;
    MemoryStore store = new MemoryStore();
    Map<Integer, byte[]> model = new HashMap<>();
    try (Proxy proxy = Proxy.open(config("g", n, store).build())) {
      putAll(proxy, n, 3, model);
      Path blocker = dir.resolve("g").resolve("state.bin.tmp");
      java.nio.file.Files.createDirectories(blocker);
      java.nio.file.Files.createDirectories(dir.resolve("g").resolve(StateDirectory.planFile(1) + ".tmp"));
      // the transition starts at once; its plan is not saved ahead, and the next scheduled
      // checkpoint, which would save it, fails
      proxy.transitions.start(bySlot(proxy, ReplicaPlanTest.zipf(n, 1.0, 0)), Estimator.EXACT, "test");
      assertEquals(0, proxy.checkpointer.plansSavedAhead.sum());
      assertThrows(io.pancakej.StateException.class, proxy::checkpoint);
      assertTrue(proxy.phase instanceof Transition);
      int pending = proxy.stats().pendingSwaps();
      assertTrue(pending > 0);
      long batches = proxy.stats().batches();
      for (int i = 0; i < 300; i++) {
        proxy.get(key(i % n));
      }
      assertTrue(proxy.stats().batches() - batches >= 300, "batches ran meanwhile");
      assertEquals(pending, proxy.stats().pendingSwaps(), "a swap reached the store before its plan was saved");

      java.nio.file.Files.delete(blocker);
      proxy.checkpoint();
      runUntilSteady(proxy, workload(ReplicaPlanTest.zipf(n, 1.0, 0), 4), 2_000_000);
      for (Map.Entry<Integer, byte[]> e : model.entrySet()) {
        assertArrayEquals(e.getValue(), proxy.get(key(e.getKey())).orElseThrow());
      }
    }
  }

  /**
   * The swap at open is two sweeps over every replica slot: whatever the old and new plans, every
   * label is read and written exactly twice by the opening thread (plus the store check's few
   * reads), so the store learns nothing of which slots changed owner; and every swap is done, every
   * key keeps its value; the transition ends only after the last sweep tick. A sweep that skipped
   * slots with nothing to swap, or drew its accesses at random, fails the exact counts; one that
   * finishes the transition as soon as the last swap is stored fails the last check.
   */
  @Test
  void swapAtOpen_readsAndWritesEveryLabelExactlyTwice_andKeepsEveryValue() throws Exception {
    int n = 400;
    MemoryStore store = new MemoryStore();
    Map<Integer, byte[]> model = new HashMap<>();
    try (Proxy proxy = Proxy.open(config("s", n, store).build())) {
      putAll(proxy, n, 5, model);
    }
    double[] uniform = new double[n];
    Arrays.fill(uniform, 1.0 / n);
    // uniform -> zipf: gaining keys need their values from the first sweep; zipf -> uniform: every
    // swap slot becomes a dummy, so every swap is done early in the first sweep
    for (double[] to : List.of(ReplicaPlanTest.zipf(n, 1.1, 0), uniform)) {
      Recorder recorder = new Recorder(store.reopen());
      recorder.only = Thread.currentThread();
      recorder.recording = true;
      try (Proxy proxy = Proxy.open(config("s", n, recorder).distributionFile(distributionFile("s", to))
          .createIfMissing(false).build())) {
        recorder.recording = false;
        assertTrue(proxy.phase instanceof Phase.Steady, "the swap should be finished at open");
        assertTrue(proxy.stats().swapsDone() > n / 4, proxy.stats().swapsDone() + " swaps");
        assertSweptTwice(proxy, recorder, 2 * n);
        for (Map.Entry<Integer, byte[]> e : model.entrySet()) {
          assertArrayEquals(e.getValue(), proxy.get(key(e.getKey())).orElseThrow());
        }
        ProxyCorrectnessTest.quiesce(proxy);
        ProxyCorrectnessTest.assertEveryReplicaHoldsLatest(proxy, model);
      }
    }
  }

  /** Every label read and written exactly twice at open (plus the store check's reads); the transition ends after the last sweep tick. */
  private static void assertSweptTwice(Proxy proxy, Recorder recorder, int slots) {
    assertEquals(slots, recorder.writes.size(), "labels written at open");
    for (long[] c : recorder.writes.values()) {
      assertEquals(Transitions.SWEEPS, c[0], "writes of one label at open");
    }
    assertEquals(slots, recorder.reads.size(), "labels read at open");
    long checkReads = 0;
    for (long[] c : recorder.reads.values()) {
      assertTrue(c[0] == Transitions.SWEEPS || c[0] == Transitions.SWEEPS + 1, "reads of one label at open: " + c[0]);
      checkReads += c[0] - Transitions.SWEEPS;
    }
    assertTrue(checkReads <= Recovery.STORE_CHECK_READS, checkReads + " reads beyond the sweeps");
    // never between two sweep ticks: the plan change would delay the next call where it happened
    int tickSize = proxy.batchSize * Integer.highestOneBit(PancakeConfig.DEFAULT_TICK_BATCHES_MAX);
    assertEquals(Transitions.SWEEPS * ((slots + tickSize - 1) / tickSize), proxy.runner.finishedAfterTick(),
        "ticks built before the transition finished");
  }


  @Test
  void distributionFileGivenOnReopen_winsOverTheSavedEstimate() throws Exception {
    int n = 200;
    MemoryStore store = new MemoryStore();
    try (Proxy proxy = Proxy.open(config("e", n, store).build())) {
      for (int i = 0; i < n; i++) {
        proxy.put(key(i), counter(i, 1));
      }
    }
    double[] z = ReplicaPlanTest.zipf(n, 1.0, 0);
    Path dist = distributionFile("e", z);
    try (Proxy proxy = Proxy.open(config("e", n, store.reopen()).distributionFile(dist).build())) {
      // the swap towards it is done before open returns, so the first request finds the new plan
      assertTrue(proxy.phase instanceof Phase.Steady, "the swap should be finished at open");
      assertEquals(1, proxy.stats().transitions());
      assertTrue(proxy.stats().swapsDone() > 0, "replicas were swapped");
      int hottest = proxy.keys.peek(key(0));
      assertEquals((int) Math.ceil(z[0] * n - 1e-9), proxy.phase.target.replicaCount(hottest));
      assertArrayEquals(counter(0, 1), proxy.get(key(0)).orElseThrow());
    }
  }
}
