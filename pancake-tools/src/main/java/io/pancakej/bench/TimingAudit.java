package io.pancakej.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.apache.commons.math3.stat.correlation.SpearmansCorrelation;

/**
 * The stopwatch attack on a timestamped transcript (the fourth column of {@code
 * pancake.trace.file}: when each store call was issued; the lines of one call share it). A store
 * that times its calls gives each call a number from the silences around it and keeps, per label,
 * the mean of that number over the calls that read the label. Without a timing leak those means
 * are noise. The numbers ({@link Feature}):
 *
 * <ul>
 *   <li>whether the silence after the call, or after the next call or the one after (lags 1-3),
 *       is among the longest tenth of its tenth of the run (so a rate that drifts does not flag a
 *       whole stretch): the woken-callers attack (docs/security.md, "The callers a tick wakes");
 *   <li>the rank of the silence before the call (lag 0: the call's own lateness, which carried its
 *       real accesses by a few hundred nanoseconds, "The work before a call") and after it (lags
 *       1-3), within its tenth of the run, less the median of the silences between calls of the
 *       same two sizes there (a level change alters both): continuous scores, which an independent
 *       review found stronger than the top-tenth flag (results/timing/wake-contention/review).
 * </ul>
 *
 * Each is scored two ways: without the ground truth, the per-label means of the two halves of the
 * run rank-correlated over the labels read at least 3 times in each (what the store alone can
 * compute); with it, the means against each label's true real-access rate (its key's probability
 * over the number of labels its key owns; 0 for a label of no key), rank-correlated over the
 * labels read at least once, which shows a leak long before the store can see it alone. Both are
 * reported as z = rho x sqrt(labels - 1), about standard normal without a leak.
 */
final class TimingAudit {
  /**
   * |z| above this is reported as a leak (against the ground truth either sign is one; across halves
   * only a positive correlation is). With the top-tenth flag at lag 1, twenty one-thread
   * default-path runs gave -1.1 to 3.3 and 8-thread runs 7 to 12 (results/timing/wake-contention);
   * the rank of the silence after a call, a stronger score, finds the one-thread default path's weak
   * leak at +1 to +7 a run (results/timing/serving-parks). Seven scores at 5 standard deviations
   * would raise a false alarm fewer than once in 10^5 clean transcripts if they were independent
   * normals.
   */
  static final double LEAK_Z = 5;

  /** The calls after a call whose silence is scored: the one right after it, and the next two. */
  static final int LAGS = 3;

  /** What a call is given from the silences around it. */
  enum Feature {
    /** 1 if the silence is among the longest tenth of its tenth of the run, else 0. */
    LONGEST_TENTH("top tenth"),
    /** The silence's rank in its tenth of the run (0 to 1), less the median of its call sizes' silences. */
    RANK("rank");

    final String label;

    Feature(String label) {
      this.label = label;
    }
  }

  /**
   * One score: {@code feature} of the silence {@code lag} calls after a call's (0: the silence
   * before it; 1: right after it), per label; {@code truthRho} is NaN without a ground truth.
   */
  record Score(Feature feature, int lag, double splitHalfRho, int splitHalfLabels, double truthRho, int truthLabels) {
    double splitHalfZ() {
      return splitHalfRho * Math.sqrt(Math.max(0, splitHalfLabels - 1));
    }

    double truthZ() {
      return truthRho * Math.sqrt(Math.max(0, truthLabels - 1));
    }

    /** Either sign leaks against the truth: a silence shorter after real accesses tells them apart as well. */
    boolean leaks() {
      return splitHalfZ() > LEAK_Z || Math.abs(truthZ()) > LEAK_Z;
    }

    /** How far from chance: the ground truth's |z|, or without it the split halves' z. */
    double strength() {
      return Double.isNaN(truthRho) ? splitHalfZ() : Math.abs(truthZ());
    }

    /** Which silence: before a call, after it, or after a later call. */
    String silence() {
      return lag == 0 ? "silence before a call" : lag == 1 ? "silence after a call"
          : "silence " + (lag - 1) + " call(s) later";
    }

    String name() {
      return feature.label + " of the " + silence();
    }

    @Override
    public String toString() {
      return String.format(java.util.Locale.ROOT, "%s: split halves rho %.3f (z %.1f, %d labels), truth rho %.3f (z %.1f,"
          + " %d labels)", name(), splitHalfRho, splitHalfZ(), splitHalfLabels, truthRho, truthZ(), truthLabels);
    }
  }

