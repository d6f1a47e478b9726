package io.pancakej.smoothing;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.StampedLock;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

import io.pancakej.PancakeException;

/**
 * The pauses of the ticks: work that holds the phase lock's write side (a checkpoint's snapshot, a
 * plan's install, a transition's finish), so that no tick is built or served meanwhile.
 *
 * <p>While the emitter runs, it runs them itself, between two ticks and before its next grid point
 * (woken from its wait for that point), so the call after a pause still leaves on a grid point.
 * Taken by another thread, the write lock held the emitter inside its tick, after its point, and
 * the call left when the lock was released: the store saw how long the snapshot took, which grows
 * with the UpdateCache, so with how many keys were written recently
 * (results/timing/checkpoint-pause: at 8 callers, silences of 4.0-45.5 ms, rank correlation with
 * the cache's size +0.86, the call after them 23-143 us after the release).
 *
 * <p>A <em>padded</em> pause (every checkpoint: the scheduled ones, the one a new plan asks for at
 * once, {@code Checkpointer.soon}, and the application's own) also costs the same silence whatever
 * it took: the emitter sends nothing for {@link #budgetNanos} from the point it would have sent at,
 * so the store sees the same gap for a small snapshot and a large one. The budget starts at
 * {@link #FIRST_BUDGET_NANOS} and rises, never falls, to the power of two (in nanoseconds) at or
 * above twice the longest padded pause so far, at most a tenth of the checkpoint interval: only a
 * pause that outlasts it shows its length, a handful of times in a proxy's life (its first
 * checkpoints, a state that grew, a pause that waited long for the ticks still being served), and
 * each step shows a coarse bound on what it took. The other pauses come with a plan change (a
 * detected change, a deleted key's reweighting, a transition's end): one that ends before the
 * point costs nothing, a longer one the points it outlasts (docs/security.md, "Plan changes").
 *
 * <p>Before the emitter starts and after it stops, a pause runs on the thread that asks for it, as
 * it does on a thread that runs a tick itself (at open, in tests).
 */
final class TickPauses {
  /**
   * The silence of a padded pause before any was measured (less if a tenth of the checkpoint
   * interval is less): a run's first checkpoint, with the JIT still cold, took 8-27 ms at 8
   * callers on 5*10^4 records (results/timing/checkpoint-pause), and outlasted a first budget of 8 ms.
   */
  static final long FIRST_BUDGET_NANOS = TimeUnit.MILLISECONDS.toNanos(32);

  private final StampedLock lock;
  private final Clock clock;
  private final long maxBudgetNanos;
  private final BooleanSupplier holdsTicks;
  private final Object monitor = new Object();
  /** Pauses asked for and not run yet (guarded by {@link #monitor}). */
  private final List<Pause<?>> queued = new ArrayList<>();
  /** The emitter's thread while it runs the pauses (guarded by {@link #monitor}); null: each runs on its caller. */
  private Thread emitter;
  /** True while {@link #queued} may hold a pause: the emitter's check every tick reads only this. */
  private volatile boolean pending;
  /** The silence of the next padded pause (emitter thread; read by tests). */
  private volatile long budgetNanos;

  TickPauses(StampedLock lock, Clock clock, long checkpointIntervalNanos) {
    this(lock, clock, checkpointIntervalNanos, () -> false);
  }

  /**
   * @param holdsTicks true on a thread that holds what every tick's send takes (the runner's
   *     monitor: a tick run outside the emitter, at open or in a test): no tick can be under way,
   *     and the emitter cannot come round to run a pause, so such a thread runs its own
   */
  TickPauses(StampedLock lock, Clock clock, long checkpointIntervalNanos, BooleanSupplier holdsTicks) {
    this.lock = lock;
    this.clock = clock;
    this.holdsTicks = holdsTicks;
    // at most a tenth of the interval in silence, however short the interval is set
    this.maxBudgetNanos = Math.max(1, checkpointIntervalNanos / 10);
    this.budgetNanos = Math.min(FIRST_BUDGET_NANOS, maxBudgetNanos);
  }

