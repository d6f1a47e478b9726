package io.pancakej.bench;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.apache.commons.math3.distribution.ChiSquaredDistribution;
import org.apache.commons.math3.distribution.PoissonDistribution;

/**
 * The statistics of the transcript audit, on plain counts so they can be tested on synthetic
 * transcripts: a chi-square test of label accesses against the uniform distribution, and a
 * frequency-analysis attack that ranks labels by access count and matches them to keys ranked by
 * true popularity.
 */
final class AuditStats {
  private AuditStats() {}

  /** Result of the uniformity test over {@code cells} labels with {@code total} accesses. */
  record Uniformity(int cells, long total, double chiSquare, double pValue, long max, long min) {
    /** max/min count ratio; infinite when some label was never accessed. */
    double maxMinRatio() {
      return min == 0 ? Double.POSITIVE_INFINITY : (double) max / min;
    }
  }

  /**
   * Pearson's chi-square test of {@code counts} (one per label, zeros included) against equal
   * probabilities; the p-value is the upper tail with {@code cells - 1} degrees of freedom.
   */
  static Uniformity uniformity(long[] counts) {
    if (counts.length < 2) {
      throw new IllegalArgumentException("uniformity needs at least two labels, got " + counts.length);
    }
    long total = 0;
    long max = Long.MIN_VALUE;
    long min = Long.MAX_VALUE;
    for (long c : counts) {
      total += c;
      max = Math.max(max, c);
      min = Math.min(min, c);
    }
    if (total == 0) {
      throw new IllegalArgumentException("no accesses to test");
    }
    double expected = (double) total / counts.length;
    double chi = 0;
    for (long c : counts) {
      double d = c - expected;
      chi += d * d / expected;
    }
    double p = new ChiSquaredDistribution(null, counts.length - 1.0).cumulativeProbability(chi);
    return new Uniformity(counts.length, total, chi, Math.max(0.0, 1.0 - p), max, min);
  }

  /**
   * Whether two groups of labels (a key's labels, labels of no key) are read alike: the histograms
   * of their access counts compared by a chi-square test of homogeneity. Count values are merged
   * into bins, from 0 up, until each bin's expected count in the smaller group is at least 5.
   *
   * @param bins the bins compared (1 when there is nothing to compare: too few labels)
   */
  record Homogeneity(int bins, double chiSquare, double pValue, long zeroA, int labelsA, long zeroB, int labelsB) {
    /** Significant at p below 0.001, like every other test of the audit. */
    boolean apart() {
      return bins > 1 && pValue < 1e-3;
    }
  }

  static Homogeneity homogeneity(long[] a, long[] b) {
    long max = 0;
    for (long c : a) {
      max = Math.max(max, c);
    }
    for (long c : b) {
      max = Math.max(max, c);
    }
    int values = (int) Math.min(max + 1, 1 << 20);
    long[] ha = histogram(a, values);
    long[] hb = histogram(b, values);
    double smaller = Math.min(a.length, b.length) / (double) (a.length + b.length);
    double minPooled = smaller == 0 ? Double.POSITIVE_INFINITY : 5 / smaller;
    List<long[]> bins = new ArrayList<>();
    long binA = 0;
    long binB = 0;
    for (int v = 0; v < values; v++) {
      binA += ha[v];
      binB += hb[v];
      if (binA + binB >= minPooled) {
        bins.add(new long[] {binA, binB});
        binA = 0;
        binB = 0;
      }
    }
    if (binA + binB > 0 && !bins.isEmpty()) { // the tail joins the last full bin
      long[] last = bins.get(bins.size() - 1);
      last[0] += binA;
      last[1] += binB;
    }
    long zeroA = ha.length > 0 ? ha[0] : 0;
    long zeroB = hb.length > 0 ? hb[0] : 0;
    if (bins.size() < 2) {
      return new Homogeneity(bins.size(), 0, 1, zeroA, a.length, zeroB, b.length);
    }
    double chi = 0;
    for (long[] bin : bins) {
      double pooled = bin[0] + bin[1];
      double ea = pooled * a.length / (a.length + b.length);
      double eb = pooled - ea;
      chi += (bin[0] - ea) * (bin[0] - ea) / ea + (bin[1] - eb) * (bin[1] - eb) / eb;
    }
    double p = 1 - new ChiSquaredDistribution(null, bins.size() - 1.0).cumulativeProbability(chi);
    return new Homogeneity(bins.size(), chi, Math.max(0.0, p), zeroA, a.length, zeroB, b.length);
  }

