package io.pancakej.distribution;

import java.util.random.RandomGenerator;

/**
 * Samples an index with probability proportional to its weight in O(1) time (Vose's alias
 * method), after an O(n) build. Immutable and thread-safe; the caller supplies the randomness.
 */
public final class AliasSampler {
  private final double[] probability;
  private final int[] alias;

  /**
   * Builds a sampler over {@code weights} (non-negative, finite, not all zero). Weights need not
   * sum to one.
   */
  public AliasSampler(double[] weights) {
    int n = weights.length;
    if (n == 0) {
      throw new IllegalArgumentException("cannot sample from an empty distribution");
    }
    double sum = 0;
    for (double w : weights) {
      if (!(w >= 0) || Double.isInfinite(w)) {
        throw new IllegalArgumentException("weights must be finite and non-negative, got " + w);
      }
      sum += w;
    }
    if (!(sum > 0)) {
      throw new IllegalArgumentException("weights must not all be zero");
    }
    probability = new double[n];
    alias = new int[n];
    double[] scaled = new double[n];
    int[] small = new int[n];
    int[] large = new int[n];
    int ns = 0;
    int nl = 0;
    for (int i = 0; i < n; i++) {
      scaled[i] = weights[i] * n / sum;
      if (scaled[i] < 1.0) {
        small[ns++] = i;
      } else {
        large[nl++] = i;
      }
    }
    while (ns > 0 && nl > 0) {
      int s = small[--ns];
      int l = large[--nl];
      probability[s] = scaled[s];
      alias[s] = l;
      scaled[l] = (scaled[l] + scaled[s]) - 1.0;
      if (scaled[l] < 1.0) {
        small[ns++] = l;
      } else {
        large[nl++] = l;
      }
    }
    // What is left is 1 up to rounding error.
    while (nl > 0) {
      int l = large[--nl];
      probability[l] = 1.0;
      alias[l] = l;
    }
    while (ns > 0) {
      int s = small[--ns];
      probability[s] = 1.0;
      alias[s] = s;
    }
  }

  /** Draws one index. */
  public int sample(RandomGenerator random) {
    int column = random.nextInt(probability.length);
    return random.nextDouble() < probability[column] ? column : alias[column];
  }

  /** Number of outcomes. */
  public int size() {
    return probability.length;
  }
}
