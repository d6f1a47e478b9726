package io.pancakej.smoothing;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;

/**
 * Keeps closed-loop callers live. With B = 3 and delta = 1/2 a request misses its own batch with
 * probability 1/8; if every caller is then blocked, no request arrives and no batch would ever be
 * sent again. The pacer sends batches (built exactly like request batches) at
 * {@code max(minRate, fraction * observed request rate)} per second. That rate depends only on
 * the clock and on the request rate, which the store observes anyway; never on the queue or on
 * any coin, so a pacer batch tells the store nothing a request batch would not.
 */
final class Pacer implements AutoCloseable {
  private static final long RATE_WINDOW_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

  private final Runnable batch;
  private final LongSupplier requests;
  private final double minRate;
  private final java.util.function.DoubleSupplier floor;
  private final double fraction;
  private final Thread thread;
  private volatile boolean running = true;
  private volatile double currentRate;

  Pacer(Runnable batch, LongSupplier requests, double minRate, double fraction,
      java.util.function.DoubleSupplier floor) {
    this.batch = batch;
    this.requests = requests;
    this.minRate = minRate;
    this.floor = floor;
    this.fraction = fraction;
    this.currentRate = minRate;
    this.thread = new Thread(this::loop, "pancake-pacer");
    this.thread.setDaemon(true);
  }

  void start() {
    thread.start();
  }

  /** Background batches per second right now. */
  double rate() {
    return currentRate;
  }

  private void loop() {
    long windowStart = System.nanoTime();
    long windowRequests = requests.getAsLong();
    double observed = 0;
    long next = System.nanoTime();
    while (running) {
      long now = System.nanoTime();
      if (now - windowStart >= RATE_WINDOW_NANOS) {
        long count = requests.getAsLong();
        double instant = (count - windowRequests) * 1e9 / (now - windowStart);
        observed = observed == 0 ? instant : 0.7 * observed + 0.3 * instant;
        windowStart = now;
        windowRequests = count;
      }
      currentRate = Math.max(Math.max(minRate, floor.getAsDouble()), fraction * observed);
      long interval = (long) (1e9 / currentRate);
      // never more than one interval ahead of the clock, never a burst to catch up after a stall
      if (next > now + interval) {
        next = now + interval;
      } else if (next < now - interval) {
        next = now;
      }
      long wait;
      while (running && (wait = next - System.nanoTime()) > 0) {
        Thread.interrupted(); // a stray interrupt must not turn parking into spinning
        LockSupport.parkNanos(wait);
      }
      next += interval;
      if (!running) {
        break;
      }
      try {
        batch.run();
      } catch (RuntimeException e) {
        // the requests it served have already been failed with this error; keep pacing
      }
    }
  }

  @Override
  public void close() {
    running = false;
    LockSupport.unpark(thread);
    try {
      thread.join(TimeUnit.SECONDS.toMillis(10));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