  private static long[] histogram(long[] counts, int values) {
    long[] h = new long[values];
    for (long c : counts) {
      h[(int) Math.min(c, values - 1)]++;
    }
    return h;
  }

  /** Attack outcome on the {@code k} most popular keys. */
  record AttackResult(int k, int recovered, double chance, double pValue) {
    /** Whether the attack recovered significantly more than chance (p below 0.001). */
    boolean beatsChance() {
      return pValue < 1e-3;
    }
  }

  /**
   * The frequency-analysis attack. Labels are ranked by access count (descending; ties by label
   * text, which for PRF labels is a random order); keys by true weight (descending). The attacker
   * guesses that the i-th most popular key is stored under the i-th most accessed label; the guess
   * is right if that label is one of the key's labels ({@code owner.get(label) == key}; PANCAKE
   * keys own several replicas, any of them counts).
   *
   * <p>Chance is the expected number of hits of a random matching: the i-th key is hit with
   * probability (its label count) / (all labels). The p-value is the Poisson upper tail
   * P(X >= recovered) for that mean, a close approximation for a sum of rare independent hits.
   *
   * @param labelCounts accesses per label, for every label in the universe (zeros included)
   * @param owner the key each label belongs to (labels absent from the map belong to none)
   * @param keysByPopularity keys, most popular first
   * @param ks the k values to score
   */
  static List<AttackResult> attack(Map<String, Long> labelCounts, Map<String, String> owner,
      List<String> keysByPopularity, int... ks) {
    List<String> labels = new ArrayList<>(labelCounts.keySet());
    labels.sort(Comparator.<String>comparingLong(labelCounts::get).reversed().thenComparing(Comparator.naturalOrder()));
    Map<String, Integer> labelsPerKey = new java.util.HashMap<>();
    for (Map.Entry<String, String> e : owner.entrySet()) {
      if (labelCounts.containsKey(e.getKey())) {
        labelsPerKey.merge(e.getValue(), 1, Integer::sum);
      }
    }
    List<AttackResult> results = new ArrayList<>();
    for (int k : ks) {
      int kk = Math.min(k, Math.min(keysByPopularity.size(), labels.size()));
      if (kk <= 0 || (!results.isEmpty() && results.get(results.size() - 1).k() == kk)) {
        continue;
      }
      int hits = 0;
      double chance = 0;
      for (int i = 0; i < kk; i++) {
        String key = keysByPopularity.get(i);
        if (key.equals(owner.get(labels.get(i)))) {
          hits++;
        }
        chance += (double) labelsPerKey.getOrDefault(key, 0) / labels.size();
      }
      double p;
      if (hits == 0) {
        p = 1.0;
      } else if (chance <= 0) {
        p = 0.0;
      } else {
        p = 1.0 - new PoissonDistribution(null, chance, PoissonDistribution.DEFAULT_EPSILON,
            PoissonDistribution.DEFAULT_MAX_ITERATIONS).cumulativeProbability(hits - 1);
      }
      results.add(new AttackResult(kk, hits, chance, Math.max(0.0, p)));
    }
    return results;
  }

  /**
   * What a store learns without any ground truth: whether a label's access count persists. The
   * per-label counts of two disjoint parts of a transcript are compared: Spearman's rank
   * correlation (about 0 when every label is equally likely, whatever the noise; clearly positive
   * when some labels are hot in both), and how many of the {@code top} most accessed labels of
   * the first part are among the {@code top} of the second (about top^2/labels by chance).
   */
  record Persistence(double rankCorrelation, int topOverlap, int top, double chanceOverlap) {}

  static Persistence persistence(long[] first, long[] second, int top) {
    if (first.length != second.length || first.length < 2) {
      throw new IllegalArgumentException("persistence needs two count vectors over the same labels");
    }
    double[] a = new double[first.length];
    double[] b = new double[second.length];
    for (int i = 0; i < a.length; i++) {
      a[i] = first[i];
      b[i] = second[i];
    }
    double rho = new org.apache.commons.math3.stat.correlation.SpearmansCorrelation().correlation(a, b);
    int k = Math.min(top, first.length);
    java.util.Set<Integer> topFirst = topIndices(first, k, 0x9E3779B9);
    int overlap = 0;
    for (int i : topIndices(second, k, 0x85EBCA6B)) {
      if (topFirst.contains(i)) {
        overlap++;
      }
    }
    return new Persistence(Double.isNaN(rho) ? 0 : rho, overlap, k, (double) k * k / first.length);
  }

