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

  boolean isDurable() {
    return done.isDone() && !done.isCompletedExceptionally();
  }

  void durable() {
    done.complete(null);
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
