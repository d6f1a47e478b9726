package io.pancakej.smoothing;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** Waits of a close that an interrupt must not cut short, and the short-lived threads it starts. */
final class Waits {
  /** No limit, for {@link #get}. */
  static final long FOREVER = Long.MAX_VALUE;

  private Waits() {}

  /**
   * {@code future}'s value, waiting up to {@code timeoutNanos} ({@link #FOREVER}: no limit) through
   * interrupts, whose flag is set again before it returns or throws.
   */
  static <T> T get(Future<T> future, long timeoutNanos) throws ExecutionException, TimeoutException {
    long start = System.nanoTime();
    boolean interrupted = false;
    try {
      while (true) {
        try {
          if (timeoutNanos == FOREVER) {
            return future.get();
          }
          return future.get(Math.max(0, timeoutNanos - (System.nanoTime() - start)), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** Runs {@code task} on a new daemon thread named {@code name}; {@code done} ends with it. */
  static Thread startDaemon(String name, Runnable task, CompletableFuture<Void> done) {
    Thread t = new Thread(() -> {
      try {
        task.run();
        done.complete(null);
      } catch (Throwable e) {
        done.completeExceptionally(e);
      }
    }, name);
    t.setDaemon(true);
    t.start();
    return t;
  }
}
