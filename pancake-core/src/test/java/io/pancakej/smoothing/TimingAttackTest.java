package io.pancakej.smoothing;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;

import org.apache.commons.math3.stat.correlation.SpearmansCorrelation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.pancakej.PancakeConfig;
import io.pancakej.distribution.DistributionFile;
import io.pancakej.store.MemoryStore;
import io.pancakej.store.TracingStore;

/**
 * A store with a stopwatch (issue #19): it reads the timestamped transcript ({@code
 * pancake.trace.file}'s fourth column) and looks at the silence after each call. One closed-loop
 * caller, a uniform workload with a matching declared estimate -- the setting where fake accesses
 * all go to the dummy replicas, so knowing which labels are dummies exposes every real access.
 *
 * <p>The attacker flags the calls followed by the longest tenth of the gaps and measures (1) the
 * share of the flagged calls' reads that land on dummy labels against the share over all calls,
 * and (2) per label, the share of its reads that fall in flagged calls, correlated (Spearman)
 * between the two halves of the run. Without a timing leak both are noise.
 *
 * <p>Teeth: the same attack on a per-request emitter (each request sends one batch from the
 * caller's thread, a 100/s clock keeps it live -- the design before #19): a request its own batch
 * did not serve waits for the clock, so the silence after a call says that call served nobody,
 * which means all of its accesses were fake. Measured there: dummy share of flagged reads ~0.95
 * against 0.5 overall, split-half correlation ~0.5; on the clocked emitter both are at chance.
 */
class TimingAttackTest {
  private static final int KEYS = 400;
  private static final int REQUESTS = 3_000;

  @TempDir
  Path dir;

  private record Verdict(double flaggedDummyShare, double dummyShare, double z, double splitHalfRho, int calls) {}

  @Test
  void clockedEmitter_givesTheStopwatchNothing() throws Exception {
    Verdict v = attack("clocked", false);
    System.out.printf("timing attack, clocked emitter: dummy share of flagged reads %.3f vs %.3f overall"
        + " (z = %.1f), split-half rho %.3f, %d calls%n", v.flaggedDummyShare(), v.dummyShare(), v.z(),
        v.splitHalfRho(), v.calls());
    assertTrue(Math.abs(v.z()) < 5, "flagged calls' dummy share differs from the overall share: " + v);
    assertTrue(Math.abs(v.splitHalfRho()) < 0.15, "per-label flagged shares persist across halves: " + v);
  }

  @Test
  void perRequestEmitter_isCaught_soTheAttackHasTeeth() throws Exception {
    Verdict v = attack("naive", true);
    System.out.printf("timing attack, per-request emitter: dummy share of flagged reads %.3f vs %.3f overall"
        + " (z = %.1f), split-half rho %.3f, %d calls%n", v.flaggedDummyShare(), v.dummyShare(), v.z(),
        v.splitHalfRho(), v.calls());
    assertTrue(v.z() > 10, "the attack found no leak on the leaking emitter: " + v);
    assertTrue(v.splitHalfRho() > 0.2, "no persistent per-label signal on the leaking emitter: " + v);
  }

  private Verdict attack(String name, boolean perRequest) throws IOException {
    Path distribution = dir.resolve(name + ".dist");
    Map<String, Double> weights = new LinkedHashMap<>();
    for (int i = 0; i < KEYS; i++) {
      weights.put("user" + i, 1.0 / KEYS);
    }
    DistributionFile.write(distribution, weights);
    Path trace = dir.resolve(name + ".trace");
    long traceOpened = System.nanoTime(); // the trace's clock starts a moment later
    PancakeConfig.Builder config = PancakeConfig.builder().stateDir(dir.resolve(name)).capacity(KEYS)
        .distributionFile(distribution).valueSize(16).keySize(16).adapt(false)
        .store(new TracingStore(new MemoryStore(), trace));
    if (perRequest) {
      config.pacerRate(100).tickRateMax(100).tickBatchesMax(1); // the clock only keeps the caller live
    }
    Set<String> dummies = new HashSet<>();
    long traceStart;
    try (Proxy proxy = Proxy.open(config.build())) {
      ReplicaPlan plan = proxy.phase.target;
      for (int r = 0; r < plan.replicaSlots; r++) {
        if (plan.ownerOf[r] == ReplicaPlan.DUMMY) {
          dummies.add(java.util.HexFormat.of().formatHex(proxy.label(r)));
        }
      }
      for (int i = 0; i < KEYS; i++) {
        proxy.put(key(i), new byte[] {(byte) i});
      }
      traceStart = System.nanoTime() - traceOpened; // the request phase (a call or two of the puts may slip in)
      SplittableRandom rnd = new SplittableRandom(5);
      for (int i = 0; i < REQUESTS; i++) {
        byte[] k = key(rnd.nextInt(KEYS));
        if (perRequest) {
          var pending = proxy.getAsync(k);
          ProxyProbe.idleBatch(proxy); // the request's own batch, from the caller's thread
          pending.join();
        } else {
          proxy.get(k);
        }
      }
    }
    return judge(readCalls(trace, traceStart), dummies);
  }

