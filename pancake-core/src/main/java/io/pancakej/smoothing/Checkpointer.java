package io.pancakej.smoothing;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

import io.pancakej.StateException;
import io.pancakej.WalSync;

/**
 * Saves the {@link Proxy}'s state: on its own thread every {@code pancake.checkpoint.interval}, on
 * request, and at close unless the saved state is still current. A swapping plan is saved ahead of
 * its install on its own ({@link #saveAhead}), so its swaps need not wait for a checkpoint; one
 * that could not be ({@link #soon}) is saved by the next checkpoint while the emitter runs, else at
 * once. Each checkpoint starts a new write-ahead log file and deletes the older
 * ones once the sealed snapshot is saved. Close stops and joins the thread.
 */
final class Checkpointer implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger("io.pancakej");
  private final Proxy proxy;
  private final long intervalNanos;
  /** How long before its slot a scheduled checkpoint gets ready: a quarter of the interval, at most 250 ms. */
  private final long leadNanos;
  private final Thread thread;
  private final AtomicBoolean closed = new AtomicBoolean();
  private volatile boolean stopped;
  final LongAdder checkpoints = new LongAdder();
  /** Rehearsals run ({@link #rehearse}; tests). */
  final LongAdder rehearsals = new LongAdder();
  /** Set when a new plan waits to be saved (the checkpoint thread saves it at once if no emitter runs the slots). */
  private volatile boolean soon;
  /** One checkpoint at a time: a snapshot is saved before the next one is taken. */
  private final ReentrantLock lock = new ReentrantLock();
  /** The number of the last plan saved ahead ({@link #saveAhead}). */
  private final AtomicLong aheadSaved = new AtomicLong();
  /** The number of the last plan saved ahead that is installed (set in the slot that installs it). */
  private volatile long aheadInstalled;
  /** Plans saved ahead (tests). */
  final LongAdder plansSavedAhead = new LongAdder();
  /** The phase the state file holds (set by every checkpoint, and by a reopen that found it current). */
  private volatile Phase savedPhase;
  /**
   * Seals and saves the snapshots, at a low priority ({@link LowPriority}): the work of a
   * checkpoint that holds no lock the ticks need (but the log's monitor for a moment, in
   * {@code closeRetired}), and most of its CPU time. At the normal priority
   * it held the serving thread and the caller off their shared CPU for milliseconds, and the
   * emitter, waiting for that serving, skipped points: on the default path a trace of which labels
   * were read for real (results/timing/serving-wait). The snapshot itself is copied by the
   * emitter between two ticks ({@link TickPauses}), so the ticks never wait for a low-priority thread.
   */
  private final ExecutorService saver;
  /** Set once the saver runs (before that, and after close, snapshots are saved on the calling thread). */
  private volatile boolean saverStarted;
  /** The saver's Linux thread id, once it has lowered its priority (tests). */
  volatile long saverThreadId = -1;

  Checkpointer(Proxy proxy, Duration interval, ThreadFactory threads, ThreadFactory saveThreads) {
    this.proxy = proxy;
    this.intervalNanos = interval.toNanos();
    this.leadNanos = Math.min(intervalNanos / 4, TimeUnit.MILLISECONDS.toNanos(250));
    this.thread = threads.newThread(this::loop);
    this.saver = Executors.newSingleThreadExecutor(saveThreads);
  }

  /** Starts the scheduled checkpoints, and the saver thread from the calling thread (off the emitter's CPU). */
  void start() {
    try {
      saver.submit(() -> {
        if (LowPriority.lowerCurrentThread()) {
          saverThreadId = CorePinning.currentThreadId();
        } else {
          LOG.log(System.Logger.Level.INFO, "checkpoints are saved at the normal priority (no renice):"
              + " their work can delay the serving thread (docs/security.md, \"The callers a tick wakes\")");
        }
      }).get();
    } catch (ExecutionException e) {
      throw new StateException("cannot start the checkpoint saver: " + e.getCause(), e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new StateException("interrupted while starting the checkpoint saver", e);
    }
    saverStarted = true;
    thread.start();
  }

  /**
   * A new plan must be saved before its swaps run: while the emitter runs the slots, the next
   * scheduled checkpoint saves it; else the checkpoint thread takes one now.
   */
  void soon() {
    soon = true;
    LockSupport.unpark(thread);
  }

  /**
   * Saves the plan {@code t} swaps to, before it is installed, and marks {@code t} durable: its
   * swaps may reach the store from its install on. Runs on the planner, when the estimate arrives,
   * so the slot that installs it does no more than any plan slot. Returns the saved plan's number
   * (for {@link #installedAhead} or {@link #dropAhead}), or 0 if it could not be saved (logged; the
   * next checkpoint saves it, and the swaps wait for that).
   */
  long saveAhead(Transition t, long estimateSamples, String estimateSource) {
    long number = aheadSaved.incrementAndGet();
    try {
      proxy.stateDir.savePlan(number, SavedPlan.of(t, estimateSamples, estimateSource), proxy.masterKey,
          proxy.stateId);
    } catch (RuntimeException e) {
      LOG.log(System.Logger.Level.WARNING, "a new replica plan could not be saved ahead (its swaps wait for the next"
          + " checkpoint): " + e.getMessage());
      return 0;
    }
    plansSavedAhead.increment();
    t.markDurable();
    return number;
  }

  /** In the slot that installs the plan saved ahead as {@code number} (0: none): a checkpoint from now on holds it. */
  void installedAhead(long number) {
    if (number > 0) {
      aheadInstalled = number;
    }
  }

  /** A plan saved ahead as {@code number} was not installed (the plan changed first): it must not be applied at a reopen. */
  void dropAhead(long number) {
    if (number > 0) {
      try {
        proxy.stateDir.deletePlan(number); // only this one: those before it may be installed and not yet saved
      } catch (RuntimeException e) {
        // a reopen lets the later plan from the same layout win (Recovery): the warning is all
        LOG.log(System.Logger.Level.WARNING, "a replica plan saved ahead but not installed was not deleted: "
            + e.getMessage());
      }
    }
  }

  /** A reopen found saved plans up to {@code number} and applied them: the next checkpoint deletes them. */
  void resumeAheadAfter(long number) {
    aheadSaved.set(number);
    aheadInstalled = number;
  }

  /** Notes that the state file already holds {@code phase} (a reopen whose log was empty). */
  void savedAlready(Phase phase) {
    savedPhase = phase;
  }

  /** Snapshot of everything; the caller holds the phase write lock (in a pause of the ticks). */
  private ProxyState snapshotLocked() {
    Phase p = proxy.phase;
    ReplicaPlan plan = p.target;
    ProxyState.TransitionState t = null;
    if (p instanceof Transition tr) {
      t = new ProxyState.TransitionState(tr.from.estimate, tr.from.ownerOf, tr.from.indexOf, tr.pendingSlots());
    }
    return new ProxyState(proxy.storeDescription, proxy.stateId, plan.keySlots, proxy.codec.valueSize,
        proxy.codec.keySize, plan.estimate, plan.ownerOf, plan.indexOf, proxy.keys.snapshotKeys(),
        proxy.keys.freeOrder(), 0, proxy.cache.snapshot(), t, 0, proxy.cache.deletedSlots(), proxy.transitions.estimateSamples,
        proxy.transitions.estimateSource, keyEpochSnapshot());
  }

  /** The value key's epoch and reserved count, for the state file (the epoch file is the authority). */
  private ProxyState.KeyEpoch keyEpochSnapshot() {
    long[] e = proxy.aead.snapshot();
    return new ProxyState.KeyEpoch((int) e[0], e[1]);
  }

  /**
   * Persists the proxy state now (also done at close and on a fixed schedule). Ticks are held off
   * only while the snapshot is copied and a new log file opened, a pause the emitter runs between
   * two ticks and pads to a fixed silence ({@link TickPauses}); forcing the old file, sealing and
   * saving the snapshot and deleting older log files run outside the phase lock. A crash in
   * between leaves the previous checkpoint and every log file since, which replay together.
   * Records the log writer appends while the lock is held belong to values already in the
   * snapshot, so replaying them on top of it (from either file) changes nothing.
   */
  void checkpoint() {
    checkpoint(null);
  }

  /**
   * {@link #checkpoint}; the snapshot waits for the emitter's slot for {@code slot}
   * ({@link TickPauses#runInSlot}: its next checkpoint slot), after the plans installed in it, so
   * it saves them; null: now, padded.
   */
  private void checkpoint(TickPauses.SlotWork slot) {
    lock.lock();
    try {
      proxy.wal.prepareNextFile(); // its system calls here, not while the ticks are held off
      // a padded pause: the ticks stay silent for the same time whatever the snapshot's size
      java.util.function.Supplier<Cut> copy = () -> new Cut(snapshotLocked(), proxy.cache.unsettledTickets(),
          proxy.wal.rotate(), proxy.phase, aheadInstalled); // records from the rotation on go to the new file
      Cut cut = slot != null ? proxy.pauses.runInSlot(copy, slot) : proxy.pauses.run(copy, true);
      savedPhase = null; // until the save succeeds: a failed checkpoint is retried at close
      onSaver(() -> saveNow(cut.snapshot(), cut.walSequence(), cut.unsettled(), cut.plansSavedAhead()));
      savedPhase = cut.phase();
      checkpoints.increment();
      if (cut.phase() instanceof Transition t) {
        t.markDurable();
      }
    } finally {
      lock.unlock();
    }
  }

  /**
   * What a checkpoint takes while the ticks pause: the snapshot, the writes in it not yet in the
   * log, the first log file replayed on top of it, the phase it holds, and the last plan saved
   * ahead that it holds (installed).
   */
  private record Cut(ProxyState snapshot, List<LogTicket> unsettled, long walSequence, Phase phase,
      long plansSavedAhead) {
  }

  /**
   * Runs a checkpoint's path once before the clock starts, leaving the saved state and the log
   * alone: the copy on the real state, then the saver's work on a one-slot copy into a scratch file
   * ({@link ProxyState#rehearsal}). The first save loads classes and bootstraps call sites
   * (lambdas, streams, the sealing) while holding the JVM's class and compile locks; done by the
   * nice-19 saver while the ticks ran, preempted on a busy CPU, it held the emitter on those locks
   * for 30-270 ms (results/timing/off-slot-silences). A reopen still does not re-seal a current
   * state (a one-slot state is sealed in microseconds). A failure is logged: it fails no open.
   */
  void rehearse() {
    lock.lock();
    try {
      ProxyState copy = proxy.pauses.run(this::snapshotLocked, false); // no emitter yet: on this thread
      onSaver(() -> {
        lastSaveThreadId = CorePinning.currentThreadIdOrNone();
        proxy.wal.closeRetired();
        proxy.stateDir.rehearseSave(copy.rehearsal(), proxy.masterKey);
        WriteAheadLog.deleteBefore(proxy.stateDir.path(), 0); // lists the log files, deletes none
        proxy.stateDir.deletePlans(0); // lists the saved plans, deletes none (numbers start at 1)
      });
      rehearsals.increment();
    } catch (RuntimeException e) {
      LOG.log(System.Logger.Level.WARNING, "the rehearsal of a checkpoint at open failed (the checkpoints go on): "
          + e.getMessage(), e);
    } finally {
      lock.unlock();
    }
  }

  /** Stops the saver without a checkpoint (a start that failed before the checkpoints started). */
  void abandon() {
    stopSaver();
  }

  /** No save goes to the saver after this (under {@link #lock}: a save under way finishes first). */
  private void stopSaver() {
    lock.lock();
    try {
      saverStarted = false;
      saver.shutdown();
    } finally {
      lock.unlock();
    }
  }

  /**
   * Runs a save (the caller holds {@link #lock}): on the low-priority saver once it runs, waiting
   * for it through interrupts, so no save is left running once its checkpoint returns (close
   * releases the state directory after it).
   */
  private void onSaver(Runnable save) {
    java.util.concurrent.Future<?> done;
    try {
      done = saverStarted ? saver.submit(save) : null;
    } catch (java.util.concurrent.RejectedExecutionException stopped) {
      done = null;
    }
    if (done == null) {
      save.run();
      return;
    }
    boolean interrupted = false;
    try {
      while (true) {
        try {
          done.get();
          return;
        } catch (InterruptedException e) {
          interrupted = true;
        } catch (ExecutionException e) {
          if (e.getCause() instanceof RuntimeException r) {
            r.addSuppressed(new StateException("the checkpoint waiting for this save"));
            throw r;
          }
          if (e.getCause() instanceof Error err) {
            throw err;
          }
          throw new StateException("checkpoint not saved: " + e.getCause(), e.getCause());
        }
      }
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** The thread the last save ran on (tests). */
  volatile long lastSaveThreadId = -1;

  private void saveNow(ProxyState snap, long seq, List<LogTicket> unsettled, long plansSavedAhead) {
    lastSaveThreadId = CorePinning.currentThreadIdOrNone();
    // the snapshot holds values the log writer may still be appending to the old file: save it
    // only once they are in the log (the old file is deleted after the save), never if one failed
    for (LogTicket t : unsettled) {
      if (!t.awaitSettled(TimeUnit.SECONDS.toNanos(30))) {
        throw new StateException("checkpoint not saved: a write in it did not reach the write-ahead log"
            + (proxy.log.failure() == null ? " in time" : " (" + proxy.log.failure().getMessage() + ")"));
      }
    }
    proxy.wal.closeRetired();
    proxy.stateDir.save(snap.withWalSequence(seq), proxy.masterKey);
    WriteAheadLog.deleteBefore(proxy.stateDir.path(), seq);
    proxy.stateDir.deletePlans(plansSavedAhead); // the state file holds them now
  }

  /**
   * Checkpoints at close unless the saved state is still current: the log is on and empty (no
   * write, bind or free since the last checkpoint) and the phase is the steady one that checkpoint
   * saved (a transition's swap progress is always saved). What it leaves unsaved is bookkeeping a
   * reopen redoes: which replicas already hold an UpdateCache value (they are written again).
   */
  private void checkpointUnlessCurrent() {
    Phase phase = proxy.phase;
    if (proxy.wal.sync() == WalSync.OFF || proxy.wal.size() > 0 || phase != savedPhase
        || !(phase instanceof Phase.Steady)) {
      checkpoint();
    }
  }

  /**
   * Checkpoints in every checkpoint slot of the emitter ({@link TickPauses}: one each
   * {@code pancake.checkpoint.interval} of the proxy's clock), whether or not anything was
   * written: the snapshot's pause then falls on a schedule that says nothing about the requests.
   * The checkpoint gets ready (the log file it rotates to) {@link #leadNanos} before the slot; one
   * that is not ready by then joins the next. A new plan ({@link #soon}) is saved by the next
   * scheduled checkpoint while the emitter runs the slots, else at once: a checkpoint of its own
   * in a slot gave that slot the checkpoint budget's silence, and so dated the plan's swaps to the
   * second.
   */
  private void loop() {
    Clock clock = proxy.clock;
    long taken = Long.MIN_VALUE; // the checkpoint slot of the last scheduled checkpoint
    while (!stopped && proxy.isOpen()) {
      // the next checkpoint slot the emitter has not run yet (it moves when the emitter starts)
      long slot = proxy.pauses.nextCheckpointSlotNanos();
      if (taken != Long.MIN_VALUE && slot - taken <= 0) {
        slot = taken + proxy.pauses.checkpointPeriodNanos(); // no emitter runs the slots: the schedule's next
      }
      long wait = slot - leadNanos - clock.nanoTime();
      if (wait > 0 && !soon) {
        // soon() and close() unpark it; it looks again on waking (the emitter's start moves the slots later)
        clock.park(wait);
        continue;
      }
      boolean scheduled = wait <= 0;
      soon = false;
      if (!scheduled && (savedPhase == proxy.phase || proxy.pauses.waitsForSlots())) {
        // saved already, or the next scheduled checkpoint saves it: nothing here may depend on
        // when the plan changed (not even preparing the next log file)
        continue;
      }
      try {
        checkpoint(TickPauses.SlotWork.CHECKPOINT);
      } catch (RuntimeException e) {
        // the log still holds everything; the next attempt or close retries
        LOG.log(System.Logger.Level.WARNING, "checkpoint failed (retried on schedule and at close): "
            + e.getMessage());
      }
      if (scheduled) {
        taken = slot;
      }
    }
  }

  /**
   * Stops the checkpoint thread, waits for it (at most 30 s: a checkpoint under way finishes), then
   * checkpoints unless the saved state is still current. Idempotent.
   */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    stopThread();
    try {
      checkpointUnlessCurrent();
    } finally {
      stopSaver();
      awaitTermination(saver); // an interrupted close still waits: the state directory is released after it
    }
  }

  /**
   * Stops the scheduled checkpoints without a last one: the proxy closes while a store call has not
   * returned ({@link Proxy#close}), whose thread holds what a checkpoint's copy needs. A reopen
   * recovers from the last checkpoint and the log.
   */
  void closeWithoutCheckpoint() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    stopThread();
    stopSaver();
    awaitTermination(saver);
  }

  /** Waits, without a limit, for the thread and the saver to end (after {@link #closeWithoutCheckpoint}). */
  void awaitStopped() throws InterruptedException {
    thread.join();
    saver.awaitTermination(Long.MAX_VALUE, TimeUnit.NANOSECONDS);
  }

  private void stopThread() {
    stopped = true;
    LockSupport.unpark(thread);
    try {
      thread.join(TimeUnit.SECONDS.toMillis(30));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Waits up to 30 s for a shut-down executor's tasks, through interrupts (the flag is kept). */
  static void awaitTermination(ExecutorService executor) {
    boolean interrupted = false;
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (!executor.isTerminated() && deadline - System.nanoTime() > 0) {
      try {
        executor.awaitTermination(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }
}
