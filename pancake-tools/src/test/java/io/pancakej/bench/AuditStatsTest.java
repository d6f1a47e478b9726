package io.pancakej.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

/**
 * The audit's statistics on synthetic transcripts whose answer is known. Fixed seeds; a correct
 * implementation fails the uniform cases with probability about 10^-3 per seed (the thresholds),
 * and the skewed cases are decided by many orders of magnitude.
 */
class AuditStatsTest {
  private static final int KEYS = 1000;

  /** Keys k0..k999 with zipf(1) weights, most popular first. */
  private static List<String> keys() {
    List<String> keys = new ArrayList<>();
    for (int i = 0; i < KEYS; i++) {
      keys.add("k" + i);
    }
    return keys;
  }

  private static int zipf(SplittableRandom rnd, double[] cdf) {
    return CacheSensitivity.search(cdf, rnd.nextDouble());
  }

  private static double[] zipfCdf(int n) {
    double[] cdf = new double[n];
    double sum = 0;
    for (int i = 0; i < n; i++) {
      sum += 1.0 / (i + 1);
      cdf[i] = sum;
    }
    for (int i = 0; i < n; i++) {
      cdf[i] /= sum;
    }
    return cdf;
  }

  @Test
  void uniformTranscript_passesChiSquare_andAttackIsAtChance() {
    SplittableRandom rnd = new SplittableRandom(42);
    Map<String, Long> counts = new HashMap<>();
    Map<String, String> owner = new HashMap<>();
    for (int i = 0; i < KEYS; i++) {
      owner.put("L" + i, "k" + i);
      counts.put("L" + i, 0L);
    }
    for (int i = 0; i < 200_000; i++) {
      counts.merge("L" + rnd.nextInt(KEYS), 1L, Long::sum);
    }
    AuditStats.Uniformity u = AuditStats.uniformity(AuditStats.countsOver(counts.keySet(), counts));
    assertTrue(u.pValue() > 1e-3, "p = " + u.pValue());
    assertTrue(u.maxMinRatio() < 2.0, "max/min " + u.maxMinRatio());
    for (AuditStats.AttackResult a : AuditStats.attack(counts, owner, keys(), 1, 10, 100, 1000)) {
      assertFalse(a.beatsChance(), a.toString());
      assertEquals(a.k() / (double) KEYS, a.chance(), 1e-9);
    }
  }

  @Test
  void skewedTranscript_failsChiSquare_andAttackRecoversTopKeys() {
    SplittableRandom rnd = new SplittableRandom(7);
    double[] cdf = zipfCdf(KEYS);
    Map<String, Long> counts = new HashMap<>();
    Map<String, String> owner = new HashMap<>();
    for (int i = 0; i < KEYS; i++) {
      owner.put("L" + i, "k" + i);
      counts.put("L" + i, 0L);
    }
    for (int i = 0; i < 200_000; i++) {
      counts.merge("L" + zipf(rnd, cdf), 1L, Long::sum);
    }
    AuditStats.Uniformity u = AuditStats.uniformity(AuditStats.countsOver(counts.keySet(), counts));
    assertTrue(u.pValue() < 1e-12, "p = " + u.pValue());
    List<AuditStats.AttackResult> results = AuditStats.attack(counts, owner, keys(), 1, 10);
    assertEquals(1, results.get(0).recovered());
    assertEquals(10, results.get(1).recovered());
    assertTrue(results.get(1).beatsChance());
  }

  @Test
  void smoothedReplicas_hideTheTopKeys_anyReplicaCounts() {
    // PANCAKE-like: key i owns R(i) replicas, each accessed uniformly; 2 * KEYS labels in all
    SplittableRandom rnd = new SplittableRandom(11);
    Map<String, String> owner = new HashMap<>();
    Map<String, Long> counts = new HashMap<>();
    int label = 0;
    int[] replicas = {200, 100, 60, 40, 30};
    for (int i = 0; i < KEYS && label < 2 * KEYS; i++) {
      int r = i < replicas.length ? replicas[i] : 1;
      for (int j = 0; j < r && label < 2 * KEYS; j++) {
        owner.put("L" + label, "k" + i);
        counts.put("L" + label++, 0L);
      }
    }
    while (label < 2 * KEYS) {
      counts.put("L" + label++, 0L); // dummies
    }
    for (int i = 0; i < 300_000; i++) {
      counts.merge("L" + rnd.nextInt(2 * KEYS), 1L, Long::sum);
    }
    AuditStats.Uniformity u = AuditStats.uniformity(AuditStats.countsOver(counts.keySet(), counts));
    assertTrue(u.pValue() > 1e-3, "p = " + u.pValue());
    List<AuditStats.AttackResult> results = AuditStats.attack(counts, owner, keys(), 1, 5, 100);
    assertEquals(0.1, results.get(0).chance(), 1e-9); // 200 of 2000 labels are the top key's
    for (AuditStats.AttackResult a : results) {
      assertFalse(a.beatsChance(), a.toString());
    }
  }