  /** What the attack found: every score, the top-tenth ones (lags 1..LAGS) first, then the ranks (lags 0..LAGS). */
  record Result(int calls, double gapMedianMicros, double gapP90Micros, List<Score> scores) {
    Result {
      scores = List.copyOf(scores);
    }

    Score score(Feature feature, int lag) {
      for (Score s : scores) {
        if (s.feature() == feature && s.lag() == lag) {
          return s;
        }
      }
      throw new IllegalArgumentException("no score " + feature + " at lag " + lag);
    }

    /** The score farthest from chance. */
    Score strongest() {
      Score best = scores.get(0);
      for (Score s : scores) {
        if (s.strength() > best.strength()) {
          best = s;
        }
      }
      return best;
    }

    boolean leaks() {
      for (Score s : scores) {
        if (s.leaks()) {
          return true;
        }
      }
      return false;
    }

    @Override
    public String toString() {
      StringBuilder sb = new StringBuilder(String.format(java.util.Locale.ROOT,
          "Result[calls=%d, gap median %.1f us, p90 %.1f us", calls, gapMedianMicros, gapP90Micros));
      for (Score s : scores) {
        sb.append("; ").append(s);
      }
      return sb.append(']').toString();
    }
  }

  private TimingAudit() {}

  /** One store call: when it was issued and the labels it read. */
  private record Call(long at, List<String> reads) {}

  /**
   * The attack on {@code transcript} after {@code skipLines} lines; {@code owner} (label to key) and
   * {@code weights} (key to probability) are the ground truth, empty for none. Null if the
   * transcript has no timestamps or fewer than 20 calls that read.
   */
  static Result of(Path transcript, long skipLines, Map<String, String> owner, Map<String, Double> weights)
      throws IOException {
    List<Call> calls = readCalls(transcript, skipLines);
    if (calls == null || calls.size() < 20) {
      return null;
    }
    int n = calls.size() - 1; // the silences between calls: gaps[i] follows call i
    long[] gaps = new long[n];
    for (int i = 0; i < n; i++) {
      gaps[i] = calls.get(i + 1).at() - calls.get(i).at();
    }
    Map<String, Double> rate = new HashMap<>();
    if (!owner.isEmpty()) {
      Map<String, Integer> labelsOfKey = new HashMap<>();
      owner.values().forEach(k -> labelsOfKey.merge(k, 1, Integer::sum));
      owner.forEach((label, key) -> rate.put(label, weights.getOrDefault(key, 0.0) / labelsOfKey.get(key)));
    }
    double[] flags = flagLongestTenth(gaps);
    double[] ranks = rankedInTenths(gaps, calls);
    List<Score> scores = new ArrayList<>();
    for (int lag = 1; lag <= LAGS; lag++) {
      scores.add(score(Feature.LONGEST_TENTH, lag, flags, calls, rate, !owner.isEmpty()));
    }
    for (int lag = 0; lag <= LAGS; lag++) {
      scores.add(score(Feature.RANK, lag, ranks, calls, rate, !owner.isEmpty()));
    }
    long[] sorted = gaps.clone();
    Arrays.sort(sorted);
    return new Result(calls.size(), sorted[n / 2] / 1e3, sorted[(int) (n * 0.9)] / 1e3, scores);
  }

  /**
   * Call i's reads against {@code silence[i + lag - 1]} (lag 0: the silence before call i), per
   * label, across the two halves and, if {@code withTruth}, against {@code rate} (0 for a label of
   * no key).
   */
  private static Score score(Feature feature, int lag, double[] silence, List<Call> calls, Map<String, Double> rate,
      boolean withTruth) {
    int n = silence.length;
    Map<String, double[]> perLabel = new HashMap<>(); // sum and count, first half then second
    for (int i = Math.max(0, 1 - lag); i + lag - 1 < n; i++) {
      int half = i < n / 2 ? 0 : 1;
      double x = silence[i + lag - 1];
      for (String label : calls.get(i).reads()) {
        double[] c = perLabel.computeIfAbsent(label, l -> new double[4]);
        c[2 * half] += x;
        c[2 * half + 1]++;
      }
    }
    List<double[]> halves = new ArrayList<>();
    List<double[]> truth = new ArrayList<>();
    perLabel.forEach((label, c) -> {
      if (c[1] >= 3 && c[3] >= 3) {
        halves.add(new double[] {c[0] / c[1], c[2] / c[3]});
      }
      truth.add(new double[] {(c[0] + c[2]) / (c[1] + c[3]), rate.getOrDefault(label, 0.0)});
    });
    return new Score(feature, lag, correlation(halves), halves.size(), withTruth ? correlation(truth) : Double.NaN,
        withTruth ? truth.size() : 0);
  }

