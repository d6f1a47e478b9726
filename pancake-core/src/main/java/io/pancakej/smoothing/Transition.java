package io.pancakej.smoothing;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.random.RandomGenerator;

import io.pancakej.distribution.AliasSampler;

/**
 * Replica swapping towards a new plan (paper section 5.1; seed 001 has the formulas). The slots
 * in the L list keep their labels but change owner; until a slot's swap is done it still holds its
 * old owner's data, so reads of every key use only its <em>stable</em> replicas -- the
 * c(k) = min(R(k), R'(k)) it keeps -- and swap slots are touched by fake accesses only. To keep
 * every replica at probability 1/(2n) per access the threshold rises to
 * alpha' = max_k pi'(k) / c(k), the real-access probability falls to delta' = 1/(2n alpha'), and
 * the temporary fake distribution gives each stable replica alpha' - pi'(k)/c(k) and each swap or
 * dummy slot alpha' (all over 2n alpha' - 1). A swap happens when a batch touches the slot and the
 * new owner's latest value is at hand (its UpdateCache entry, or a value cached from reading one of
 * its stable replicas); the batch writes that value instead of re-encrypting the old one.
 */
final class Transition extends Phase {
  /** Cached value of a key known to be absent. */
  static final byte[] NO_VALUE = new byte[0];

  final ReplicaPlan from;
  private final int[] stable;
  private final double delta;
  private final double alphaPrime;
  private final AliasSampler fake;
  private final AtomicLongArray pending;
  private final AtomicIntegerArray pendingPerKey;
  private final AtomicInteger remaining;
  private final int total;
  private final ConcurrentHashMap<Integer, byte[]> swapValues = new ConcurrentHashMap<>();
  /** Set once a checkpoint holding this transition is saved: no swap reaches the store before. */
  private volatile boolean durable;

  Transition(ReplicaPlan from, ReplicaPlan to, int[] swaps) {
    super(to);
    this.from = from;
    int n = to.keySlots;
    stable = new int[n];
    double alpha = 1.0 / n;
    double alphaPrime = alpha;
    for (int k = 0; k < n; k++) {
      stable[k] = Math.min(from.replicaCount(k), to.replicaCount(k));
      alphaPrime = Math.max(alphaPrime, to.estimate[k] / stable[k]);
    }
    this.alphaPrime = alphaPrime;
    this.delta = 1.0 / (2 * n * alphaPrime);
    pending = new AtomicLongArray((to.replicaSlots + 63) >>> 6);
    pendingPerKey = new AtomicIntegerArray(n);
    for (int r : swaps) {
      pending.getAndUpdate(r >>> 6, w -> w | (1L << (r & 63)));
      int owner = to.ownerOf[r];
      if (owner != ReplicaPlan.DUMMY) {
        pendingPerKey.incrementAndGet(owner);
      }
    }
    total = swaps.length;
    remaining = new AtomicInteger(swaps.length);
    double[] weights = new double[to.replicaSlots];
    for (int r = 0; r < to.replicaSlots; r++) {
      int owner = to.ownerOf[r];
      if (isPending(r) || owner == ReplicaPlan.DUMMY) {
        weights[r] = alphaPrime;
      } else {
        weights[r] = Math.max(0.0, alphaPrime - to.estimate[owner] / stable[owner]);
      }
    }
    fake = new AliasSampler(weights);
  }

  @Override
  double delta() {
    return delta;
  }

  /**
   * A swap that made no progress for this long waits for something batches cannot bring (a
   * damaged replica's value): the emitter's levels are no longer held for it ({@link #crawls}). At
   * the idle rate a single slot is touched about every 2n/(B x 100) s (13 s at 2 000 keys), so a
   * healthy swap near its end can pause that long; the level is at the floor then anyway.
   */
  static final long STALL_NANOS = java.util.concurrent.TimeUnit.SECONDS.toNanos(10);
  /** The swaps left when {@link #crawls} last saw them change, and when (the emitter's alone). */
  private int crawlSeenRemaining = -1;
  private long crawlSeenAt;

  /**
   * Whether the ticks crawl at delta' for this transition at {@code nowNanos} (the proxy's clock):
   * swaps remain, and their count changed within {@link #STALL_NANOS} of the calls to this method
   * (the emitter holds its levels meanwhile, {@link EmissionRate}). Called by the emitter alone,
   * once a tick.
   */
  boolean crawls(long nowNanos) {
    int left = remaining.get();
    if (left == 0) {
      return false;
    }
    if (left != crawlSeenRemaining) {
      crawlSeenRemaining = left;
      crawlSeenAt = nowNanos;
    }
    return nowNanos - crawlSeenAt < STALL_NANOS;
  }

