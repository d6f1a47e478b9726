package io.pancakej.smoothing;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;

/**
 * Sends ticks on the clock. Tick times lie on a fixed grid of the current level's period (see
 * {@link EmissionRate}); requests wait in the queue for the next tick. A tick that could not start
 * on its grid point (the thread woke late, or the previous tick ran past it) starts at once, late,
 * and the grid goes on from there: never a burst to catch up. So a call leaves at a grid point,
 * or -- when the proxy cannot keep up (overload, or cores busy with other work) -- right after the
 * previous tick, which is the only case where the work of a tick can move the next call (see
 * docs/security.md). The level moves once per window from the number of requests that arrived.
 */
final class Emitter implements AutoCloseable {
  /** The length of a rate window. */
  static final long WINDOW_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

  private final TickRunner runner;
  private final EmissionRate rate;
  private final LongSupplier requests;
  private final Thread thread;
  private volatile boolean running = true;
  private volatile long late;
  private volatile long ticks;

  Emitter(TickRunner runner, EmissionRate rate, LongSupplier requests, ThreadFactory threads) {
    this.runner = runner;
    this.rate = rate;
    this.requests = requests;
    this.thread = threads.newThread(this::loop);
  }

  void start() {
    thread.start();
  }

  /** Batches per second at the current level. */
  double batchesPerSecond() {
    return rate.batchesPerSecond();
  }

  /** Ticks that started after their grid point (the proxy could not keep up). */
  long lateTicks() {
    return late;
  }

  long ticks() {
    return ticks;
  }

  private void loop() {
    long next = System.nanoTime();
    while (running) {
      long wait;
      while (running && (wait = next - System.nanoTime()) > 0) {
        Thread.interrupted(); // a stray interrupt must not turn parking into spinning
        LockSupport.parkNanos(wait);
      }
      if (!running) {
        break;
      }
      try {
        runner.tick(rate.batchesPerTick());
      } catch (RuntimeException e) {
        // the requests it served have been failed with this error; keep the schedule
      }
      ticks++;
      long now = System.nanoTime();
      if (rate.onTick(now, requests.getAsLong())) {
        next = now; // a new level starts its own grid
      }
      long period = (long) (1e9 / rate.ticksPerSecond());
      next += period;
      if (next < now) {
        late++; // the next grid point has passed: start at once, late, and keep the grid from here
        next = now;
      }
    }
  }

  /** Stops the clock and waits for the tick in flight; the write-back it owes is sent by the caller. */
  @Override
  public void close() {
    running = false;
    LockSupport.unpark(thread);
    try {
      thread.join(TimeUnit.SECONDS.toMillis(30));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
