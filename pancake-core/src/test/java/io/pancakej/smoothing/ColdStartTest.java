package io.pancakej.smoothing;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.apache.commons.math3.stat.inference.ChiSquareTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.pancakej.PancakeConfig;
import io.pancakej.distribution.AliasSampler;
import io.pancakej.store.ForwardingStore;
import io.pancakej.store.KvStore;
import io.pancakej.store.MemoryStore;

/**
 * A library user with no prior: keys loaded with no declared distribution (the estimate is
 * uniform over the capacity), then a zipf(0.99) workload. The store's view, in chunks of label
 * reads, may show the popularity only for a bounded stretch after the change (the detector's first
 * window, the window its estimate comes from, and the first transition); from then on no chunk
 * may show it (the spread of its label read rates above {@link #SIGNAL_SPREAD}), label reads must
 * not follow the keys' popularity, and what spread is left at the end (the learned estimate's
 * sampling noise, once refined) must be small. The same criterion sees the leak of a detector that waits
 * a whole window.
 *
 * <p>What it caught: the old detector waited for a full window (here 10^5 requests) before its
 * first test and then adapted to a pseudo-count-smoothed estimate, so the leak lasted the whole
 * first window and the adapted plan stayed visibly non-uniform.
 */
class ColdStartTest {
  private static final int KEYS = 1000;
  private static final int REQUESTS = 150_000;
  private static final int THREADS = 4;
  /** Label reads per chunk: 15 per label on average, enough for chi-square. */
  private static final int CHUNK = 30_000;
  /** The bound this test holds the proxy to, in label reads after the workload changes (docs/security.md). */
  static final int LEAK_BOUND_READS = 240_000;

  @TempDir
  Path dir;

  /** Records the label of every read, in order. */
  static final class SequenceRecorder extends ForwardingStore {
    final Map<ByteBuffer, Integer> ids = new HashMap<>();
    int[] sequence = new int[1 << 20];
    int size;
    volatile boolean recording;

    SequenceRecorder(KvStore delegate) {
      super(delegate);
    }

    @Override
    public List<byte[]> multiGet(List<byte[]> keys) {
      if (recording) {
        synchronized (this) {
          for (byte[] k : keys) {
            Integer id = ids.computeIfAbsent(ByteBuffer.wrap(k.clone()), x -> ids.size());
            if (size == sequence.length) {
              sequence = Arrays.copyOf(sequence, size * 2);
            }
            sequence[size++] = id;
          }
        }
      }
      return super.multiGet(keys);
    }

    // every read goes through multiGet, where it is recorded
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

    /** Spearman correlation of per-label reads in {@code [from, to)} with {@code popularity} (by label id). */
    synchronized double popularityCorrelation(int from, int to, double[] popularity) {
      double[] observed = new double[popularity.length];
      for (int i = from; i < to; i++) {
        observed[sequence[i]]++;
      }
      return new org.apache.commons.math3.stat.correlation.SpearmansCorrelation().correlation(observed, popularity);
    }

    /** Chi-square p-value of the reads in {@code [from, to)} against uniform over {@code labels}. */
    synchronized double chunkP(int from, int to, int labels) {
      double[] expected = new double[labels];
      Arrays.fill(expected, (double) (to - from) / labels);
      return new ChiSquareTest().chiSquareTest(expected, counts(from, to, labels));
    }

    /**
     * The relative variance of the label read rates in {@code [from, to)} beyond what counting
     * alone gives: (chi-square against uniform - degrees of freedom) / reads, an unbiased estimate of
     * sum over labels of (rate / mean rate - 1)^2 / labels. Zero when every label is read at the same
     * rate, whatever the number of reads (standard error about sqrt(2 labels) / reads when the rates are
     * equal, sqrt(2 labels + 4 reads x spread) / reads otherwise).
     */
    synchronized double spread(int from, int to, int labels) {
      double expected = (double) (to - from) / labels;
      double chi2 = 0;
      for (long o : counts(from, to, labels)) {
        chi2 += (o - expected) * (o - expected) / expected;
      }
      return (chi2 - (labels - 1)) / (to - from);
    }

