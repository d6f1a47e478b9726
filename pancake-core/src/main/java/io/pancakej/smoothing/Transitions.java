package io.pancakej.smoothing;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Moves the {@link Proxy} from one replica plan to the next (paper section 5.1): a new estimate
 * from the {@link Estimator} or a declared distribution becomes a new plan, in the emitter's next
 * slot while it runs ({@link TickPauses}), when no replica changes hands, else a swapping
 * {@link Transition} that the ticks carry out; estimates that arrive meanwhile wait for it. Slots
 * freed by deletes are dropped from the estimate. Owns the estimate in force: how many accesses it
 * was learned from and where it came from.
 */
final class Transitions {
  private static final System.Logger LOG = System.getLogger("io.pancakej");
  private final Proxy proxy;
  /** The largest tick, used for the swaps finished before the first request. */
  private final int maxBatchesPerTick;
  /** Transitions started since open. */
  private final AtomicLong started = new AtomicLong();
  /** Accesses the estimate in force was learned from; {@link Estimator#EXACT} declared, {@link Estimator#ASSUMED} no prior. */
  volatile long estimateSamples;
  /** Where the estimate in force came from, in words (printed by the YCSB binding, saved with the state). */
  volatile String estimateSource;
  /** An estimate that waits for the transition under way to finish. */
  private record NextEstimate(double[] estimate, long samples, String source) {}

  private NextEstimate afterTransition;
  /** Key slots freed since the estimate last dropped them (their real probability goes elsewhere). */
  private final ConcurrentLinkedQueue<Integer> freedSlots = new ConcurrentLinkedQueue<>();
  private final AtomicBoolean reweighting = new AtomicBoolean();
  /** True while a reweighting waits on the planner (one at a time: it drops every slot freed until it starts). */
  private final AtomicBoolean reweightPlanned = new AtomicBoolean();
  /**
   * Builds and installs the plans while the emitter runs, one at a time: an install waits for the
   * emitter's next slot ({@link TickPauses#runInSlot}), so the threads that ask for a plan change
   * (the log writer, a request's, the emitter at a transition's last swap) never wait for it.
   */
  private final ThreadPoolExecutor planner;
  /** Held by {@link #start} from its plan's save to its install. */
  private final ReentrantLock planning = new ReentrantLock();

  Transitions(Proxy proxy, int maxBatchesPerTick, long estimateSamples, String estimateSource,
      ThreadFactory plannerThreads) {
    this.proxy = proxy;
    this.maxBatchesPerTick = maxBatchesPerTick;
    this.estimateSamples = estimateSamples;
    this.estimateSource = estimateSource;
    this.planner = new ThreadPoolExecutor(1, 1, 0, TimeUnit.NANOSECONDS, new LinkedBlockingQueue<>(), plannerThreads);
  }

  /** Starts the planner's thread (from the opening thread: off the emitter's CPU). */
  void startPlanner() {
    planner.prestartAllCoreThreads();
  }

  /**
   * Stops the planner after the emitter stopped (its installs waiting for a slot have run, later
   * ones run at once): the plan changes asked for so far are done when this returns, at most 30 s.
   */
  void closePlanner() {
    planner.shutdown();
    Checkpointer.awaitTermination(planner);
  }

  /** Waits, without a limit, for the planner to end (after {@link #closePlanner} gave up on it). */
  void awaitPlannerStopped() throws InterruptedException {
    planner.awaitTermination(Long.MAX_VALUE, TimeUnit.NANOSECONDS);
  }