  @Test
  void keyLabelsAndDummies_readAlike_pass_aLoadThatReadsEveryKeyOnce_isApart() {
    // 2n labels, ~2.2 reads each, n of them keys: smoothing reads every label alike
    SplittableRandom rnd = new SplittableRandom(9);
    int n = 20_000;
    long[] keyLabels = new long[n];
    long[] dummies = new long[n];
    for (int i = 0; i < (int) (2.2 * 2 * n); i++) {
      int label = rnd.nextInt(2 * n);
      (label < n ? keyLabels : dummies)[label % n]++;
    }
    AuditStats.Homogeneity alike = AuditStats.homogeneity(keyLabels, dummies);
    assertTrue(alike.bins() > 3 && !alike.apart(), "labels read alike found apart: " + alike);

    // a load whose inserts read their own key's label (uniform estimate): one real read per key label
    // at its insert, other real reads spread over key labels, fakes over dummies only -- the same
    // mean, 2.2, in both groups; what differs is the shape (no key label unread)
    long[] loadKeys = new long[n];
    long[] loadDummies = new long[n];
    for (int i = 0; i < n; i++) {
      loadKeys[i]++;
    }
    for (int i = 0; i < (int) (1.2 * n); i++) {
      loadKeys[rnd.nextInt(n)]++;
    }
    for (int i = 0; i < (int) (2.2 * n); i++) {
      loadDummies[rnd.nextInt(n)]++;
    }
    AuditStats.Homogeneity load = AuditStats.homogeneity(loadKeys, loadDummies);
    assertTrue(load.apart(), "the load's key labels were not told from dummies: " + load);
    assertEquals(0, load.zeroA());
  }

  @Test
  void homogeneity_withTooFewLabels_comparesNothing() {
    AuditStats.Homogeneity h = AuditStats.homogeneity(new long[] {1, 2}, new long[] {});
    assertTrue(h.bins() < 2, "bins: " + h.bins());
    assertFalse(h.apart());
  }

  @Test
  void aLabelNeverRead_makesTheRatioInfinite() {
    AuditStats.Uniformity u = AuditStats.uniformity(new long[] {5, 0, 5});
    assertEquals(Double.POSITIVE_INFINITY, u.maxMinRatio());
  }

  /**
   * The repeat test: independent uniform accesses pass it over many seeds (at the 10^-3 level, so
   * at most a stray one of 20), so do independent zipfian ones (skew is not order), and it fails
   * when a tenth of the accesses are a
   * second access to the label of an access a few places before (a read, then the update of the
   * same one-replica key) -- or when labels never come back (a scheme that avoids re-reading).
   */
  @Test
  void repeats_passIndependentAccesses_andFlagPairsOrTheirAbsence() {
    int labels = 4000;
    int n = 200_000;
    int flagged = 0;
    for (int seed = 0; seed < 20; seed++) {
      SplittableRandom rnd = new SplittableRandom(seed);
      int[] seq = new int[n];
      for (int i = 0; i < n; i++) {
        seq[i] = rnd.nextInt(labels);
      }
      AuditStats.Repeats r = AuditStats.repeats(seq, labels, 32);
      assertEquals(1.0, r.ratio(), 0.08, r.toString());
      flagged += r.significant() ? 1 : 0;
    }
    assertTrue(flagged <= 1, flagged + " of 20 independent transcripts flagged");

    SplittableRandom rnd = new SplittableRandom(99);
    int[] paired = new int[n];
    for (int i = 0; i < n; i++) {
      paired[i] = i >= 8 && rnd.nextInt(10) == 0 ? paired[i - 1 - rnd.nextInt(8)] : rnd.nextInt(labels);
    }
    AuditStats.Repeats r = AuditStats.repeats(paired, labels, 32);
    assertTrue(r.excess() && r.ratio() > 2, r.toString());

    // skewed but independent accesses are the chi-square's business, not this test's
    int[] skewed = new int[n];
    double[] cdf = zipfCdf(labels);
    for (int i = 0; i < n; i++) {
      skewed[i] = zipf(rnd, cdf);
    }
    AuditStats.Repeats independent = AuditStats.repeats(skewed, labels, 32);
    assertFalse(independent.significant(), independent.toString());

    int[] roundRobin = new int[n];
    for (int i = 0; i < n; i++) {
      roundRobin[i] = i % labels;
    }
    AuditStats.Repeats none = AuditStats.repeats(roundRobin, labels, 32);
    assertEquals(0, none.observed());
    assertTrue(none.significant() && !none.excess(), none.toString());
  }

  @Test
  void repeats_rejectAWindowBelowOne() {
    org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
        () -> AuditStats.repeats(new int[] {0, 1}, 2, 0));
  }
}