  /**
   * The indices of the {@code k} largest counts; ties broken by a scramble of the index with
   * {@code salt} (each half its own, so equal counts do not make the same labels win twice).
   */
  private static java.util.Set<Integer> topIndices(long[] counts, int k, int salt) {
    Integer[] order = new Integer[counts.length];
    for (int i = 0; i < order.length; i++) {
      order[i] = i;
    }
    java.util.Arrays.sort(order, Comparator.<Integer>comparingLong(i -> counts[i]).reversed()
        .thenComparingInt(i -> Integer.reverse(i * salt)));
    return new java.util.HashSet<>(java.util.Arrays.asList(order).subList(0, k));
  }

  /**
   * Short-range repeats, which no count test sees: how many accesses hit a label one of the
   * previous {@code window} accesses hit, against what independent accesses with the same label
   * frequencies would give (each label's share of the other accesses, so skewed but independent
   * accesses are not counted here; the chi-square sees those). Access i to a label of share p
   * repeats with probability 1 - (1 - p)^min(i, window); correlated requests (a read and then the
   * update of the same key, when the key's accesses all go to one label) make more, and requests
   * that never repeat a key fewer. The p-value is two-sided, from the normal approximation of a
   * sum of rare, nearly independent events (variance sum p(1 - p); conservative when the window
   * nears the number of labels).
   */
  record Repeats(int window, long observed, double expected, double pValue, int[] perLabel) {
    double ratio() {
      return expected == 0 ? Double.NaN : observed / expected;
    }

    boolean significant() {
      return pValue < 1e-3;
    }

    /** More repeats than chance at the 10^-3 level: accesses that come in pairs. */
    boolean excess() {
      return significant() && observed > expected;
    }
  }

  /** The repeat test over a sequence of label ids below {@code labels}. */
  static Repeats repeats(int[] sequence, int labels, int window) {
    if (window < 1 || labels < 2) {
      throw new IllegalArgumentException("repeats need a window of at least 1 and two labels, got " + window
          + " and " + labels);
    }
    int[] perLabel = repeatsPerLabel(sequence, labels, window);
    long observed = 0;
    for (int c : perLabel) {
      observed += c;
    }
    long[] counts = new long[labels];
    for (int id : sequence) {
      counts[id]++;
    }
    double expected = 0;
    double variance = 0;
    for (int i = 0; i < sequence.length; i++) {
      // the chance that another access hit the same label: its other accesses among the others
      double share = sequence.length < 2 ? 0 : (counts[sequence[i]] - 1.0) / (sequence.length - 1);
      double p = 1 - Math.pow(1 - share, Math.min(i, window));
      expected += p;
      variance += p * (1 - p);
    }
    double z = variance == 0 ? 0 : (observed - expected) / Math.sqrt(variance);
    double pValue = 2 * (1 - new org.apache.commons.math3.distribution.NormalDistribution().cumulativeProbability(Math.abs(z)));
    return new Repeats(window, observed, expected, Math.max(0.0, pValue), perLabel);
  }

  /** Per label id, how many of its accesses came within {@code window} accesses of its previous one. */
  static int[] repeatsPerLabel(int[] sequence, int labels, int window) {
    int[] last = new int[labels];
    java.util.Arrays.fill(last, -1);
    int[] out = new int[labels];
    for (int i = 0; i < sequence.length; i++) {
      int before = last[sequence[i]];
      if (before >= 0 && i - before <= window) {
        out[sequence[i]]++;
      }
      last[sequence[i]] = i;
    }
    return out;
  }

  /** Counts as an array over {@code universe} (labels not in {@code counts} are zero). */
  static long[] countsOver(Set<String> universe, Map<String, Long> counts) {
    long[] out = new long[universe.size()];
    int i = 0;
    for (String label : universe) {
      out[i++] = counts.getOrDefault(label, 0L);
    }
    return out;
  }
}
