package io.pancakej.smoothing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;
import java.util.SplittableRandom;

import org.apache.commons.math3.distribution.ZipfDistribution;
import org.junit.jupiter.api.Test;

/** The Init and swapping formulas: 2n replicas, R(k), and 1/(2n) per replica in every phase. */
class ReplicaPlanTest {
  private static final int N = 1000;

  static double[] zipf(int n, double s, int shift) {
    ZipfDistribution z = new ZipfDistribution(n, s);
    double[] p = new double[n];
    for (int k = 0; k < n; k++) {
      p[(k + shift) % n] = z.probability(k + 1);
    }
    return p;
  }

  static double[] uniform(int n) {
    double[] p = new double[n];
    java.util.Arrays.fill(p, 1.0 / n);
    return p;
  }

  @Test
  void build_givesCeilReplicas_dummiesUpTo2n_andUniformAccess() {
    double[] pi = zipf(N, 0.99, 0);
    ReplicaPlan plan = ReplicaPlan.build(pi, new SplittableRandom(1));
    assertEquals(2 * N, plan.replicaSlots);
    int real = 0;
    for (int k = 0; k < N; k++) {
      assertEquals(Math.max(1, (int) Math.ceil(pi[k] * N - 1e-9)), plan.replicaCount(k), "R(" + k + ")");
      real += plan.replicaCount(k);
    }
    assertEquals(real, plan.realReplicas);
    for (int r = 0; r < plan.replicaSlots; r++) {
      assertEquals(1.0 / (2 * N), plan.accessProbability(r), 1e-12, "replica " + r);
    }
  }

  @Test
  void uniformEstimate_givesOneReplicaPerKey_andNDummies() {
    ReplicaPlan plan = ReplicaPlan.build(uniform(N), new SplittableRandom(2));
    for (int k = 0; k < N; k++) {
      assertEquals(1, plan.replicaCount(k));
    }
    assertEquals(N, plan.dummies());
  }

  @Test
  void successor_keepsUnchangedReplicas_swapsExactlyTheDifference_andStaysUniformDuringTransition() {
    for (double[][] change : new double[][][] {
        {zipf(N, 0.99, 0), uniform(N)},
        {uniform(N), zipf(N, 0.99, 0)},
        {zipf(N, 0.99, 0), zipf(N, 0.99, 100)},
        {zipf(N, 1.2, 0), zipf(N, 0.5, 0)}}) {
      ReplicaPlan from = ReplicaPlan.build(change[0], new SplittableRandom(3));
      ReplicaPlan.Successor next = from.successor(change[1], new SplittableRandom(4));
      ReplicaPlan to = next.plan();
      int expectedSwaps = 0;
      for (int k = 0; k < N; k++) {
        assertEquals(Math.max(1, (int) Math.ceil(to.estimate[k] * N - 1e-9)), to.replicaCount(k));
        expectedSwaps += Math.max(0, to.replicaCount(k) - from.replicaCount(k));
      }
      expectedSwaps += Math.max(0, to.dummies() - from.dummies());
      assertEquals(expectedSwaps, next.swaps().length, "|G| = |L|");
      Set<Integer> swapped = new HashSet<>();
      for (int r : next.swaps()) {
        swapped.add(r);
        assertTrue(from.ownerOf[r] != to.ownerOf[r], "a swapped slot changes owner");
      }
      for (int r = 0; r < 2 * N; r++) {
        if (!swapped.contains(r)) {
          assertEquals(from.ownerOf[r], to.ownerOf[r], "kept slot " + r);
          assertEquals(from.indexOf[r], to.indexOf[r], "kept slot " + r);
        }
      }
      Transition t = new Transition(from, to, next.swaps());
      assertTrue(t.delta() <= 0.5 && t.delta() > 0);
      double sum = 0;
      for (int r = 0; r < 2 * N; r++) {
        assertEquals(1.0 / (2 * N), t.accessProbability(r), 1e-12, "replica " + r + " during the transition");
        sum += t.accessProbability(r);
      }
      assertEquals(1.0, sum, 1e-9);
      assertEquals(expectedSwaps, t.remainingSwaps());
    }
  }
}
