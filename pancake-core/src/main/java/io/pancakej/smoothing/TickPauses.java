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
 * <p>A <em>padded</em> pause also costs the same silence whatever it took: the emitter sends
 * nothing for {@link #budgetNanos} from the point it would have sent at, so the store sees the same
 * gap for a small snapshot and a large one. The budget starts at {@link #FIRST_BUDGET_NANOS} and
 * rises, never falls, to the power of two (in nanoseconds) at or above twice the longest padded
 * pause so far, at most a tenth of the checkpoint interval: only a pause that outlasts it shows its
 * length, a handful of times in a proxy's life (its first checkpoints, a state that grew, a pause
 * that waited long for the ticks still being served), and each step shows a coarse bound on what
 * it took.
 *
 * <p><em>Slots</em> put the pauses on a schedule of the clock alone: one every
 * {@link #PLAN_SLOT_NANOS} (every checkpoint interval if shorter) from the emitter's first tick,
 * and every checkpoint interval a checkpoint slot. At the first grid point at or after a slot's
 * time the emitter runs what waits for it ({@link #runInSlot}: the plan installs, then in a
 * checkpoint slot the checkpoint's copy) under the write lock, which it takes in every slot (so
 * every slot waits for the servings under way), seals the write-backs still owed again, and stays
 * silent for a budget, whether or not anything waited: the checkpoint budget in a checkpoint slot,
 * the plan budget in the others. A plan change (a detected change, a deleted key's reweighting, a
 * transition's finish) asked for between two slots so changes nothing the store sees when it
 * happens; installed at once, as before, one that outlasted the gap to the next point marked the
 * moment by missed points. A swapping transition's plan is saved by the next checkpoint slot's
 * checkpoint (its swaps wait for it): a checkpoint of its own, even in a plan slot, gave that slot
 * the checkpoint budget's silence and so dated the swap's start to the second. What still
 * runs outside the slots: the application's own {@code checkpoint()} calls (padded, at the
 * application's times), and every pause before the emitter starts or after it stops.
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
  private final Runnable afterSlot;
  private final Object monitor = new Object();
  /** Pauses asked for and not run yet (guarded by {@link #monitor}). */
  private final List<Pause<?>> queued = new ArrayList<>();
  /**
   * Pauses that wait for a slot (guarded by {@link #monitor}): plan installs run in the next one;
   * checkpoints in the next checkpoint slot, after its installs.
   */
  private final List<Pause<?>> slotPlans = new ArrayList<>();
  private final List<Pause<?>> slotCheckpoints = new ArrayList<>();
  /** The time between two slots: {@link #PLAN_SLOT_NANOS}, or the checkpoint interval if shorter. */
  private final long slotIntervalNanos;
  /** Every how many slots one is a checkpoint slot. */
  private final long checkpointEvery;
  /** When the next slot is due, on the proxy's clock, and its number (written by the emitter once it runs). */
  private volatile long nextSlotNanos;
  private volatile long nextSlotIndex = 1;
  /** The silence of a slot that runs no checkpoint (emitter thread; read by tests). */
  private volatile long planBudgetNanos;
  private final long maxPlanBudgetNanos;
  private volatile long slotsRun;
  /** Tests of the padded pauses alone (guarded by {@link #monitor}). */
  private boolean withoutSlots;
  private volatile long slotPlansRun;
  private volatile long atOnceRun;
  /** The emitter's thread while it runs the pauses (guarded by {@link #monitor}); null: each runs on its caller. */
  private Thread emitter;
  /** True while {@link #queued} may hold a pause: the emitter's check every tick reads only this. */
  private volatile boolean pending;
  /** The silence of the next padded pause (emitter thread; read by tests). */
  private volatile long budgetNanos;
  /** Set once the proxy closed without its emitter ({@link #abandon}): every pause fails with it (guarded by {@link #monitor}). */
  private RuntimeException abandoned;
  /** The pauses the emitter has taken and not run yet (guarded by {@link #monitor}): {@link #abandon} fails them too. */
  private List<Pause<?>> inHand = List.of();

  TickPauses(StampedLock lock, Clock clock, long checkpointIntervalNanos) {
    this(lock, clock, checkpointIntervalNanos, () -> false, () -> {});
  }

  /** Without slots (tests of the padded pauses alone). */
  static TickPauses withoutSlots(StampedLock lock, Clock clock, long checkpointIntervalNanos) {
    TickPauses p = new TickPauses(lock, clock, checkpointIntervalNanos);
    synchronized (p.monitor) {
      p.withoutSlots = true;
      p.nextSlotNanos = Long.MAX_VALUE;
    }
    return p;
  }

  /**
   * @param holdsTicks true on a thread that holds what every tick's send takes (the runner's
   *     monitor: a tick run outside the emitter, at open or in a test): no tick can be under way,
   *     and the emitter cannot come round to run a pause, so such a thread runs its own
   * @param afterSlot run by every slot after its pauses, inside its measured time: the engine seals
   *     the write-backs still owed again (a slot that installed a plan must; every slot does, so
   *     an install costs no work the others do not)
   */
  TickPauses(StampedLock lock, Clock clock, long checkpointIntervalNanos, BooleanSupplier holdsTicks,
      Runnable afterSlot) {
    this.afterSlot = afterSlot;
    this.lock = lock;
    this.clock = clock;
    this.holdsTicks = holdsTicks;
    // at most a tenth of the interval in silence, however short the interval is set
    this.maxBudgetNanos = Math.max(1, checkpointIntervalNanos / 10);
    this.budgetNanos = Math.min(FIRST_BUDGET_NANOS, maxBudgetNanos);
    this.slotIntervalNanos = Math.max(1, Math.min(PLAN_SLOT_NANOS, checkpointIntervalNanos));
    this.checkpointEvery = Math.max(1, Math.round((double) checkpointIntervalNanos / slotIntervalNanos));
    this.nextSlotNanos = clock.nanoTime() + slotIntervalNanos;
    this.maxPlanBudgetNanos = Math.max(1, slotIntervalNanos / 100);
    this.planBudgetNanos = Math.min(FIRST_PLAN_BUDGET_NANOS, maxPlanBudgetNanos);
  }

  /**
   * The time between two slots, at most: a plan change waits up to this long (a cold start's
   * learned estimate, a deleted key's reweighting), and each slot costs the plan budget's silence.
   */
  static final long PLAN_SLOT_NANOS = TimeUnit.SECONDS.toNanos(1);
  /** The silence of a slot without a checkpoint before any was measured (at most a hundredth of the slot interval). */
  static final long FIRST_PLAN_BUDGET_NANOS = TimeUnit.MILLISECONDS.toNanos(4);

  /** What waits for a slot, in the order a slot runs it. */
  enum SlotWork {
    /** A plan's install: the next slot. */
    PLAN,
    /** A checkpoint (scheduled, or saving a new plan before its swaps): the next checkpoint slot. */
    CHECKPOINT
  }

  /**
   * Runs {@code task} with the phase write lock held in the next slot ({@code CHECKPOINT}: the next
   * checkpoint slot), and returns its result: while the emitter runs, the caller waits for that
   * slot (up to a slot interval, or a checkpoint interval); before it starts, after it stops, on
   * its own thread, or on one that runs a tick itself, at once.
   */
  <T> T runInSlot(Supplier<T> task, SlotWork work) {
    Pause<T> pause;
    synchronized (monitor) {
      checkNotAbandoned();
      if (!queuesForEmitter()) {
        pause = null;
      } else {
        pause = new Pause<>(task, work == SlotWork.CHECKPOINT);
        (work == SlotWork.PLAN ? slotPlans : slotCheckpoints).add(pause);
      }
    }
    return pause == null ? runHere(task) : awaitRun(pause);
  }

  /** True while {@link #runInSlot} from this thread would wait for a slot (the emitter runs, and this is not it). */
  boolean waitsForSlots() {
    synchronized (monitor) {
      return queuesForEmitter();
    }
  }

  /** True if the emitter runs the calling thread's pauses (guarded by {@link #monitor}). */
  private boolean queuesForEmitter() {
    return emitter != null && Thread.currentThread() != emitter && !holdsTicks.getAsBoolean();
  }

  /** True while the emitter runs the pauses (any thread may ask). */
  boolean emitterRuns() {
    synchronized (monitor) {
      return emitter != null;
    }
  }

  /** When the next slot is due, on the proxy's clock. */
  long nextSlotNanos() {
    return nextSlotNanos;
  }

  /** When the next checkpoint slot is due: the scheduled checkpoint gets ready before it. */
  long nextCheckpointSlotNanos() {
    synchronized (monitor) {
      long ahead = Math.floorMod(-nextSlotIndex, checkpointEvery); // slots until one whose number divides
      return nextSlotNanos + ahead * slotIntervalNanos;
    }
  }

  /** The time between two checkpoint slots. */
  long checkpointPeriodNanos() {
    return checkpointEvery * slotIntervalNanos;
  }

  /** The time between two slots. */
  long slotIntervalNanos() {
    return slotIntervalNanos;
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
      checkNotAbandoned();
      if (!queuesForEmitter()) {
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
    return pause == null ? runHere(task) : awaitRun(pause);
  }

  /** Runs {@code task} on the calling thread with the write lock held. */
  private <T> T runHere(Supplier<T> task) {
    long stamp = writeLockUnlessAbandoned();
    if (stamp == 0) {
      synchronized (monitor) {
        throw abandonedFailure();
      }
    }
    try {
      return task.get();
    } finally {
      lock.unlockWrite(stamp);
    }
  }

  /** Waits for the emitter to run {@code pause}; its failure is the caller's. */
  private static <T> T awaitRun(Pause<T> pause) {
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

  /**
   * The proxy closes while its emitter is stuck in a store call ({@link Proxy#close}): the pauses
   * waiting for it fail with {@code failure}, and so does every pause asked for from now on (run
   * on its caller, it would wait for the phase lock, which the tick in that call holds).
   */
  void abandon(RuntimeException failure) {
    List<Pause<?>> left;
    synchronized (monitor) {
      abandoned = failure;
      left = takeSlot(true);
      left.addAll(takeQueued());
      left.addAll(inHand);
    }
    for (Pause<?> p : left) {
      p.done.completeExceptionally(failure); // a pause the emitter runs later sees it done and skips it
    }
  }

  /** How often a wait for the write lock checks for {@link #abandon}. */
  private static final long ABANDON_CHECK_MILLIS = 50;

  /**
   * The write lock, or 0 once {@link #abandon}ed. It waits for the servings under way, and one stuck
   * in a store call holds it off for good: the wait goes in steps, each checking for the abandon
   * (a wait over a step is already longer than a slot's budget). Interrupts are kept, not obeyed,
   * as an uninterruptible lock's wait would.
   */
  private long writeLockUnlessAbandoned() {
    boolean interrupted = false;
    try {
      while (true) {
        try {
          long stamp = lock.tryWriteLock(ABANDON_CHECK_MILLIS, TimeUnit.MILLISECONDS);
          if (stamp != 0) {
            return stamp;
          }
        } catch (InterruptedException e) {
          interrupted = true;
        }
        synchronized (monitor) {
          if (abandoned != null) {
            return 0;
          }
        }
      }
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** True once {@link #abandon}ed. */
  boolean abandoned() {
    synchronized (monitor) {
      return abandoned != null;
    }
  }

  /** Throws once {@link #abandon}ed (guarded by {@link #monitor}). */
  private void checkNotAbandoned() {
    if (abandoned != null) {
      throw abandonedFailure();
    }
  }

  /** The failure of a pause asked for after {@link #abandon} (guarded by {@link #monitor}). */
  private PancakeException abandonedFailure() {
    return new PancakeException("the PANCAKE client was closed while a store call had not returned", abandoned);
  }

  /** From now on the pauses run on the calling thread, the emitter's, through {@link #runDue}. */
  void emitterStarted() {
    synchronized (monitor) {
      emitter = Thread.currentThread();
      // the slots count from the first tick: anchored at construction, their phase against the
      // calls would show how long the open took (a log replay's length)
      if (!withoutSlots) {
        nextSlotNanos = clock.nanoTime() + slotIntervalNanos;
        nextSlotIndex = 1;
      }
    }
  }

  /** The emitter stops (its thread, on its way out): it runs what was asked for, and callers run theirs from now on. */
  void emitterStopped() {
    List<Pause<?>> left;
    synchronized (monitor) {
      emitter = null;
      left = takeSlot(true);
      left.addAll(takeQueued());
      inHand = left;
    }
    if (!left.isEmpty()) {
      runAll(left, false);
    }
  }

  /**
   * Runs the pauses asked for since the last call (emitter thread, between two ticks, before its
   * next grid point {@code point}) and returns how long the ticks are to stay silent from that
   * point. A slot (the first point at or after its time) is silent for the checkpoint budget if it
   * is a checkpoint slot (or ran an application's checkpoint asked for at once), else for the plan
   * budget, whether or not anything waited for it; outside the slots, a padded pause gets the checkpoint budget, others none.
   */
  long runDue(long point) {
    boolean slot = point - nextSlotNanos >= 0;
    if (!pending && !slot) {
      return 0;
    }
    boolean checkpointSlot = false;
    int planCount = 0;
    List<Pause<?>> due;
    synchronized (monitor) {
      if (slot) {
        checkpointSlot = nextSlotIndex % checkpointEvery == 0;
        planCount = slotPlans.size();
        due = takeSlot(checkpointSlot);
        long next = nextSlotNanos;
        long index = nextSlotIndex;
        while (point - next >= 0) {
          next += slotIntervalNanos; // a slot the emitter was too busy for is not made up
          index++;
        }
        nextSlotNanos = next;
        nextSlotIndex = index;
        slotsRun++;
      } else {
        due = new ArrayList<>();
      }
      List<Pause<?>> now = takeQueued();
      atOnceRun += now.size();
      due.addAll(now);
      inHand = due;
    }
    if (due.isEmpty() && !slot) {
      return 0;
    }
    long start = clock.nanoTime();
    boolean padded = runAll(due, slot) | checkpointSlot;
    if (slot) {
      slotPlansRun += planCount;
      try {
        afterSlot.run();
      } catch (RuntimeException e) {
        // the next tick seals what is owed again itself, or fails the requests it serves
      }
    }
    long took = clock.nanoTime() - start; // the wait for the lock included
    if (padded) {
      long hold = budgetNanos;
      budgetNanos = raised(hold, took, maxBudgetNanos);
      return hold;
    }
    if (slot) {
      long hold = planBudgetNanos;
      planBudgetNanos = raised(hold, took, maxPlanBudgetNanos);
      return hold;
    }
    return 0;
  }

  /**
   * The next silence after a pause that took {@code took} under {@code budget}: twice its length on
   * a power-of-two step of nanoseconds if it outlasted half the budget, at most {@code max}.
   */
  private static long raised(long budget, long took, long max) {
    long clamped = Math.min(took, max);
    return 2 * clamped > budget ? Math.min(max, Long.highestOneBit(2 * clamped - 1) << 1) : budget;
  }

  /** True if a pause waits for the emitter (tests). */
  boolean pending() {
    return pending;
  }

  /** The silence of the next padded pause. */
  long budgetNanos() {
    return budgetNanos;
  }

  /** Slots the emitter ran (tests). */
  long slotsRun() {
    return slotsRun;
  }

  /** Plan installs run in slots, and pauses the emitter ran at once (not in a slot), since it started (tests). */
  long slotPlansRun() {
    return slotPlansRun;
  }

  long atOnceRun() {
    return atOnceRun;
  }

  /** The silence of the next slot without a checkpoint. */
  long planBudgetNanos() {
    return planBudgetNanos;
  }

  /** The pauses this slot runs, installs first; the scheduled checkpoints only if {@code checkpoints} (guarded by {@link #monitor}). */
  private List<Pause<?>> takeSlot(boolean checkpoints) {
    List<Pause<?>> out = new ArrayList<>(slotPlans);
    slotPlans.clear();
    if (checkpoints) {
      out.addAll(slotCheckpoints);
      slotCheckpoints.clear();
    }
    return out;
  }

  private List<Pause<?>> takeQueued() {
    List<Pause<?>> out = new ArrayList<>(queued);
    queued.clear();
    pending = false;
    return out;
  }

  /**
   * Runs {@code pauses} under one write lock, each completing its caller's future; true if one was
   * padded. {@code always}: takes the lock with none (a slot waits for the servings under way
   * whether or not anything waited for it).
   */
  private boolean runAll(List<Pause<?>> pauses, boolean always) {
    boolean padded = false;
    if (pauses.isEmpty() && !always) {
      return false;
    }
    long stamp = writeLockUnlessAbandoned();
    if (stamp == 0) {
      return false; // abandoned: these pauses have failed
    }
    try {
      for (Pause<?> p : pauses) {
        padded |= p.padded;
        p.runNow();
      }
    } finally {
      lock.unlockWrite(stamp);
      synchronized (monitor) {
        inHand = List.of();
      }
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
      if (done.isDone()) {
        return; // failed by abandon: its caller has moved on
      }
      try {
        done.complete(task.get());
      } catch (Throwable e) {
        done.completeExceptionally(e); // the caller's failure, not the emitter's
      }
    }
  }
}
