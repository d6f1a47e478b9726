package io.pancakej.smoothing;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;

/**
 * Sends ticks on the clock. Tick times lie on a fixed grid of the current level's period (see
 * {@link EmissionRate}); a tick that is not done by the next grid point makes the emitter skip
 * that point rather than send late or in a burst, so every store call is issued at a grid point,
 * whatever the ticks before it served, wrote or cost. Requests wait in the queue for the next tick.
 * The level moves once per window from the number of requests that arrived; windows in which
 * more than a tenth of the grid points were skipped (the proxy could not keep up) step it down.
 */
final class Emitter implements AutoCloseable {
  /** The length of a rate window. */
  static final long WINDOW_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

  private final TickRunner runner;
  private final EmissionRate rate;
  private final LongSupplier requests;
  private final Thread thread;
  private volatile boolean running = true;
  private volatile long skipped;
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

  /** Grid points skipped because a tick ran past them. */
  long skippedTicks() {
    return skipped;
  }

  long ticks() {
    return ticks;
  }

  private void loop() {
    long next = System.nanoTime();
    int skippedNow = 0;
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
      if (rate.onTick(now, requests.getAsLong(), skippedNow)) {
        next = now; // a new level starts its own grid
      }
      long period = (long) (1e9 / rate.ticksPerSecond());
      long behind = now - next;
      long steps = behind < 0 ? 1 : behind / period + 1;
      skippedNow = (int) Math.min(Integer.MAX_VALUE, steps - 1);
      skipped += skippedNow;
      next += steps * period;
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