  /**
   * Runs {@code task} with the phase write lock held, between two ticks (on the emitter's thread
   * while it runs), and returns its result; {@code padded}: the ticks then stay silent for the
   * budget, however long it took. The caller must not hold the phase lock.
   */
  <T> T run(Supplier<T> task, boolean padded) {
    Pause<T> pause;
    Thread wake = null;
    synchronized (monitor) {
      if (emitter == null || Thread.currentThread() == emitter || holdsTicks.getAsBoolean()) {
        pause = null;
      } else {
        pause = new Pause<>(task, padded);
        queued.add(pause);
        pending = true;
        wake = emitter;
      }
    }
    if (wake != null) {
      LockSupport.unpark(wake); // from its wait for the next point: the pause runs before that point
    }
    if (pause == null) {
      long stamp = lock.writeLock();
      try {
        return task.get();
      } finally {
        lock.unlockWrite(stamp);
      }
    }
    try {
      return pause.done.join();
    } catch (CompletionException e) {
      if (e.getCause() instanceof RuntimeException r) {
        r.addSuppressed(new PancakeException("the caller of this pause of the ticks (it ran on the emitter)"));
        throw r;
      }
      if (e.getCause() instanceof Error err) {
        throw err;
      }
      throw e;
    }
  }

  /** From now on the pauses run on the calling thread, the emitter's, through {@link #runDue}. */
  void emitterStarted() {
    synchronized (monitor) {
      emitter = Thread.currentThread();
    }
  }

  /** The emitter stops (its thread, on its way out): it runs what was asked for, and callers run theirs from now on. */
  void emitterStopped() {
    List<Pause<?>> left;
    synchronized (monitor) {
      emitter = null;
      left = takeQueued();
    }
    if (!left.isEmpty()) {
      runAll(left);
    }
  }

  /**
   * Runs the pauses asked for since the last call (emitter thread, between two ticks, before its
   * next grid point) and returns how long the ticks are to stay silent from that point: the budget
   * if one of them was padded, else 0.
   */
  long runDue() {
    if (!pending) {
      return 0;
    }
    List<Pause<?>> due;
    synchronized (monitor) {
      due = takeQueued();
    }
    if (due.isEmpty()) {
      return 0;
    }
    long start = clock.nanoTime();
    boolean padded = runAll(due);
    if (!padded) {
      return 0;
    }
    long hold = budgetNanos;
    long took = Math.min(clock.nanoTime() - start, maxBudgetNanos); // the wait for the lock included
    if (2 * took > hold) {
      // the next ones get twice this one's length, on a power-of-two step of nanoseconds
      budgetNanos = Math.min(maxBudgetNanos, Long.highestOneBit(2 * took - 1) << 1);
    }
    return hold;
  }

  /** True if a pause waits for the emitter (tests). */
  boolean pending() {
    return pending;
  }

  /** The silence of the next padded pause. */
  long budgetNanos() {
    return budgetNanos;
  }

  private List<Pause<?>> takeQueued() {
    List<Pause<?>> out = new ArrayList<>(queued);
    queued.clear();
    pending = false;
    return out;
  }

  /** Runs {@code pauses} under one write lock, each completing its caller's future; true if one was padded. */
  private boolean runAll(List<Pause<?>> pauses) {
    boolean padded = false;
    long stamp = lock.writeLock();
    try {
      for (Pause<?> p : pauses) {
        padded |= p.padded;
        p.runNow();
      }
    } finally {
      lock.unlockWrite(stamp);
    }
    return padded;
  }

  /** A pause asked for by another thread, which waits for {@link #done}. */
  private static final class Pause<T> {
    final Supplier<T> task;
    final boolean padded;
    final CompletableFuture<T> done = new CompletableFuture<>();

    Pause(Supplier<T> task, boolean padded) {
      this.task = task;
      this.padded = padded;
    }

    void runNow() {
      try {
        done.complete(task.get());
      } catch (Throwable e) {
        done.completeExceptionally(e); // the caller's failure, not the emitter's
      }
    }
  }
}