  private static long tenthLongest(long[] gaps) {
    long[] sorted = gaps.clone();
    Arrays.sort(sorted);
    return sorted[(int) (sorted.length * 0.9)];
  }

  private static byte[] key(int i) {
    return ("user" + i).getBytes(StandardCharsets.UTF_8);
  }

  /** One store call as the store saw it: when, and which labels it read. */
  record Call(long at, List<String> reads) {}

  /** Calls with reads issued after {@code from} (lines of one call share their timestamp). */
  static List<Call> readCalls(Path trace, long from) throws IOException {
    Map<Long, List<String>> byTime = new LinkedHashMap<>();
    for (String line : Files.readAllLines(trace)) {
      String[] f = line.split(" ");
      long at = Long.parseLong(f[3]);
      if (at <= from) {
        continue;
      }
      List<String> reads = byTime.computeIfAbsent(at, t -> new ArrayList<>());
      if (f[0].equals("R")) {
        reads.add(f[1]);
      }
    }
    List<Call> calls = new ArrayList<>();
    byTime.forEach((at, reads) -> calls.add(new Call(at, reads)));
    calls.sort((a, b) -> Long.compare(a.at(), b.at()));
    return calls;
  }

  static Verdict judge(List<Call> calls, Set<String> dummies) {
    int n = calls.size() - 1; // the last call has no gap after it
    long[] gaps = new long[n];
    for (int i = 0; i < n; i++) {
      gaps[i] = calls.get(i + 1).at() - calls.get(i).at();
    }
    // the longest tenth of the gaps in each half (the clock's level may differ between halves)
    long[] threshold = {tenthLongest(Arrays.copyOfRange(gaps, 0, n / 2)), tenthLongest(Arrays.copyOfRange(gaps, n / 2, n))};
    long reads = 0;
    long dummyReads = 0;
    long flaggedReads = 0;
    long flaggedDummy = 0;
    long flaggedCalls = 0;
    Map<String, long[]> perLabel = new HashMap<>(); // flagged, total, in each half
    for (int i = 0; i < n; i++) {
      int half = i < n / 2 ? 0 : 1;
      boolean flagged = gaps[i] > threshold[half];
      flaggedCalls += flagged ? 1 : 0;
      for (String label : calls.get(i).reads()) {
        boolean dummy = dummies.contains(label);
        reads++;
        dummyReads += dummy ? 1 : 0;
        long[] c = perLabel.computeIfAbsent(label, l -> new long[4]);
        c[2 * half + 1]++;
        if (flagged) {
          flaggedReads++;
          flaggedDummy += dummy ? 1 : 0;
          c[2 * half]++;
        }
      }
    }
    double p = (double) dummyReads / reads;
    double flaggedShare = (double) flaggedDummy / Math.max(1, flaggedReads);
    // reads of one call are not independent (a call of fakes is all fake): the standard error
    // counts calls, not reads, which is conservative
    double se = Math.sqrt(p * (1 - p) / Math.max(1, flaggedCalls));
    double z = (flaggedShare - p) / se;
    List<double[]> shares = new ArrayList<>();
    for (long[] c : perLabel.values()) {
      if (c[1] >= 3 && c[3] >= 3) {
        shares.add(new double[] {(double) c[0] / c[1], (double) c[2] / c[3]});
      }
    }
    double[] first = shares.stream().mapToDouble(s -> s[0]).toArray();
    double[] second = shares.stream().mapToDouble(s -> s[1]).toArray();
    double rho = shares.size() < 10 ? Double.NaN : new SpearmansCorrelation().correlation(first, second);
    return new Verdict(flaggedShare, p, z, rho, calls.size());
  }
}
