package io.pancakej.smoothing;

import java.util.Arrays;
import java.util.random.RandomGenerator;

import io.pancakej.distribution.AliasSampler;

/**
 * An immutable replica plan (paper section 4.2, Init): for n key slots with estimate pi, key
 * slot k owns R(k) = max(1, ceil(pi(k) / alpha)) replicas with alpha = 1/n, and dummy replicas
 * fill the store up to exactly 2n replica slots. Fake accesses follow
 * pi_f(k, j) = (alpha - pi(k)/R(k)) / (2n alpha - 1) and pi_f(dummy) = alpha / (2n alpha - 1);
 * with delta = 1/2 real accesses, every replica is accessed with probability exactly 1/(2n).
 *
 * <p>Replica slots are numbered 0..2n-1 and assigned to owners through a random permutation, so a
 * slot number (and the label derived from it) says nothing about its owner.
 */
final class ReplicaPlan {
  /** Owner marker of a dummy replica. */
  static final int DUMMY = -1;
  /** Tolerance for ceil(pi * n): 1 + 1e-9 replicas of a uniform key is still one replica. */
  private static final double CEIL_SLACK = 1e-9;

  final int keySlots;
  final int replicaSlots;
  final double[] estimate;
  final int[] ownerOf;
  final int[] indexOf;
  private final int[] replicaStart;
  private final int[] replicasOfKey;
  private final AliasSampler realSampler;
  private final AliasSampler fakeSampler;
  final int realReplicas;

  private ReplicaPlan(double[] estimate, int[] ownerOf, int[] indexOf) {
    this.keySlots = estimate.length;
    this.replicaSlots = ownerOf.length;
    this.estimate = estimate;
    this.ownerOf = ownerOf;
    this.indexOf = indexOf;
    int[] count = new int[keySlots];
    int real = 0;
    for (int owner : ownerOf) {
      if (owner != DUMMY) {
        count[owner]++;
        real++;
      }
    }
    this.realReplicas = real;
    replicaStart = new int[keySlots + 1];
    for (int k = 0; k < keySlots; k++) {
      if (count[k] == 0) {
        throw new IllegalStateException("key slot " + k + " has no replica");
      }
      replicaStart[k + 1] = replicaStart[k] + count[k];
    }
    replicasOfKey = new int[real];
    for (int r = 0; r < replicaSlots; r++) {
      int owner = ownerOf[r];
      if (owner != DUMMY) {
        replicasOfKey[replicaStart[owner] + indexOf[r]] = r;
      }
    }
    realSampler = new AliasSampler(estimate);
    double alpha = 1.0 / keySlots;
    double[] fake = new double[replicaSlots];
    double denominator = 2 * keySlots * alpha - 1; // = 1 for alpha = 1/n; kept for the formula's sake
    for (int r = 0; r < replicaSlots; r++) {
      int owner = ownerOf[r];
      double p = owner == DUMMY ? alpha : alpha - estimate[owner] / count[owner];
      fake[r] = Math.max(0.0, p / denominator);
    }
    fakeSampler = new AliasSampler(fake);
  }

  /** Builds the plan for {@code estimate} (normalized here) with a random slot layout. */
  static ReplicaPlan build(double[] estimate, RandomGenerator random) {
    int n = estimate.length;
    double[] pi = normalize(estimate);
    int[] r = new int[n];
    long total = 0;
    for (int k = 0; k < n; k++) {
      r[k] = Math.max(1, (int) Math.ceil(pi[k] * n - CEIL_SLACK));
      total += r[k];
    }
    int m = 2 * n;
    if (total > m) {
      throw new IllegalStateException("replica plan needs " + total + " replicas, more than 2n = " + m);
    }
    int[] permutation = shuffled(m, random);
    int[] ownerOf = new int[m];
    int[] indexOf = new int[m];
    Arrays.fill(ownerOf, DUMMY);
    int next = 0;
    for (int k = 0; k < n; k++) {
      for (int j = 0; j < r[k]; j++) {
        int slot = permutation[next++];
        ownerOf[slot] = k;
        indexOf[slot] = j;
      }
    }
    for (int dummy = 0; next < m; dummy++) {
      indexOf[permutation[next++]] = dummy;
    }
    return new ReplicaPlan(pi, ownerOf, indexOf);
  }

  /** Rebuilds a plan from persisted state. */
  static ReplicaPlan restore(double[] estimate, int[] ownerOf, int[] indexOf) {
    if (ownerOf.length != 2 * estimate.length || indexOf.length != ownerOf.length) {
      throw new IllegalArgumentException("replica plan arrays do not match 2n = " + 2 * estimate.length);
    }
    return new ReplicaPlan(normalize(estimate), ownerOf, indexOf);
  }

  private static double[] normalize(double[] weights) {
    double sum = 0;
    for (double w : weights) {
      if (!(w >= 0) || Double.isInfinite(w)) {
        throw new IllegalArgumentException("estimate must be finite and non-negative");
      }
      sum += w;
    }
    if (!(sum > 0)) {
      throw new IllegalArgumentException("estimate must not be all zero");
    }
    double[] p = new double[weights.length];
    for (int i = 0; i < p.length; i++) {
      p[i] = weights[i] / sum;
    }
    return p;
  }

