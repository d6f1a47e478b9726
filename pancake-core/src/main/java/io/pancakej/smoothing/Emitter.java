package io.pancakej.smoothing;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;

import io.pancakej.PancakeConfig;

/**
 * Sends ticks on the clock. Tick times lie on a grid: the points {@code origin + j x period} of the
 * current tick rate, from one origin taken when the emitter starts (a level change never
 * re-anchors it). A tick that cannot start on its grid point (the thread woke late, or the tick
 * before ran past it) waits for the next point: a call leaves only at a grid point, whatever the
 * ticks before it served, wrote or cost ({@code EmitterGridTest}, on a simulated clock). Requests
 * wait in the queue for the next tick. The levels move once per window from the number of requests
 * that arrived and how busy the emitter and the serving thread were ({@link EmissionRate}): when
 * they cannot keep up, the same batches go out in fewer, larger ticks, which the store learns as a
 * coarse aggregate.
 */
final class Emitter implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger("io.pancakej");
  /** The length of a rate window. */
  static final long WINDOW_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

  private final Ticks runner;
  private final Clock clock;
  private final EmissionRate rate;
  private final LongSupplier requests;
  private final java.util.function.BooleanSupplier crawling;
  private final Thread thread;
  private volatile boolean running = true;
  private volatile long late;
  private volatile long ticks;
  private volatile long behindTicks;
  /** The CPU the emitter is to have to itself, or {@code PancakeConfig.EMITTER_CPU_AUTO} or {@code _NONE}. */
  private final int cpu;
  /** The CPU it holds (-1: none; written before the thread's latch opens). */
  private volatile int heldCpu = -1;
  /** The emitter's Linux thread id, published by its thread before its clock starts (pinned emitters). */
  private final CompletableFuture<Long> threadId = new CompletableFuture<>();
  private final CountDownLatch go = new CountDownLatch(1);
  /** The pauses it runs between two ticks (null: none, in tests of the grid alone). */
  private final TickPauses pauses;
  /** Grid points left silent for padded pauses (not counted as missed). */
  private volatile long pausedPoints;

  Emitter(Ticks runner, EmissionRate rate, LongSupplier requests, ThreadFactory threads, Clock clock) {
    this(runner, rate, requests, threads, clock, PancakeConfig.EMITTER_CPU_NONE, null, () -> false);
  }

  Emitter(Ticks runner, EmissionRate rate, LongSupplier requests, ThreadFactory threads, Clock clock, int cpu,
      TickPauses pauses) {
    this(runner, rate, requests, threads, clock, cpu, pauses, () -> false);
  }

  /** {@code crawling}: whether the ticks sample a swap's crawl (the levels are held then, {@link EmissionRate}). */
  Emitter(Ticks runner, EmissionRate rate, LongSupplier requests, ThreadFactory threads, Clock clock, int cpu,
      TickPauses pauses, java.util.function.BooleanSupplier crawling) {
    this.crawling = crawling;
    this.runner = runner;
    this.pauses = pauses;
    this.clock = clock;
    this.rate = rate;
    this.requests = requests;
    this.thread = threads.newThread(this::loop);
    this.cpu = cpu;
  }

  /**
   * Gives the emitter its CPU, if it is to have one ({@link CorePinning}): its thread starts and
   * waits for {@link #start}. Called before any other proxy thread starts, so none is created by a
   * thread on that CPU. An explicit CPU that cannot be had fails here, with the thread ended and
   * nothing moved; {@code auto} then goes on without one and says so.
   */
  void takeCpu() {
    if (cpu == PancakeConfig.EMITTER_CPU_NONE) {
      return;
    }
    thread.start();
    try {
      long tid = threadId.join();
      if (cpu >= 0) {
        CorePinning.reserve(cpu, tid);
        heldCpu = cpu;
        return;
      }
      String[] why = new String[1];
      heldCpu = CorePinning.reserveAny(tid, why);
      if (heldCpu < 0) {
        warnNoCpu(why[0]);
      }
    } catch (RuntimeException e) {
      if (cpu >= 0) {
        running = false;
        go.countDown();
        if (awaitEnd()) {
          Thread.currentThread().interrupt();
        }
        throw e instanceof CompletionException && e.getCause() instanceof RuntimeException r ? r : e;
      }
      warnNoCpu(e.getMessage());
    }
  }

  private static void warnNoCpu(String why) {
    LOG.log(System.Logger.Level.WARNING, PancakeConfig.EMITTER_CPU_PROPERTY + "=auto: the emitter has no CPU of its own"
        + " (" + why + "): the timing of its calls can show how many callers a tick woke"
        + " (docs/security.md, \"The callers a tick wakes\")");
  }

  void start() {
    if (cpu == PancakeConfig.EMITTER_CPU_NONE) {
      thread.start();
    }
    go.countDown();
  }

  /** The CPU the emitter has to itself, or -1. */
  int cpu() {
    return heldCpu;
  }

  /** True on the emitter's own thread (where a merge function runs). */
  boolean isEmitterThread() {
    return Thread.currentThread() == thread;
  }

  /** Batches per second at the current level. */
  double batchesPerSecond() {
    return rate.batchesPerSecond();
  }

  /** Grid points missed because the previous tick ran past them, the thread woke late, or the serving a tick's call carries ended past them. */
  long lateTicks() {
    return late;
  }

  long ticks() {
    return ticks;
  }

  /** Grid points left silent for the checkpoints' pauses, within their budget ({@link TickPauses}). */
  long pausedPoints() {
    return pausedPoints;
  }

  /** Ticks sent while the serving was two or more ticks behind (the levels count them as missed points). */
  long behindTicks() {
    return behindTicks;
  }

  private void loop() {
    try {
      run();
    } catch (RuntimeException e) {
      if (running || pauses == null || !pauses.abandoned()) {
        throw e;
      }
      // a store call that returned after close gave up on it met the closed proxy
    } finally {
      if (pauses != null) {
        pauses.emitterStopped(); // the pauses asked for meanwhile run here; later ones on their callers
      }
    }
  }

  private void run() {
    if (cpu != PancakeConfig.EMITTER_CPU_NONE) {
      try {
        threadId.complete(CorePinning.currentThreadId());
      } catch (RuntimeException e) {
        threadId.completeExceptionally(e); // an explicit CPU fails the open; auto goes on without one
      }
      try {
        go.await();
      } catch (InterruptedException e) {
        return;
      }
      if (heldCpu >= 0) {
        CorePinning.markHolder();
      }
    }
    if (pauses != null) {
      pauses.emitterStarted(); // from its first tick on (not while a pinned thread waits for start)
    }
    long origin = clock.nanoTime();
    long next = origin;
    int missed = 0;
    long servedBefore = runner.servingNanos();
    while (running) {
      // a checkpoint's snapshot or a plan's install, here between two ticks: a long one costs the
      // points it outlasts, as a long tick does, never a call sent late; the slots, on a schedule of
      // the clock alone, are silent for the budget whether or not anything waited for them
      long silence = pauses == null ? 0 : pauses.runDue(next);
      runner.awaitSendable();
      long now = clock.nanoTime();
      if (silence > 0) {
        // a padded pause leaves the same points silent however long it took within its budget
        long period = period();
        long resume = next + silence;
        long first = pointAfter(resume - 1, origin, period); // the first point at or after it
        pausedPoints += (first - next) / period;
        next = first;
      }
      if (now > next && ticks > 0) {
        // the serving the call waits for ended past its point: skip to the next one, never send late
        long period = period();
        long following = pointAfter(now, origin, period);
        int skipped = (int) ((following - next) / period);
        missed += skipped;
        late += skipped;
        next = following;
      }
      // a serving two ticks behind counts as a missed point for the levels, not for the grid (asked
      // before the wait: the time from the point to the call must not depend on it)
      int behind = runner.servingBehind() ? 1 : 0;
      if (!waitUntil(next)) {
        if (!running) {
          break;
        }
        continue; // a pause was asked for meanwhile: it runs now, before this point
      }
      behindTicks += behind;
      try {
        runner.send(rate.batchesPerTick());
      } catch (Throwable e) {
        // the requests it served have been failed with this error; keep the schedule
      }
      ticks++;
      now = clock.nanoTime();
      long served = runner.servingNanos();
      // the wait for the call's release time is not work: the levels see the tick's work alone
      rate.onTick(now, requests.getAsLong(), missed + behind, now - next - runner.lastReleaseWaitNanos(),
          served - servedBefore, crawling.getAsBoolean());
      servedBefore = served;
      long period = period();
      // the next point of the global grid after now (a late tick's point is not sent late: skipped)
      long following = pointAfter(now, origin, period);
      missed = (int) Math.max(0, (following - next) / period - 1);
      late += missed;
      next = following;
    }
  }

  /** The tick period at the current levels. */
  private long period() {
    return (long) (1e9 / rate.ticksPerSecond());
  }

  /** The first point of the grid {@code origin + j x period} after {@code now}. */
  private static long pointAfter(long now, long origin, long period) {
    return origin + ((now - origin) / period + 1) * period;
  }

  /**
   * Waits until {@code deadline}: parks until the typical oversleep before it (parking on Linux
   * wakes some 50-100 us late), then yields the core until the point, so calls leave on their grid
   * points rather than a scheduler's delay after them, without holding a core other threads need.
   * Returns false, before the point, if the emitter stops or a pause is asked for (a pause then
   * runs at once rather than a period later; its caller unparks the emitter).
   */
  private boolean waitUntil(long deadline) {
    long wait;
    while (running && (wait = deadline - clock.nanoTime()) > oversleep) {
      if (pauses != null && pauses.pending()) {
        return false;
      }
      long asked = wait - oversleep;
      long before = clock.nanoTime();
      clock.park(asked);
      if (pauses != null && pauses.pending()) {
        return false; // woken early for it: no oversleep to learn from
      }
      long over = clock.nanoTime() - before - asked;
      if (over >= 0) {
        // a running estimate of the oversleep, at most a millisecond (a park that returned early --
        // the permit a pause's unpark left while the emitter was not parked -- says nothing of it)
        oversleep = Math.min(MAX_OVERSLEEP, (7 * oversleep + over) / 8);
      }
    }
    while (running && clock.nanoTime() < deadline) {
      if (pauses != null && pauses.pending()) {
        return false;
      }
      clock.pause(); // the rest is shorter than a park would take: hand the core over meanwhile
    }
    return running;
  }

  private static final long MAX_OVERSLEEP = TimeUnit.MILLISECONDS.toNanos(1);
  /** How long {@link #close} waits for the thread to end (a store call may never return). */
  private volatile long stopWaitNanos = TimeUnit.SECONDS.toNanos(30);

  /** Sets how long {@link #close} waits for the thread (tests of a store call that never returns). */
  void stopWait(long nanos) {
    stopWaitNanos = nanos;
  }

  /** How long {@link #close} waits for the thread to end. */
  long stopWaitNanos() {
    return stopWaitNanos;
  }

  /** True once the thread has ended (or never started). */
  boolean stopped() {
    return !thread.isAlive();
  }

  /** The emitter's thread (joined after a close that could not wait for it). */
  Thread thread() {
    return thread;
  }
  private long oversleep = TimeUnit.MICROSECONDS.toNanos(100);

  /** Stops the clock and waits for the call in flight; the write-backs still owed are sent by the caller ({@link TickRunner#flush}). */
  @Override
  public void close() {
    running = false;
    go.countDown();
    LockSupport.unpark(thread);
    boolean interrupted = awaitEnd(); // an interrupted close still waits for the thread and gives the CPU back
    try {
      if (heldCpu >= 0) {
        heldCpu = -1;
        try {
          CorePinning.release(threadId.join()); // the other threads may use that CPU again
        } catch (RuntimeException e) {
          LOG.log(System.Logger.Level.WARNING, "the emitter's CPU was not given back (" + e.getMessage() + ")");
        }
      }
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /**
   * Waits up to 30 s ({@link #stopWait}) for the thread to end, through interrupts (an interrupted
   * caller must not leave it running); returns whether the caller was interrupted, with its flag cleared.
   */
  private boolean awaitEnd() {
    boolean interrupted = Thread.interrupted();
    long deadline = System.nanoTime() + stopWaitNanos;
    while (thread.isAlive() && deadline - System.nanoTime() > 0) {
      try {
        thread.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    return interrupted | Thread.interrupted();
  }
}