  /** The steady plan a finished transition samples as (made once, when the last swap is done). */
  private volatile Phase.Steady finished;

  /**
   * Once every swap is done, the steady plan: every replica holds its owner's data, so a tick
   * samples as after the finish, which waits for the emitter's next slot ({@link Transitions#finish})
   * -- without this, up to an interval of ticks at delta' (a crawl for a large swap). Either way
   * every label is accessed with probability 1/(2n), so when the switch happens does not show.
   */
  @Override
  Phase sampling() {
    if (remaining.get() != 0) {
      return this;
    }
    Phase.Steady s = finished;
    if (s == null) {
      s = new Phase.Steady(target);
      finished = s;
    }
    return s;
  }

  double alphaPrime() {
    return alphaPrime;
  }

  @Override
  int replicaFor(int keySlot, RandomGenerator random) {
    int c = stable[keySlot];
    return target.replica(keySlot, c == 1 ? 0 : random.nextInt(c));
  }

  @Override
  int sampleFake(RandomGenerator random) {
    return fake.sample(random);
  }

  @Override
  int holderOf(int r) {
    return isPending(r) ? from.ownerOf[r] : target.ownerOf[r];
  }

  /** Number of stable replicas of {@code keySlot} (the ones reads may use). */
  int stableCount(int keySlot) {
    return stable[keySlot];
  }

  boolean isPending(int r) {
    return (pending.get(r >>> 6) & (1L << (r & 63))) != 0;
  }

  /** Whether {@code keySlot} still waits for swaps (so its value is worth caching). */
  boolean awaitsValue(int keySlot) {
    return pendingPerKey.get(keySlot) > 0;
  }

  /** Remembers the latest value of a key read from a stable replica (NO_VALUE if absent). */
  void offerValue(int keySlot, byte[] value) {
    swapValues.putIfAbsent(keySlot, value == null ? NO_VALUE : value);
  }

  /** The cached value of {@code keySlot} for a swap, NO_VALUE if absent, null if unknown. */
  byte[] cachedValue(int keySlot) {
    return swapValues.get(keySlot);
  }

  /** Records that slot {@code r} now holds its new owner's data; true if it was the last swap. */
  boolean completeSwap(int r) {
    long bit = 1L << (r & 63);
    long before = pending.getAndUpdate(r >>> 6, w -> w & ~bit);
    if ((before & bit) == 0) {
      return false;
    }
    int owner = target.ownerOf[r];
    if (owner != ReplicaPlan.DUMMY && pendingPerKey.decrementAndGet(owner) == 0) {
      swapValues.remove(owner);
    }
    return remaining.decrementAndGet() == 0;
  }

  int remainingSwaps() {
    return remaining.get();
  }

  int totalSwaps() {
    return total;
  }

  int cachedValues() {
    return swapValues.size();
  }

  long cachedValueBytes() {
    long b = 0;
    for (byte[] v : swapValues.values()) {
      b += v.length;
    }
    return b;
  }

  /** Probability that one access slot of a batch touches replica {@code r}: 1/(2n) by design. */
  double accessProbability(int r) {
    int n = target.keySlots;
    double fakeTotal = 2 * n * alphaPrime - 1;
    int owner = target.ownerOf[r];
    if (isPending(r) || owner == ReplicaPlan.DUMMY) {
      return (1 - delta) * alphaPrime / fakeTotal;
    }
    double real = target.estimate[owner] / stable[owner];
    double fakeWeight = Math.max(0, alphaPrime - real);
    return delta * real + (1 - delta) * fakeWeight / fakeTotal;
  }

  /** The slots still pending, for persistence. */
  int[] pendingSlots() {
    int[] out = new int[remaining.get()];
    int i = 0;
    for (int r = 0; r < target.replicaSlots && i < out.length; r++) {
      if (isPending(r)) {
        out[i++] = r;
      }
    }
    return i == out.length ? out : java.util.Arrays.copyOf(out, i);
  }

  /** True once the state file holds this transition's plan (swaps may reach the store). */
  boolean isDurable() {
    return durable;
  }

  void markDurable() {
    durable = true;
  }
}
