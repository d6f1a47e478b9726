package io.pancakej.smoothing;

import java.util.random.RandomGenerator;

/**
 * How batches are built right now: in a steady plan ({@link Steady}) or while swapping replicas
 * towards a new plan ({@link Transition}). A phase answers the four questions a batch asks: is an
 * access real (delta), which replica serves a real access for a key, which replica does a fake
 * access touch, and whose data does a replica slot hold at the moment.
 */
abstract class Phase {
  /** The plan that owns UpdateCache indices and write-backs (the new one during a transition). */
  final ReplicaPlan target;

  Phase(ReplicaPlan target) {
    this.target = target;
  }

  /** Probability that an access of a batch is real. */
  abstract double delta();

  /** A replica of {@code keySlot} that holds its data, uniformly. */
  abstract int replicaFor(int keySlot, RandomGenerator random);

  /** A simulated real access when the queue is empty. */
  final int sampleReal(RandomGenerator random) {
    return replicaFor(target.sampleKey(random), random);
  }

  /** A fake access. */
  abstract int sampleFake(RandomGenerator random);

  /** The key slot (or DUMMY) whose data replica slot {@code r} holds now. */
  abstract int holderOf(int r);

  /** The phase a tick draws its accesses from (delta, real and fake replicas): this one, unless said otherwise. */
  Phase sampling() {
    return this;
  }

  /** The steady state of the paper's section 4: delta = 1/2, pi_f of the plan. */
  static final class Steady extends Phase {
    Steady(ReplicaPlan plan) {
      super(plan);
    }

    @Override
    double delta() {
      return 0.5;
    }

    @Override
    int replicaFor(int keySlot, RandomGenerator random) {
      return target.randomReplica(keySlot, random);
    }

    @Override
    int sampleFake(RandomGenerator random) {
      return target.sampleFake(random);
    }

    @Override
    int holderOf(int r) {
      return target.ownerOf[r];
    }
  }
}
