package io.pancakej.smoothing;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.util.Arrays;
import java.util.Comparator;
import java.util.SplittableRandom;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

/** The estimator's key order: descending weight, ties by ascending slot, as a plain comparator sort gives. */
class EstimatorOrderTest {
  private static int[] bySort(double[] w) {
    return IntStream.range(0, w.length).boxed()
        .sorted(Comparator.comparingDouble((Integer k) -> -w[k]).thenComparingInt(k -> k))
        .mapToInt(Integer::intValue).toArray();
  }

  @Test
  void matchesAComparatorSort_withTiesUniformAndSkewedWeights() {
    SplittableRandom rnd = new SplittableRandom(7);
    double[] ties = rnd.ints(5_000, 0, 17).asDoubleStream().map(x -> x / 16).toArray();
    double[] uniform = new double[3_000];
    Arrays.fill(uniform, 1.0 / uniform.length);
    double[] zipf = ReplicaPlanTest.zipf(4_000, 0.99, 0);
    double[] random = rnd.doubles(4_000).toArray();
    for (double[] w : new double[][] {ties, uniform, zipf, random, {0.5}, {}}) {
      assertArrayEquals(bySort(w), Estimator.byDescendingWeight(w));
    }
  }

  @Test
  void putsTheHeaviestFirst() {
    assertArrayEquals(new int[] {2, 0, 1, 3}, Estimator.byDescendingWeight(new double[] {0.3, 0.1, 0.5, 0.1}));
  }
}