  /**
   * Runs a plan change on the planner while the emitter runs its slots, else on the calling thread
   * (at open, after close began, in tests that tick by hand); the future ends with it.
   */
  private CompletableFuture<Void> plan(Runnable change) {
    if (proxy.pauses.emitterRuns()) {
      try {
        return CompletableFuture.runAsync(() -> {
          try {
            change.run();
          } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "a plan change failed: " + e.getMessage());
            throw e;
          }
        }, planner);
      } catch (RejectedExecutionException closed) {
        // the planner stopped: the change runs here
      }
    }
    change.run();
    return CompletableFuture.completedFuture(null);
  }

  /**
   * Key slots of the plan {@link #rehearse} changes, at most: enough for the loops of the plan's
   * build to get compiled, as a first plan change at 2 000 keys otherwise runs them interpreted
   * (about 40 ms of the planner's CPU at open; results/timing/plan-rehearsal).
   */
  static final int REHEARSAL_SLOTS = 4096;
  /** Rehearsals that ran to the end ({@link #rehearse}; tests). */
  volatile int rehearsals;

  /**
   * Runs the planner's path once on its thread before the clock starts, on a plan that is not the
   * proxy's (as many key slots as the proxy's, 64 to {@link #REHEARSAL_SLOTS}): a successor with
   * swaps, its transition, the save ahead into a scratch file deleted after, and the change test's
   * library call. Done for the first time while the ticks ran, that work loaded classes and ran
   * interpreted on the CPU the serving thread and the callers share, and the grid missed points
   * while the first plan was built that it did not miss for the next (results/timing/plan-rehearsal).
   * Nothing here touches the store, the phase or the saved state; a failure is logged and fails
   * no open.
   */
  void rehearse() {
    try {
      CompletableFuture.runAsync(this::rehearseNow, planner).join();
      rehearsals++;
    } catch (RuntimeException e) {
      if (e.getCause() instanceof Error error) {
        throw error; // out of memory, say: not a rehearsal's failure to shrug off
      }
      LOG.log(System.Logger.Level.WARNING, "the rehearsal of a plan change at open failed (plan changes go on): "
          + e.getMessage(), e);
    }
  }

  private void rehearseNow() {
    java.util.random.RandomGenerator random = new java.util.SplittableRandom();
    int slots = Math.max(64, Math.min(REHEARSAL_SLOTS, proxy.phase.target.keySlots));
    double[] from = new double[slots];
    double[] to = new double[slots];
    for (int k = 0; k < slots; k++) {
      // two zipf(1) estimates in opposite orders: keys gain replicas and others lose some, so the
      // successor has swaps of both kinds (either needs fewer than 2n replicas)
      from[k] = 1.0 / (slots - k);
      to[k] = 1.0 / (k + 1);
    }
    ReplicaPlan current = ReplicaPlan.build(from, random);
    ReplicaPlan.Successor next = current.successor(to, random);
    Transition t = new Transition(current, next.plan(), next.swaps());
    proxy.stateDir.rehearseSavePlan(SavedPlan.of(t, slots, "a rehearsal at open"), proxy.masterKey,
        proxy.stateId);
    Estimator.rehearseTest();
  }

  /** Transitions started since open. */
  long count() {
    return started.get();
  }

  /** A key slot was freed: the next {@link #dropFreedSlots} takes it out of the estimate. */
  void freed(int slot) {
    freedSlots.add(slot);
  }

  /**
   * A swap that is under way when the proxy opens -- towards a declared distribution that differs
   * from the saved estimate, or saved by an earlier process -- is finished before the first
   * request: while it runs real accesses are rare (delta' = 1/(2n alpha')), so requests would crawl
   * (measured: 4 requests/s for 75 s on YCSB C at 10^4 records). With no request to hide, it is done
   * by two sweeps over every replica slot, each in a fresh random order, in ticks of the largest
   * size sent back to back before the clock starts: the first reads a stable replica of every key
   * that gains replicas (its value is cached for the swaps, as a tick's read caches it) and swaps
   * what it can, the second finds every value at hand and swaps the rest. Every label is read and
   * written exactly twice, whatever the plans, so the store learns that the proxy swept at open and
   * nothing of which slots changed owner; drawing ticks as requests' ticks are drawn instead took
   * about ln(swaps) times as many accesses (a coupon collector's tail: 32.7 s for 40 913 swaps at
   * 10^5 keys). The transition is finished only after the last sweep's tick (a plan change between
   * two sweep calls would delay the next at a point that depends on the plans); a transition that
   * starts as one finishes (an estimate that waited, slots freed since the last checkpoint) gets
   * sweeps of its own. A swap the sweeps could not finish (a damaged replica whose value never
   * comes) goes on in ordinary ticks, bounded, then with the requests; a sweep tick that fails ends
   * the sweeps (the warning says so).
   */
  void finishBeforeServing() {
    if (!(proxy.phase instanceof Transition)) {
      return;
    }
    long started = proxy.clock.nanoTime();
    int total = 0;
    int rounds = 0;
    RuntimeException failure = null;
    // finishing one transition can start the next (an estimate that waited, slots freed since the
    // last checkpoint): each gets its own sweeps, a few at most
    while (failure == null && rounds < MAX_SWEPT_TRANSITIONS && proxy.phase instanceof Transition t) {
      saveBeforeSwapping(t);
      total += t.remainingSwaps();
      rounds++;
      try {
        sweep(t.remainingSwaps(), started);
        proxy.runner.flush(); // the write-backs still owed: their swaps count once stored; then the finish
      } catch (RuntimeException e) {
        failure = e;
      }
      if (proxy.phase == t) {
        break; // the sweeps could not finish it (a damaged replica's value): ordinary ticks below
      }
    }
    long ticks = 0;
    if (failure == null) {
      // every slot is touched about once per 2n/B batches: a swap that made no progress for ten
      // times that is waiting for something batches cannot bring (a damaged replica's value)
      long stall = 10L * proxy.phase.target.replicaSlots / ((long) proxy.batchSize * maxBatchesPerTick) + 1_000;
      long lastProgress = 0;
      int lastRemaining = -1;
      while (proxy.phase instanceof Transition t) {
        saveBeforeSwapping(t);
        int left = t.remainingSwaps();
        if (left != lastRemaining) {
          lastRemaining = left;
          lastProgress = ticks;
        } else if (ticks - lastProgress > stall) {
          break;
        }
        try {
          proxy.runner.tick(maxBatchesPerTick);
        } catch (RuntimeException e) {
          failure = e;
          break;
        }
        ticks++;
      }
    }
    try {
      proxy.runner.flush();
    } catch (RuntimeException e) {
      failure = failure == null ? e : failure;
    }
    double seconds = (proxy.clock.nanoTime() - started) / 1e9;
    if (proxy.phase instanceof Transition t) {
      LOG.log(System.Logger.Level.WARNING, String.format("%d of %d replica swaps done at open in %.1f s; the rest"
          + " continue with the requests%s", total - t.remainingSwaps(), total, seconds,
          failure == null ? "" : " (" + failure.getMessage() + ")"));
    } else if (failure != null) {
      LOG.log(System.Logger.Level.WARNING, String.format("replica swaps done at open in %.1f s, but a sweep failed: %s",
          seconds, failure.getMessage()));
    } else if (seconds >= 1) {
      LOG.log(System.Logger.Level.INFO, String.format("%d replica swaps done at open in %.1f s (%s%s)", total,
          seconds, rounds == 1 ? "two sweeps" : rounds + " transitions of two sweeps each",
          ticks == 0 ? "" : " and " + ticks + " ticks"));
    }
  }

  /** No swap reaches the store before the plan it serves is saved (the checkpoint thread is not running yet). */
  private void saveBeforeSwapping(Transition t) {
    if (!t.isDurable()) {
      proxy.checkpointer.checkpoint();
    }
  }

  /** Transitions swept at one open before the rest is left to ordinary ticks. */
  static final int MAX_SWEPT_TRANSITIONS = 3;

  /** The two sweeps of {@link #finishBeforeServing}; a store failure ends them (thrown). */
  private void sweep(int total, long started) {
    int slots = proxy.phase.target.replicaSlots;
    int tickSize = proxy.batchSize * maxBatchesPerTick;
    java.util.random.RandomGenerator rnd = proxy.random.get();
    long lastReport = started;
    for (int pass = 1; pass <= SWEEPS; pass++) {
      int[] order = ReplicaPlan.shuffled(slots, rnd);
      for (int from = 0; from < slots; from += tickSize) {
        proxy.runner.sweep(java.util.Arrays.copyOfRange(order, from, Math.min(slots, from + tickSize)));
        long now = proxy.clock.nanoTime();
        if (now - lastReport > 2_000_000_000L) {
          lastReport = now;
          int left = proxy.phase instanceof Transition t ? t.remainingSwaps() : 0;
          LOG.log(System.Logger.Level.INFO, String.format("swapping replicas before the first request: sweep %d of"
              + " %d, %d of %d slots; %d of %d swaps done (%.1f s)", pass, SWEEPS, Math.min(slots, from + tickSize),
              slots, total - left, total, (now - started) / 1e9));
        }
      }
    }
  }

  /** Sweeps over every replica slot at open: the first brings every value a swap needs, the second swaps. */
  static final int SWEEPS = 2;

  /** The estimator's new estimate: a detected change, or a refinement of a learned estimate. */
  void onEstimate(double[] newEstimate, long samples, boolean detected) {
    if (proxy.isOpen()) {
      String source = detected
          ? "learned: a change was detected, estimate from the last " + samples + " gets, updates and deletes"
          : "learned from " + samples + " gets, updates and deletes";
      // the estimator waits until the plan is in force: it then tests its next windows against it
      plan(() -> start(newEstimate, samples, source)).exceptionally(e -> null).join();
    }
  }


  /**
   * A freed slot's key is gone, so the real accesses the estimate gives it now go to the other
   * keys: without a new plan its replicas would go quiet together (a deleted hot key's R(k)
   * labels at once). The estimate drops freed slots and is renormalized; when every key still has
   * enough replicas this is a new plan on the same layout at once, otherwise a swapping
   * transition. During a transition it waits until the transition finishes.
   */
  void dropFreedSlots() {
    if (freedSlots.isEmpty() || !(proxy.phase instanceof Phase.Steady) || !reweightPlanned.compareAndSet(false, true)) {
      return; // during a transition the slots wait (finish calls this again); a planned one takes them
    }
    plan(() -> {
      reweightPlanned.set(false); // slots freed from now on wait for this one, or plan the next
      dropFreedSlotsNow();
    });
  }

  /** {@link #dropFreedSlots} on the planner (or at once, without the emitter). */
  private void dropFreedSlotsNow() {
    if (freedSlots.isEmpty() || !(proxy.phase instanceof Phase.Steady) || !reweighting.compareAndSet(false, true)) {
      return;
    }
    NextEstimate needsSwaps = null;
    List<Integer> polled = new ArrayList<>();
    ReplicaPlan installed = null;
    try {
      Phase seen = proxy.phase;
      if (!(seen instanceof Phase.Steady) || !proxy.isOpen()) {
        return;
      }
      // the new plan is built outside the phase lock (O(n)); installing it is a pointer swap
      double[] estimate = seen.target.estimate.clone();
      double dropped = 0;
      Integer slot;
      while ((slot = freedSlots.poll()) != null) {
        polled.add(slot);
        if (proxy.keys.keyOf(slot) == null && estimate[slot] > 0) {
          dropped += estimate[slot];
          estimate[slot] = 0;
        }
      }
      if (dropped == 0 || dropped >= 1 - 1e-12) {
        return; // nothing changed, or no key is left to carry the accesses (any plan is uniform then)
      }
      String source = estimateSource.endsWith(", minus deleted keys") ? estimateSource
          : estimateSource + ", minus deleted keys";
      ReplicaPlan same = seen.target.reweighted(estimate);
      if (same == null) {
        needsSwaps = new NextEstimate(estimate, estimateSamples, source);
      } else {
        boolean done = proxy.pauses.runInSlot(() -> {
          if (proxy.phase != seen) {
            return false;
          }
          proxy.phase = new Phase.Steady(same);
          estimateSource = source;
          return true;
        }, TickPauses.SlotWork.PLAN);
        if (!done) {
          freedSlots.addAll(polled); // a plan change came first: the slots wait for the next call
          return;
        }
        installed = same;
      }
    } finally {
      reweighting.set(false);
    }
    if (installed != null && proxy.estimator != null) {
      proxy.estimator.reweight(installed.estimate); // the window under way goes on
    }
    if (needsSwaps != null) {
      start(needsSwaps.estimate(), needsSwaps.samples(), needsSwaps.source());
    }
  }

  /**
   * Moves to a plan for {@code newEstimate} (paper section 5.1), learned from {@code samples}
   * accesses ({@link Estimator#EXACT}: declared) and described by {@code source}: at once if no
   * replica changes hands, else by starting a swapping transition. During a transition the
   * estimate waits until it finishes. Returns true if a transition started.
   */
  boolean start(double[] newEstimate, long samples, String source) {
    // one start at a time from its plan's save to its install, on any thread (the planner's, or at
    // open a sweep's finish and the log writer's reweighting): a plan saved ahead and dropped is
    // then always older than the plan from the same layout that replaced it (SavedPlan.resume)
    planning.lock();
    try {
      return startLocked(newEstimate, samples, source);
    } finally {
      planning.unlock();
    }
  }


  private boolean startLocked(double[] newEstimate, long samples, String source) {
    while (true) {
      Phase seen = proxy.phase;
      if (seen instanceof Transition) {
        boolean waits = proxy.pauses.runInSlot(() -> {
          if (proxy.phase instanceof Transition) {
            afterTransition = new NextEstimate(newEstimate, samples, source);
            return true;
          }
          return false;
        }, TickPauses.SlotWork.PLAN);
        if (waits) {
          return false;
        }
        continue;
      }
      // the successor plan is built outside the phase lock (O(n)): the ticks pause only while it
      // is installed and the UpdateCache re-expressed in its indices
      double[] estimate = newEstimate;
      if (samples > 0) {
        // a learned estimate counts accesses to keys deleted since: their slots carry nothing now
        double[] live = newEstimate.clone();
        double left = 0;
        for (int s = 0; s < live.length; s++) {
          if (proxy.keys.keyOf(s) == null) {
            live[s] = 0;
          }
          left += live[s];
        }
        if (left > 0) {
          estimate = live;
        }
      }
      ReplicaPlan current = seen.target;
      ReplicaPlan.Successor next = current.successor(estimate, proxy.random.get());
      Transition t = next.swaps().length == 0 ? null : new Transition(current, next.plan(), next.swaps());
      // no swap may reach the store before its plan is durable: saved here, before the slot, its
      // swaps start at the install (and that slot does no more than any other)
      long savedAhead = t == null ? 0 : proxy.checkpointer.saveAhead(t, samples, source);
      List<Integer> deleted = proxy.pauses.runInSlot(() -> {
        if (proxy.phase != seen) {
          return null;
        }
        estimateSamples = samples;
        estimateSource = source;
        if (t == null) {
          proxy.phase = new Phase.Steady(next.plan());
          return List.<Integer>of();
        }
        List<Integer> freed = proxy.cache.retarget(t);
        proxy.phase = t;
        proxy.checkpointer.installedAhead(savedAhead);
        started.incrementAndGet();
        return freed;
      }, TickPauses.SlotWork.PLAN);
      if (deleted == null) {
        proxy.checkpointer.dropAhead(savedAhead);
        continue; // the plan changed meanwhile: build again from the new one
      }
      if (proxy.estimator != null) {
        proxy.estimator.adopt(next.plan().estimate, samples);
        proxy.estimator.pause(t != null);
      }
      if (t == null) {
        return false;
      }
      if (!t.isDurable()) {
        // not saved ahead: no swap reaches the store (writeBack) until a checkpoint saved the plan,
        // the next checkpoint slot's (at once without the emitter); meanwhile the transition's
        // sampling already smooths towards the new estimate
        proxy.checkpointer.soon();
      }
      for (int slot : deleted) {
        proxy.freeIfUnused(slot);
      }
      return true;
    }
  }

  /**
   * The last swap of the transition in force is stored: steady on its plan, in the next slot
   * (meanwhile the transition's ticks already sample as the steady plan does, {@link Transition#sampling}).
   */
  void finish() {
    plan(this::finishNow);
  }

  private void finishNow() {
    NextEstimate waiting = proxy.pauses.runInSlot(() -> {
      if (!(proxy.phase instanceof Transition t) || t.remainingSwaps() != 0) {
        return null;
      }
      proxy.phase = new Phase.Steady(proxy.phase.target);
      NextEstimate next = afterTransition;
      afterTransition = null;
      if (proxy.estimator != null && next == null) {
        proxy.estimator.pause(false);
      }
      return next;
    }, TickPauses.SlotWork.PLAN);
    if (waiting != null) {
      start(waiting.estimate(), waiting.samples(), waiting.source());
    }
    dropFreedSlotsNow();
  }
}
