package io.pancakej.bench;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

import io.pancakej.store.KvStore;

/**
 * What a clocked proxy allows closed-loop callers on a store and machine, with none of the proxy's
 * own work: callers queue a request and wait for its answer; one thread sends ticks on a fixed grid
 * of {@code ticksPerSecond} (waiting as the emitter does: a park, then yields up to the point; a
 * tick that runs past a point waits for the next one), each tick one store call that writes back
 * the previous tick's {@code batches x 3} labels and reads {@code batches x 3} new ones, then
 * answers the queued requests its real slots take (each slot real with probability 1/2, taking the
 * queue's head). No crypto, no smoothing, no YCSB: an upper bound on any clocked design with that
 * tick rate and size on that store, and how far the tick rate can go before the call caps it.
 */
public final class ClockLoop {
  private static final int B = 3;
  /** Parks end about this late on a busy Linux machine: yield the rest. */
  private static final long SPIN_NANOS = 100_000;

  private ClockLoop() {}

  /** One round: requests/s served, the callers' mean wait, and the ticks/s actually sent. */
  public record Result(double requestsPerSecond, double meanMicros, double ticksSent) {}

  /**
   * Runs {@code rounds} rounds of {@code requests} requests from {@code callers} closed-loop
   * threads through ticks at {@code ticksPerSecond} of {@code batches} batches over the
   * {@code keyCount} keys {@link StoreLoop#load} wrote, prints a line per round to {@code out} and returns
   * the last round's result (the first warms up).
   */
  public static Result run(KvStore store, int callers, int requests, int keyCount, double ticksPerSecond, int batches,
      int rounds, PrintStream out) throws InterruptedException {
    if (callers < 1 || requests < callers || keyCount < 1 || !(ticksPerSecond > 0) || batches < 1 || rounds < 1) {
      throw new IllegalArgumentException("need callers >= 1, requests >= callers, keys >= 1, a positive tick rate,"
          + " batches >= 1 and rounds >= 1");
    }
    Result last = null;
    for (int round = 0; round < rounds; round++) {
      last = round(store, callers, requests / callers, keyCount, ticksPerSecond, batches);
      out.printf(Locale.ROOT, "clocked round %d: %d callers, %.0f ticks/s asked (%.0f sent), %d batches a tick: "
              + "%.0f requests/s, mean wait %.0f us%n", round, callers, ticksPerSecond, last.ticksSent(), batches,
          last.requestsPerSecond(), last.meanMicros());
    }
    return last;
  }

  private static Result round(KvStore store, int callers, int perCaller, int keyCount, double ticksPerSecond,
      int batches) throws InterruptedException {
    ConcurrentLinkedQueue<CompletableFuture<Void>> queue = new ConcurrentLinkedQueue<>();
    AtomicLong waited = new AtomicLong();
    AtomicLong ticks = new AtomicLong();
    AtomicBoolean running = new AtomicBoolean(true);
    AtomicReference<RuntimeException> failure = new AtomicReference<>();
    Thread emitter = new Thread(() -> {
      try {
        emit(store, queue, keyCount, ticksPerSecond, batches, ticks, running);
      } catch (RuntimeException e) { // the store failed: fail every request until the callers have stopped
        failure.set(e);
        while (running.get()) {
          CompletableFuture<Void> r;
          while ((r = queue.poll()) != null) {
            r.completeExceptionally(e);
          }
          LockSupport.parkNanos(1_000_000);
        }
      }
    }, "clock-loop-emitter");
    List<Thread> threads = new ArrayList<>();
    long start = System.nanoTime();
    emitter.start();
    for (int t = 0; t < callers; t++) {
      Thread caller = new Thread(() -> {
        for (int i = 0; i < perCaller; i++) {
          long t0 = System.nanoTime();
          CompletableFuture<Void> answer = new CompletableFuture<>();
          queue.add(answer);
          if (answer.handle((v, e) -> e == null).join()) {
            waited.addAndGet(System.nanoTime() - t0);
          } else {
            return; // the store failed (reported below)
          }
        }
      });
      caller.start();
      threads.add(caller);
    }
    for (Thread caller : threads) {
      caller.join();
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    running.set(false);
    emitter.join();
    if (failure.get() != null) {
      throw new IllegalStateException("a tick's store call failed: " + failure.get().getMessage(), failure.get());
    }
    long done = (long) perCaller * callers;
    return new Result(done / seconds, waited.get() / 1e3 / done, ticks.get() / seconds);
  }

  private static void emit(KvStore store, ConcurrentLinkedQueue<CompletableFuture<Void>> queue, int keyCount,
      double ticksPerSecond, int batches, AtomicLong ticks, AtomicBoolean running) {
    SplittableRandom rnd = new SplittableRandom(7);
    byte[] value = new byte[StoreLoop.VALUE_BYTES];
    long period = (long) (1e9 / ticksPerSecond);
    long origin = System.nanoTime();
    long next = origin;
    List<byte[]> owed = List.of();
    int slots = batches * B;
    while (running.get()) {
      long wait;
      while ((wait = next - System.nanoTime()) > SPIN_NANOS) {
        LockSupport.parkNanos(wait - SPIN_NANOS);
      }
      while (System.nanoTime() < next) {
        Thread.yield();
      }
      List<CompletableFuture<Void>> served = new ArrayList<>(slots);
      List<byte[]> labels = new ArrayList<>(slots);
      for (int i = 0; i < slots; i++) {
        CompletableFuture<Void> r;
        if (rnd.nextBoolean() && (r = queue.poll()) != null) {
          served.add(r);
        }
        labels.add(StoreLoop.key(rnd.nextInt(keyCount)));
      }
      try {
        store.multiPutGet(owed, Collections.nCopies(owed.size(), value), labels);
      } catch (RuntimeException e) {
        served.forEach(f -> f.completeExceptionally(e)); // taken off the queue: the round's handler never sees them
        throw e;
      }
      owed = labels;
      ticks.incrementAndGet();
      served.forEach(f -> f.complete(null));
      long now = System.nanoTime();
      next = origin + ((now - origin) / period + 1) * period; // a missed point is skipped, as the emitter does
    }
  }

}