  /** 1 for each gap longer than the 90th percentile of its tenth of the run, else 0. */
  private static double[] flagLongestTenth(long[] gaps) {
    double[] flagged = new double[gaps.length];
    int segment = Math.max(1, gaps.length / 10);
    for (int from = 0; from < gaps.length; from += segment) {
      int to = Math.min(gaps.length, from + segment);
      long[] part = Arrays.copyOfRange(gaps, from, to);
      Arrays.sort(part);
      long threshold = part[(int) (part.length * 0.9)];
      for (int i = from; i < to; i++) {
        flagged[i] = gaps[i] > threshold ? 1 : 0;
      }
    }
    return flagged;
  }

  /**
   * Each gap less the median of the gaps between calls of the same two sizes in its tenth of the
   * run (a level change alters both the calls' size and the period), then ranked within the tenth,
   * scaled to 0..1.
   */
  private static double[] rankedInTenths(long[] gaps, List<Call> calls) {
    double[] ranked = new double[gaps.length];
    int segment = Math.max(1, gaps.length / 10);
    for (int from = 0; from < gaps.length; from += segment) {
      int to = Math.min(gaps.length, from + segment);
      Map<Long, List<Integer>> byPair = new HashMap<>();
      for (int i = from; i < to; i++) {
        long pair = (long) calls.get(i).reads().size() << 32 | calls.get(i + 1).reads().size();
        byPair.computeIfAbsent(pair, p -> new ArrayList<>()).add(i);
      }
      double[] adjusted = new double[to - from];
      for (List<Integer> members : byPair.values()) {
        long[] part = new long[members.size()];
        for (int j = 0; j < part.length; j++) {
          part[j] = gaps[members.get(j)];
        }
        Arrays.sort(part);
        long median = part[part.length / 2];
        for (int i : members) {
          adjusted[i - from] = gaps[i] - median;
        }
      }
      double[] ranks = new org.apache.commons.math3.stat.ranking.NaturalRanking().rank(adjusted);
      for (int i = from; i < to; i++) {
        ranked[i] = ranks[i - from] / (to - from);
      }
    }
    return ranked;
  }

  private static double correlation(List<double[]> pairs) {
    if (pairs.size() < 10) {
      return Double.NaN;
    }
    double[] a = new double[pairs.size()];
    double[] b = new double[pairs.size()];
    for (int i = 0; i < a.length; i++) {
      a[i] = pairs.get(i)[0];
      b[i] = pairs.get(i)[1];
    }
    return new SpearmansCorrelation().correlation(a, b);
  }

  /** The calls that read, in order; null if a line has no timestamp (a transcript from before #19). */
  private static List<Call> readCalls(Path transcript, long skipLines) throws IOException {
    List<Call> calls = new ArrayList<>();
    long at = Long.MIN_VALUE;
    List<String> reads = null;
    try (BufferedReader in = Files.newBufferedReader(transcript, StandardCharsets.US_ASCII)) {
      String line;
      long lineNumber = 0;
      while ((line = in.readLine()) != null) {
        if (lineNumber++ < skipLines || line.length() < 3) {
          continue;
        }
        String[] f = line.split(" ");
        if (f.length < 4) {
          return null;
        }
        long t;
        try {
          t = Long.parseLong(f[3]);
        } catch (NumberFormatException e) {
          return null;
        }
        if (t != at) {
          if (reads != null && !reads.isEmpty()) {
            calls.add(new Call(at, reads));
          }
          at = t;
          reads = new ArrayList<>();
        }
        if (line.charAt(0) == 'R') {
          reads.add(f[1]);
        }
      }
    }
    if (reads != null && !reads.isEmpty()) {
      calls.add(new Call(at, reads));
    }
    return calls;
  }
}
