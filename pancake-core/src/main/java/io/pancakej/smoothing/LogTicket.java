package io.pancakej.smoothing;

import java.util.concurrent.CompletableFuture;

/**
 * Whether one UpdateCache value is in the write-ahead log yet. A write is acknowledged, and its
 * value may reach a replica, only once its ticket is durable: a crash before that loses a write
 * nobody was told about, and never leaves one replica with a value the log does not hold (which
 * would make reads of that key flip between two values after recovery).
 */
final class LogTicket {
  /** For values that came from the saved state or the log itself. */
  static final LogTicket DURABLE = new LogTicket();

  static {
    DURABLE.done.complete(null);
  }

  private final CompletableFuture<Void> done = new CompletableFuture<>();
  /**
   * The entry this value replaced (null: none, every replica held the latest value), kept until
   * this ticket is durable: if the log fails instead, the key goes back to it.
   */
  private volatile UpdateCache.Entry previous;

  LogTicket() {
  }

  LogTicket(UpdateCache.Entry previous) {
    this.previous = previous;
  }

  boolean isDurable() {
    return done.isDone() && !done.isCompletedExceptionally();
  }

  boolean isFailed() {
    return done.isCompletedExceptionally();
  }

  /** Waits up to {@code nanos} for this ticket to settle; true if it became durable. */
  boolean awaitSettled(long nanos) {
    try {
      done.get(nanos, java.util.concurrent.TimeUnit.NANOSECONDS);
      return true;
    } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  void durable() {
    previous = null;
    done.complete(null);
  }

  /**
   * What the key holds if this value never reaches the log: the nearest entry before it whose
   * ticket did not fail (the log fails in order, so an earlier ticket is settled by then).
   */
  UpdateCache.Entry revertTo() {
    UpdateCache.Entry p = previous;
    while (p != null && p.ticket.isFailed()) {
      p = p.ticket.previous;
    }
    return p;
  }

  void failed(RuntimeException cause) {
    done.completeExceptionally(cause);
  }

  /** Completes {@code request} with {@code result} once durable, or fails it with the log's error. */
  void whenDurable(CompletableFuture<Object> request, Object result) {
    if (isDurable()) {
      request.complete(result);
      return;
    }
    done.whenComplete((v, e) -> {
      if (e == null) {
        request.complete(result);
      } else {
        request.completeExceptionally(e instanceof java.util.concurrent.CompletionException ? e.getCause() : e);
      }
    });
  }
}
