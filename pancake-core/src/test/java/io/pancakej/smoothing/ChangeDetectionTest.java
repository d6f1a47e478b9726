package io.pancakej.smoothing;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

import org.apache.commons.math3.distribution.EnumeratedIntegerDistribution;
import org.apache.commons.math3.random.Well19937c;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.pancakej.PancakeConfig;
import io.pancakej.distribution.DistributionFile;
import io.pancakej.store.MemoryStore;

/**
 * KS change detection (paper section 5.3): a change of skew or of which keys are popular is
 * detected at the first test after it happens (a declared estimate is first tested after one full
 * window; the assumed uniform estimate of a state with no prior after {@code pancake.window.first}
 * accesses), and after one more window, whose counts are the new estimate, the proxy swaps to it
 * by itself.
 */
class ChangeDetectionTest {
  private static final int N = 1000;
  private static final int WINDOW = 20_000;

  @TempDir
  Path dir;

  private static byte[] key(int i) {
    return ("user" + i).getBytes(StandardCharsets.UTF_8);
  }

  /** Requests until the proxy declares a change, or -1 within {@code limit}. */
  private static long requestsUntilDetected(Proxy proxy, double[] workload, long limit) {
    int[] keys = new int[N];
    for (int i = 0; i < N; i++) {
      keys[i] = i;
    }
    EnumeratedIntegerDistribution w = new EnumeratedIntegerDistribution(new Well19937c(5), keys, workload);
    long before = proxy.estimator.detections();
    for (long i = 1; i <= limit; i++) {
      proxy.get(key(w.sample()));
      if (i % 500 == 0) {
        proxy.estimator.step();
        if (proxy.estimator.detections() > before) {
          return i;
        }
      }
    }
    return -1;
  }

  private static void requestsUntil(Proxy proxy, double[] workload, java.util.function.BooleanSupplier done,
      long limit) {
    int[] keys = new int[N];
    for (int i = 0; i < N; i++) {
      keys[i] = i;
    }
    EnumeratedIntegerDistribution w = new EnumeratedIntegerDistribution(new Well19937c(6), keys, workload);
    for (long i = 1; i <= limit && !done.getAsBoolean(); i++) {
      proxy.get(key(w.sample()));
      if (i % 500 == 0) {
        proxy.estimator.step();
      }
    }
    assertTrue(done.getAsBoolean(), "the proxy did not adopt the new estimate within " + limit + " requests");
  }

  private Proxy open(String name, double[] initial) throws Exception {
    PancakeConfig.Builder b = PancakeConfig.builder().stateDir(dir.resolve(name)).capacity(N).valueSize(16)
        .keySize(16).pacerRate(2000).seed(3).windowSize(WINDOW).detectionConfidence(0.95)
        .store(new MemoryStore());
    if (initial != null) {
      Path dist = dir.resolve(name + ".dist");
      Map<String, Double> weights = new LinkedHashMap<>();
      for (int i = 0; i < N; i++) {
        weights.put("user" + i, initial[i]);
      }
      DistributionFile.write(dist, weights);
      b.distributionFile(dist);
    }
    Proxy proxy = Proxy.open(b.build());
    for (int i = 0; i < N; i++) {
      proxy.put(key(i), new byte[] {1});
    }
    return proxy;
  }

  @Test
  void noPrior_uniformToZipf_isDetectedAtTheFirstShortWindow_andTheProxySwapsToIt() throws Exception {
    try (Proxy proxy = open("u2z", null)) {
      double[] zipf = ReplicaPlanTest.zipf(N, 0.99, 0);
      long n = requestsUntilDetected(proxy, zipf, 3L * WINDOW);
      System.out.println("uniform -> zipf(0.99) detected after " + n + " requests");
      assertTrue(n > 0 && n <= PancakeConfig.DEFAULT_FIRST_WINDOW, "not detected within the first window: " + n);
      // the next window becomes the estimate, then the proxy swaps: hot keys gain replicas
      long transitions = proxy.stats().transitions();
      requestsUntil(proxy, zipf, () -> proxy.stats().transitions() > transitions, 3L * WINDOW);
      for (int i = 0; i < 200_000 && !(proxy.phase instanceof Phase.Steady); i++) {
        proxy.get(key(i % 50));
      }
      assertTrue(proxy.phase instanceof Phase.Steady);
      assertTrue(proxy.phase.target.replicaCount(proxy.keys.peek(key(0))) > 10, "the hottest key gained replicas");
    }
  }

  @Test
  void popularityShiftByKappa_isDetected() throws Exception {
    double[] zipf = ReplicaPlanTest.zipf(N, 0.99, 0);
    for (int kappa : new int[] {10, 100}) {
      try (Proxy proxy = open("shift" + kappa, zipf)) {
        long n = requestsUntilDetected(proxy, ReplicaPlanTest.zipf(N, 0.99, kappa), 3L * WINDOW);
        System.out.println("zipf shifted by kappa=" + kappa + " detected after " + n + " requests");
        assertTrue(n > 0 && n <= 3 * WINDOW / 2, "kappa " + kappa + " not detected within 1.5 windows: " + n);
      }
    }
  }

  @Test
  void skewDrop_isDetected() throws Exception {
    try (Proxy proxy = open("skew", ReplicaPlanTest.zipf(N, 1.2, 0))) {
      long n = requestsUntilDetected(proxy, ReplicaPlanTest.zipf(N, 0.6, 0), 3L * WINDOW);
      System.out.println("zipf 1.2 -> 0.6 detected after " + n + " requests");
      assertTrue(n > 0 && n <= 3 * WINDOW / 2, "not detected within 1.5 windows: " + n);
    }
  }
}