    private long[] counts(int from, int to, int labels) {
      long[] observed = new long[labels];
      for (int i = from; i < to; i++) {
        observed[sequence[i]]++;
      }
      return observed;
    }
  }

  private static byte[] key(int i) {
    return ("user" + i).getBytes(StandardCharsets.UTF_8);
  }

  /**
   * A chunk shows the popularity when the relative variance of its label read rates (beyond
   * counting noise, {@link SequenceRecorder#spread}) is above this: rates off by about 30 % in root
   * mean square. While the plan is uniform, zipf(0.99) reads give about 13 (half the labels are read
   * only by real accesses, in proportion to their key's popularity).
   *
   * <p>A learned estimate leaves a spread too: each label's rate is off by its key's sampling
   * noise, of relative variance about 0.2 keys / samples (docs/security.md), about 0.02 for the
   * first estimate here (10^4 samples over 10^3 keys; chunks measured up to 0.047 where a transition
   * fell), not correlated with popularity, and shrinking as the estimate is refined. A chi-square against uniform over 30 000 reads sees that noise while the
   * estimate rests on 4 x 10^4 samples or fewer: at p below 10^-6 it flagged chunks up to 2.7 x 10^5
   * reads (CI, 2026-11-29), well after the popularity had stopped showing, so the p-value is printed
   * for each chunk, not held. The bound on the spread is twice the largest noise measured and a
   * hundredth of the popularity's.
   */
  static final double SIGNAL_SPREAD = 0.1;

  /**
   * The spread the last three chunks may show, once the estimate rests on 8 x 10^4 samples: its
   * noise there measured 0.0015-0.0031 in 10 runs (standard error about 0.0007), against 0.006-0.02 while
   * it rested on 10^4.
   */
  static final double NOISE_LEFT = SIGNAL_SPREAD / 10;

  /** Reported, not held: a chi-square against uniform below this sees the learned estimate's noise. */
  static final double NOISE_P = 1e-6;

  /**
   * What one cold-start run showed the store: its label reads, where the last chunk showing the
   * popularity ends, each chunk's spread, the spread of the first chunk and of the last three (the
   * noise left), and the rank correlation of label reads with popularity after the bound.
   */
  record ColdStart(int reads, int lastSignalEnd, String timeline, double firstSpread, double lastSpread,
      double late) {}

