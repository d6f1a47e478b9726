package io.pancakej.smoothing;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.apache.commons.math3.distribution.EnumeratedIntegerDistribution;
import org.apache.commons.math3.random.Well19937c;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.pancakej.PancakeConfig;
import io.pancakej.distribution.DistributionFile;
import io.pancakej.store.MemoryStore;

/**
 * Free key slots and deleted keys must not show: with fewer live keys than the capacity, and
 * after a hot key is deleted, every label is still read equally often.
 *
 * <p>What they caught: free slots used to get probability 1/n in a declared distribution, so the
 * m live keys' labels were read about n/m times as often as the free slots' (chi-square p = 0 at
 * m = n/2); a deleted hot key's R(k) replicas kept their real-access share in the plan, which no
 * request used any more, so they went quiet together.
 */
class SpareCapacityTest {
  private static final int THREADS = 4;
  private static final double ALPHA = 0.001;

  @TempDir
  Path dir;

  private static byte[] key(int i) {
    return ("user" + i).getBytes(StandardCharsets.UTF_8);
  }

  private Path distribution(String name, double[] weights) throws Exception {
    Path file = dir.resolve(name + ".dist");
    Map<String, Double> w = new LinkedHashMap<>();
    for (int i = 0; i < weights.length; i++) {
      w.put("user" + i, weights[i]);
    }
    DistributionFile.write(file, w);
    return file;
  }

  private static void run(Proxy proxy, double[] weights, int requests, long seed) throws Exception {
    int[] keys = new int[weights.length];
    for (int i = 0; i < keys.length; i++) {
      keys[i] = i;
    }
    ExecutorService pool = Executors.newFixedThreadPool(THREADS);
    List<Future<?>> futures = new ArrayList<>();
    for (int t = 0; t < THREADS; t++) {
      EnumeratedIntegerDistribution w = new EnumeratedIntegerDistribution(new Well19937c(seed + t), keys, weights);
      futures.add(pool.submit(() -> {
        for (int i = 0; i < requests / THREADS; i++) {
          proxy.get(key(w.sample()));
        }
      }));
    }
    for (Future<?> f : futures) {
      f.get(5, TimeUnit.MINUTES);
    }
    pool.shutdown();
  }

  @Test
  void halfTheCapacityLive_labelsAreReadUniformly() throws Exception {
    int n = 400;
    int live = n / 2;
    double[] uniform = new double[live];
    java.util.Arrays.fill(uniform, 1.0);
    SwappingTest.Recorder store = new SwappingTest.Recorder(new MemoryStore());
    try (Proxy proxy = Proxy.open(PancakeConfig.builder().stateDir(dir.resolve("spare")).capacity(n)
        .distributionFile(distribution("spare", uniform)).valueSize(16).keySize(16).pacerRate(2000).seed(9)
        .store(store).build())) {
      for (int i = 0; i < live; i++) {
        proxy.put(key(i), new byte[] {1});
      }
      store.recording = true;
      run(proxy, uniform, 60_000, 1);
      store.recording = false;
      double p = SwappingTest.Recorder.uniformityPValue(store.reads, 2 * n);
      System.out.printf("spare capacity (%d live of %d): chi-square p = %.4f%n", live, n, p);
      assertTrue(p > ALPHA, "labels of live keys stand out from free slots: p = " + p);
    }
  }

  @Test
  void deletedHotKey_replicasDoNotGoQuiet() throws Exception {
    int n = 100;
    double[] weights = new double[n];
    java.util.Arrays.fill(weights, 1.0);
    weights[0] = 30; // about a quarter of all requests: the hot key owns ~25 replicas
    SwappingTest.Recorder store = new SwappingTest.Recorder(new MemoryStore());
    try (Proxy proxy = Proxy.open(PancakeConfig.builder().stateDir(dir.resolve("hot")).capacity(n)
        .distributionFile(distribution("hot", weights)).valueSize(16).keySize(16).pacerRate(2000).seed(4)
        .store(store).build())) {
      for (int i = 0; i < n; i++) {
        proxy.put(key(i), new byte[] {1});
      }
      int slot = proxy.keys.peek(key(0));
      int replicas = proxy.phase.target.replicaCount(slot);
      List<ByteBuffer> hotLabels = new ArrayList<>();
      for (int j = 0; j < replicas; j++) {
        hotLabels.add(ByteBuffer.wrap(proxy.label(proxy.phase.target.replica(slot, j))));
      }
      assertTrue(replicas > 10, "the hot key should own many replicas: " + replicas);
      assertTrue(proxy.delete(key(0)));
      ProxyCorrectnessTest.quiesce(proxy);
      proxy.get(key(1)); // gives the slot back if the last request still held it
      // the log writer frees it, after the deletion's record (asynchronously: wait a little)
      for (int i = 0; i < 500 && proxy.keys.peek(key(0)) >= 0; i++) {
        Thread.sleep(10);
      }
      assertTrue(proxy.keys.peek(key(0)) < 0, "the deleted key's slot is free again");
      // the reweighting waits for the emitter's next slot (at most a second): its replicas carry
      // only the fake share until then (docs/security.md, "Plan changes")
      long freed = System.nanoTime();
      while (!proxy.transitions.estimateSource.endsWith("minus deleted keys")) {
        assertTrue(System.nanoTime() - freed < TickPauses.PLAN_SLOT_NANOS
            + TimeUnit.MILLISECONDS.toNanos(500), "the deleted key's share was not dropped within a slot");
        Thread.sleep(1);
      }

      double[] rest = weights.clone();
      rest[0] = 0;
      store.recording = true;
      run(proxy, rest, 40_000, 2);
      store.recording = false;
      long hot = 0;
      long total = 0;
      for (Map.Entry<ByteBuffer, long[]> e : store.reads.entrySet()) {
        total += e.getValue()[0];
        if (hotLabels.contains(e.getKey())) {
          hot += e.getValue()[0];
        }
      }
      double expected = (double) total * replicas / (2 * n);
      double p = SwappingTest.Recorder.uniformityPValue(store.reads, 2 * n);
      System.out.printf("deleted hot key: its %d labels read %d times (expected %.0f); chi-square p = %.4f%n",
          replicas, hot, expected, p);
      assertTrue(Math.abs(hot - expected) < 5 * Math.sqrt(expected),
          "the deleted key's labels were read " + hot + " times, expected " + expected);
      assertTrue(p > ALPHA, "label reads after the deletion are not uniform: p = " + p);
    }
  }
}