  /** R(k). */
  int replicaCount(int keySlot) {
    return replicaStart[keySlot + 1] - replicaStart[keySlot];
  }

  /** The replica slot of replica {@code j} of key slot {@code k}. */
  int replica(int keySlot, int j) {
    return replicasOfKey[replicaStart[keySlot] + j];
  }

  /** A uniformly chosen replica slot of {@code keySlot}. */
  int randomReplica(int keySlot, RandomGenerator random) {
    int count = replicaCount(keySlot);
    return replicasOfKey[replicaStart[keySlot] + (count == 1 ? 0 : random.nextInt(count))];
  }

  /** A simulated real access: key slot ~ estimate, then a uniform replica. */
  int sampleReal(RandomGenerator random) {
    return randomReplica(realSampler.sample(random), random);
  }

  /** A key slot drawn from the estimate. */
  int sampleKey(RandomGenerator random) {
    return realSampler.sample(random);
  }

  /** Number of dummy replicas. */
  int dummies() {
    return replicaSlots - realReplicas;
  }

  /**
   * The plan for {@code newEstimate} that keeps every replica slot it can (same owner, same index)
   * and reassigns the rest -- the paper's L list -- to the replicas the new estimate adds (the G
   * list), in a random pairing. Slots that keep their owner keep their label's meaning; only the
   * returned {@link Successor#swaps} change hands.
   */
  Successor successor(double[] newEstimate, RandomGenerator random) {
    if (newEstimate.length != keySlots) {
      throw new IllegalArgumentException("a new estimate must cover the same " + keySlots + " key slots");
    }
    double[] pi = normalize(newEstimate);
    int[] target = new int[keySlots];
    long total = 0;
    for (int k = 0; k < keySlots; k++) {
      target[k] = Math.max(1, (int) Math.ceil(pi[k] * keySlots - CEIL_SLACK));
      total += target[k];
    }
    if (total > replicaSlots) {
      throw new IllegalStateException("replica plan needs " + total + " replicas, more than 2n");
    }
    int targetDummies = (int) (replicaSlots - total);
    int[] owner = ownerOf.clone();
    int[] index = indexOf.clone();
    // L: slots whose owner loses replicas (highest indices go)
    int[] freed = new int[replicaSlots];
    int nf = 0;
    for (int r = 0; r < replicaSlots; r++) {
      int o = ownerOf[r];
      int keep = o == DUMMY ? targetDummies : target[o];
      if (indexOf[r] >= keep) {
        freed[nf++] = r;
      }
    }
    for (int i = nf - 1; i > 0; i--) {
      int j = random.nextInt(i + 1);
      int t = freed[i];
      freed[i] = freed[j];
      freed[j] = t;
    }
    // G: the replicas owners gain, paired with L in the shuffled order
    int next = 0;
    for (int k = 0; k < keySlots; k++) {
      for (int j = replicaCount(k); j < target[k]; j++) {
        owner[freed[next]] = k;
        index[freed[next++]] = j;
      }
    }
    for (int j = dummies(); j < targetDummies; j++) {
      owner[freed[next]] = DUMMY;
      index[freed[next++]] = j;
    }
    if (next != nf) {
      throw new IllegalStateException("replica swap lists differ in size: " + next + " gained, " + nf + " lost");
    }
    return new Successor(new ReplicaPlan(pi, owner, index), Arrays.copyOf(freed, nf));
  }

  /**
   * The plan for {@code newEstimate} on this plan's layout (every replica slot keeps its owner and
   * index), or null if some key would need more replicas than it has. Keys with more replicas than
   * they need stay valid: their replicas' fake probability makes up the difference.
   */
  ReplicaPlan reweighted(double[] newEstimate) {
    double[] pi = normalize(newEstimate);
    for (int k = 0; k < keySlots; k++) {
      if (Math.max(1, (int) Math.ceil(pi[k] * keySlots - CEIL_SLACK)) > replicaCount(k)) {
        return null;
      }
    }
    return new ReplicaPlan(pi, ownerOf, indexOf);
  }

  /** A successor plan and the replica slots that change owner on the way to it. */
  record Successor(ReplicaPlan plan, int[] swaps) {}

  /** A fake access: replica slot ~ pi_f. */
  int sampleFake(RandomGenerator random) {
    return fakeSampler.sample(random);
  }

  /** Probability that one access slot of a batch touches replica {@code r}: 1/(2n) by design. */
  double accessProbability(int r) {
    int owner = ownerOf[r];
    double alpha = 1.0 / keySlots;
    double fake = owner == DUMMY ? alpha : Math.max(0, alpha - estimate[owner] / replicaCount(owner));
    double real = owner == DUMMY ? 0 : estimate[owner] / replicaCount(owner);
    return 0.5 * real + 0.5 * fake;
  }

  /** 0 .. n-1 in a uniformly random order (Fisher-Yates). */
  static int[] shuffled(int n, RandomGenerator random) {
    int[] order = new int[n];
    for (int i = 0; i < n; i++) {
      order[i] = i;
    }
    for (int i = n - 1; i > 0; i--) {
      int j = random.nextInt(i + 1);
      int t = order[i];
      order[i] = order[j];
      order[j] = t;
    }
    return order;
  }
}