  /** Loads {@link #KEYS} keys with no prior and runs the zipf workload on {@code config}'s proxy, recording every read. */
  private ColdStart run(PancakeConfig.Builder config) throws Exception {
    SequenceRecorder store = new SequenceRecorder(new MemoryStore());
    try (Proxy proxy = Proxy.open(config.stateDir(dir.resolve("state")).capacity(KEYS).valueSize(16).keySize(16)
        .pacerRate(2000).store(store).build())) {
      for (int i = 0; i < KEYS; i++) {
        proxy.put(key(i), new byte[] {(byte) i});
      }
      AliasSampler zipf = new AliasSampler(ReplicaPlanTest.zipf(KEYS, 0.99, 0));
      store.recording = true;
      ExecutorService pool = Executors.newFixedThreadPool(THREADS);
      List<Future<?>> futures = new ArrayList<>();
      for (int t = 0; t < THREADS; t++) {
        SplittableRandom rnd = new SplittableRandom(100 + t);
        futures.add(pool.submit(() -> {
          for (int i = 0; i < REQUESTS / THREADS; i++) {
            proxy.get(key(zipf.sample(rnd))).orElseThrow();
          }
        }));
      }
      for (Future<?> f : futures) {
        f.get(5, TimeUnit.MINUTES);
      }
      pool.shutdown();
      store.recording = false;
      int labels = 2 * KEYS;
      int chunks = store.size / CHUNK;
      double[] spread = new double[chunks];
      int lastSignalEnd = 0;
      int lastNoiseEnd = 0;
      StringBuilder timeline = new StringBuilder();
      for (int c = 0; c < chunks; c++) {
        spread[c] = store.spread(c * CHUNK, (c + 1) * CHUNK, labels);
        double p = store.chunkP(c * CHUNK, (c + 1) * CHUNK, labels);
        timeline.append(String.format(" %.3f(%.2g)", spread[c], p));
        if (spread[c] > SIGNAL_SPREAD) {
          lastSignalEnd = (c + 1) * CHUNK;
        }
        if (p < NOISE_P) {
          lastNoiseEnd = (c + 1) * CHUNK;
        }
      }
      double lastSpread = chunks >= 3 ? store.spread((chunks - 3) * CHUNK, chunks * CHUNK, labels) : Double.NaN;
      // after the bound, how a label's reads rank against its key's true probability (the keys'
      // labels in the final plan, the one in force there)
      double[] popularity = new double[labels];
      ReplicaPlan plan = proxy.phase.target;
      double[] zipfByKey = ReplicaPlanTest.zipf(KEYS, 0.99, 0);
      for (int i = 0; i < KEYS; i++) {
        int slot = proxy.keys.peek(key(i));
        for (int j = 0; j < plan.replicaCount(slot); j++) {
          Integer id = store.ids.get(ByteBuffer.wrap(proxy.label(plan.replica(slot, j))));
          if (id != null) {
            popularity[id] = zipfByKey[i];
          }
        }
      }
      int cleanFrom = Math.max(lastSignalEnd, LEAK_BOUND_READS);
      double late = store.popularityCorrelation(cleanFrom, store.size, popularity);
      System.out.printf("cold start: %d label reads; chunk spread (chi-square p):%s; last signal ends at read %d;"
          + " last chunk at p < %.0g ends at read %d; spread of the last 3 chunks %.4f; %d detections,"
          + " %d refinements, estimate: %s; rank correlation with popularity %.3f after read %d%n", store.size,
          timeline, lastSignalEnd, NOISE_P, lastNoiseEnd, lastSpread, proxy.estimator.detections(),
          proxy.estimator.refinements(), proxy.stats().estimateSource(), late, cleanFrom);
      return new ColdStart(store.size, lastSignalEnd, timeline.toString(), spread[0], lastSpread, late);
    }
  }

  @Test
  void noPrior_uniformToZipf_leaksForABoundedStretch_thenStaysClean() throws Exception {
    ColdStart r = run(PancakeConfig.builder().windowSize(100_000));
    assertTrue(r.lastSignalEnd() <= LEAK_BOUND_READS, "the popularity showed until read " + r.lastSignalEnd()
        + ", beyond the bound of " + LEAK_BOUND_READS + ";" + r.timeline());
    assertTrue(r.reads() - r.lastSignalEnd() >= 3 * CHUNK, "too few clean chunks to judge: " + r.reads());
    assertTrue(r.firstSpread() > 10 * SIGNAL_SPREAD, "the first chunk should show the popularity (the check has"
        + " teeth): " + r.firstSpread());
    // a learned estimate leaves noise, not correlated with popularity, which shrinks as it is refined
    assertTrue(Math.abs(r.late()) < 0.1, "label reads after the bound follow popularity: " + r.late());
    assertTrue(r.lastSpread() < NOISE_LEFT, "the learned estimate's noise did not shrink: " + r.lastSpread()
        + " in the last chunks;" + r.timeline());
  }

  /**
   * The check has teeth: a detector that waits for a whole window before its first test (the old
   * one) leaves the popularity showing past the bound, and the same criterion says so.
   */
  @Test
  void aDetectorThatWaitsAWholeWindow_leaksPastTheBound() throws Exception {
    ColdStart r = run(PancakeConfig.builder().windowSize(100_000).firstWindow(100_000));
    assertTrue(r.lastSignalEnd() > LEAK_BOUND_READS, "a slow detector's leak went unseen: the last signal ends at read "
        + r.lastSignalEnd() + ";" + r.timeline());
  }
}
