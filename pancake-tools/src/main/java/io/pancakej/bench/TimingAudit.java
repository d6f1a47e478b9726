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
 * that times its calls flags the calls followed by the longest tenth of the silences (the
 * threshold taken per tenth of the run, so a rate that drifts does not flag a whole stretch) and
 * keeps, per label, the share of its reads that fell in flagged calls. Without a timing leak that
 * share is noise. Two scores:
 *
 * <ul>
 *   <li>without the ground truth: the shares of the two halves of the run, rank-correlated over the
 *       labels read at least 3 times in each (what the store alone can compute);
 *   <li>with it: the shares against each label's true real-access rate (its key's probability
 *       over the number of labels its key owns; 0 for a label of no key), rank-correlated over the
 *       labels read at least once. A silence that follows the real accesses in a call shows here
 *       long before the store can see it alone (docs/security.md, "The callers a tick wakes").
 * </ul>
 *
 * Both are reported as z = rho x sqrt(labels - 1), about standard normal without a leak, for the
 * silence right after a call and for the next two: a call can also move a later one (answers held
 * back until the next call, or callers that wait on the core for their answers, moved the leak
 * there: results/timing/wake-contention). Not scored yet: the silence before a call (its own
 * lateness, which carries its real accesses by a few hundred nanoseconds), nor a continuous score of the gaps, which a review found stronger.
 */
final class TimingAudit {
  /**
   * |z| above this is reported as a leak (against the ground truth either sign is one; across halves
   * only a positive correlation is): twenty one-thread default-path runs, whose silences after a
   * call show at most a trace, gave -1.1 to 3.3 at lag 1 (six more stayed within 1.6 at lags 2 and 3); 8-thread runs,
   * which leak, 7 to 12 in results/timing/wake-contention.
   */
  static final double LEAK_Z = 5;

  /** The calls after a call whose silence is scored: the one right after it, and the next two. */
  static final int LAGS = 3;

  /**
   * What the attack found, per lag (index 0: the silence right after a call; 1 and 2: after the
   * next call and the one after, which a call can still move through the work it leaves behind);
   * {@code truthRhos} are NaN without a ground truth.
   */
  record Result(int calls, double gapMedianMicros, double gapP90Micros, double[] splitHalfRhos, int[] splitHalfLabels,
      double[] truthRhos, int truthLabels) {
    double splitHalfRho() {
      return splitHalfRhos[0];
    }

    double splitHalfZ() {
      return splitHalfZ(1);
    }

    double splitHalfZ(int lag) {
      return splitHalfRhos[lag - 1] * Math.sqrt(Math.max(0, splitHalfLabels[lag - 1] - 1));
    }

    double truthRho() {
      return truthRhos[0];
    }

    double truthZ() {
      return truthZ(1);
    }

    double truthZ(int lag) {
      return truthRhos[lag - 1] * Math.sqrt(Math.max(0, truthLabels - 1));
    }

    /** The lag (1..LAGS) whose ground-truth score is farthest from 0 (1 without a ground truth). */
    int strongestLag() {
      int best = 1;
      for (int lag = 2; lag <= LAGS; lag++) {
        if (Math.abs(truthZ(lag)) > Math.abs(truthZ(best))) {
          best = lag;
        }
      }
      return best;
    }

    /** The scores by lag, readable in an assertion message (a record prints its arrays as references). */
    @Override
    public String toString() {
      return String.format(java.util.Locale.ROOT, "Result[calls=%d, gap median %.1f us, p90 %.1f us, split-half rho %s"
          + " over %s labels, ground-truth rho %s over %d labels]", calls, gapMedianMicros, gapP90Micros,
          Arrays.toString(splitHalfRhos), Arrays.toString(splitHalfLabels), Arrays.toString(truthRhos), truthLabels);
    }

    /** Either sign leaks: a silence shorter after real accesses tells them apart as well as a longer one. */
    boolean leaks() {
      for (int lag = 1; lag <= LAGS; lag++) {
        if (splitHalfZ(lag) > LEAK_Z || Math.abs(truthZ(lag)) > LEAK_Z) {
          return true;
        }
      }
      return false;
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
    int n = calls.size() - 1; // the last call has no silence after it
    long[] gaps = new long[n];
    for (int i = 0; i < n; i++) {
      gaps[i] = calls.get(i + 1).at() - calls.get(i).at();
    }
    boolean[] flagged = flagLongestTenth(gaps);
    double[] splitRho = new double[LAGS];
    int[] splitLabels = new int[LAGS];
    double[] truthRho = new double[LAGS];
    Arrays.fill(truthRho, Double.NaN);
    int truthLabels = 0;
    Map<String, Integer> labelsOfKey = new HashMap<>();
    owner.values().forEach(k -> labelsOfKey.merge(k, 1, Integer::sum));
    for (int lag = 1; lag <= LAGS; lag++) {
      // call i's reads against the silence after call i + lag - 1
      Map<String, long[]> perLabel = new HashMap<>(); // flagged and all reads, first half then second
      for (int i = 0; i + lag - 1 < n; i++) {
        int half = i < n / 2 ? 0 : 1;
        boolean f = flagged[i + lag - 1];
        for (String label : calls.get(i).reads()) {
          long[] c = perLabel.computeIfAbsent(label, l -> new long[4]);
          c[2 * half + 1]++;
          if (f) {
            c[2 * half]++;
          }
        }
      }
      List<double[]> halves = new ArrayList<>();
      for (long[] c : perLabel.values()) {
        if (c[1] >= 3 && c[3] >= 3) {
          halves.add(new double[] {(double) c[0] / c[1], (double) c[2] / c[3]});
        }
      }
      splitRho[lag - 1] = correlation(halves);
      splitLabels[lag - 1] = halves.size();
      if (!owner.isEmpty()) {
        List<double[]> pairs = new ArrayList<>();
        perLabel.forEach((label, c) -> {
          String key = owner.get(label);
          double rate = key == null ? 0 : weights.getOrDefault(key, 0.0) / labelsOfKey.get(key);
          pairs.add(new double[] {(double) (c[0] + c[2]) / (c[1] + c[3]), rate});
        });
        truthRho[lag - 1] = correlation(pairs);
        truthLabels = pairs.size();
      }
    }
    long[] sorted = gaps.clone();
    Arrays.sort(sorted);
    return new Result(calls.size(), sorted[n / 2] / 1e3, sorted[(int) (n * 0.9)] / 1e3, splitRho, splitLabels,
        truthRho, truthLabels);
  }

  /** Each gap longer than the 90th percentile of its tenth of the run. */
  private static boolean[] flagLongestTenth(long[] gaps) {
    boolean[] flagged = new boolean[gaps.length];
    int segment = Math.max(1, gaps.length / 10);
    for (int from = 0; from < gaps.length; from += segment) {
      int to = Math.min(gaps.length, from + segment);
      long[] part = Arrays.copyOfRange(gaps, from, to);
      Arrays.sort(part);
      long threshold = part[(int) (part.length * 0.9)];
      for (int i = from; i < to; i++) {
        flagged[i] = gaps[i] > threshold;
      }
    }
    return flagged;
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
