package io.pancakej.smoothing;

import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.UnaryOperator;

import io.pancakej.PancakeException;

/**
 * The request side of the {@link Proxy}: checks a request, takes its key slot, queues it for the
 * ticks and waits for (or hands back a future of) its answer, then gives the slot back and frees it
 * if its key is now deleted everywhere. Nothing here talks to the store.
 */
final class Requests {
  private static final System.Logger LOG = System.getLogger("io.pancakej");
  private final Proxy proxy;
  /** Requests submitted since open (the emission rate follows it). */
  final LongAdder count = new LongAdder();
  /**
   * Completes the asynchronous requests' futures, so their callers' callbacks run here: never on a
   * thread that sends or serves ticks (a slow callback must not shift them), and not on
   * {@code CompletableFuture}'s default executor, which on a machine with fewer than three cores
   * starts a new thread for every completion (that cost 4x in throughput on two cores). One
   * thread, started with the first asynchronous request (at open when the emitter holds a CPU:
   * {@link #startCallbackThread}): callbacks run in the order answers came.
   */
  private final ExecutorService callbacks;
  private volatile Thread callbackThread;

  Requests(Proxy proxy, ThreadFactory callbackThreads) {
    this.proxy = proxy;
    this.callbacks = Executors.newSingleThreadExecutor(r -> {
      Thread t = callbackThreads.newThread(r);
      callbackThread = t;
      return t;
    });
  }

  /**
   * Starts the callback thread now, from the calling thread: created from the emitter instead (a
   * failed call fails its requests there), it would inherit a CPU the emitter holds ({@link CorePinning}).
   */
  void startCallbackThread() {
    callbacks.execute(() -> { });
  }

  /** Binds and frees run under the phase read lock so that a checkpoint never splits one from its log record. */
  private int acquire(byte[] key, boolean bind) {
    if (!proxy.isOpen()) {
      // before the lock: after a close that gave up on a store call, a tick stuck in it holds the
      // lock's writers off, and a reader that finds one waiting may queue behind it
      throw new PancakeException("the PANCAKE client is closed");
    }
    long stamp = proxy.phaseLock.readLock();
    try {
      return proxy.keys.acquire(key, bind);
    } finally {
      proxy.phaseLock.unlockRead(stamp);
    }
  }

  Optional<byte[]> get(byte[] key) {
    checkKey(key);
    return present(await(submit(Request.Op.GET, acquire(key, false), null, null)));
  }

  void put(byte[] key, byte[] value) {
    checkKey(key);
    checkValue(value);
    await(submit(Request.Op.PUT, acquire(key, true), value.clone(), null));
  }

  boolean update(byte[] key, UnaryOperator<byte[]> merge) {
    checkKey(key);
    checkMerge(merge);
    return (Boolean) await(submit(Request.Op.UPDATE, acquire(key, false), null, merge));
  }

  boolean delete(byte[] key) {
    checkKey(key);
    return (Boolean) await(submit(Request.Op.DELETE, acquire(key, false), null, null));
  }

  /**
   * Queues a get; bad input and a closed client throw at once, store and log failures complete the
   * future. The future completes on the client's callback thread ({@link #callbacks}), never on a
   * tick's thread (a slow or blocking callback must not hold up the ticks).
   */
  CompletableFuture<Optional<byte[]>> getAsync(byte[] key) {
    checkKey(key);
    return async(submit(Request.Op.GET, acquire(key, false), null, null)).thenApply(Requests::present);
  }

  CompletableFuture<Void> putAsync(byte[] key, byte[] value) {
    checkKey(key);
    checkValue(value);
    return async(submit(Request.Op.PUT, acquire(key, true), value.clone(), null)).thenApply(r -> null);
  }

  CompletableFuture<Boolean> updateAsync(byte[] key, UnaryOperator<byte[]> merge) {
    checkKey(key);
    checkMerge(merge);
    return async(submit(Request.Op.UPDATE, acquire(key, false), null, merge)).thenApply(r -> (Boolean) r);
  }

  CompletableFuture<Boolean> deleteAsync(byte[] key) {
    checkKey(key);
    return async(submit(Request.Op.DELETE, acquire(key, false), null, null)).thenApply(r -> (Boolean) r);
  }

  private static void checkMerge(UnaryOperator<byte[]> merge) {
    if (merge == null) {
      throw new IllegalArgumentException("merge must not be null");
    }
  }

  private static Optional<byte[]> present(Object result) {
    return result == Request.ABSENT ? Optional.empty() : Optional.of((byte[]) result);
  }

  /** Waits for a request on the caller's thread, then gives its key slot back. */
  private Object await(Request request) {
    try {
      return join(request.done);
    } finally {
      finishRequest(request.keySlot);
    }
  }

  /** A request's answer, delivered (and its key slot given back) on the callback thread. */
  private CompletableFuture<Object> async(Request request) {
    return request.done.whenCompleteAsync((r, e) -> finishRequest(request.keySlot), callbacks);
  }

  /**
   * After the last answers: lets the callbacks already queued run (up to 30 s; not when called
   * from a callback, which would wait for itself), then stops the callback thread.
   */
  /** True on the thread that runs the asynchronous requests' callbacks. */
  boolean isCallbackThread() {
    return Thread.currentThread() == callbackThread;
  }

  void closeCallbacks() {
    callbacks.shutdown();
    if (Thread.currentThread() == callbackThread) {
      return;
    }
    try {
      callbacks.awaitTermination(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** The future's value, or its failure unwrapped (the exception the request failed with). */
  private static <T> T join(CompletableFuture<T> future) {
    try {
      return future.join();
    } catch (CompletionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof RuntimeException re) {
        throw re;
      }
      if (cause instanceof Error err) {
        throw err;
      }
      throw new PancakeException("request failed", cause);
    }
  }

  private void checkKey(byte[] key) {
    proxy.codec.limits.checkKey(key);
  }

  void checkValue(byte[] value) {
    proxy.codec.limits.checkValue(value);
  }

  /**
   * Queues one request for the emitter's next ticks; nothing is sent for it. A key without a slot
   * is queued too (slot -1): it takes a real access like any other and is answered "absent".
   */
  private Request submit(Request.Op op, int keySlot, byte[] value, UnaryOperator<byte[]> merge) {
    if (!proxy.isOpen()) {
      if (keySlot >= 0) {
        proxy.keys.release(keySlot);
      }
      throw new PancakeException("the PANCAKE client is closed");
    }
    if (proxy.emitter.isEmitterThread() || proxy.runner.isServingThread()) {
      if (keySlot >= 0) {
        proxy.keys.release(keySlot);
      }
      throw new IllegalStateException("a merge function must not call the client: it runs on the thread that"
          + " serves requests, which would wait for itself");
    }
    count.increment();
    if (keySlot >= 0 && proxy.estimator != null && op != Request.Op.PUT) {
      // the estimate is of the requests that read their own key: a put's real access is drawn
      // from it (TickRunner.realAccess), so counting puts would skew it towards keys that are
      // mostly written, whose labels would then be read less than the rest
      proxy.estimator.record(keySlot);
    }
    Request request = new Request(op, keySlot, value, merge);
    proxy.queue.add(request);
    if (!proxy.isOpen()) {
      failQueued(); // close drained the queue before this request joined it
    }
    return request;
  }

  private void finishRequest(int keySlot) {
    if (keySlot < 0) {
      return;
    }
    proxy.keys.release(keySlot);
    // a key deleted everywhere gives its slot back once nobody refers to it
    if (proxy.cache.isDeletedEverywhere(keySlot)) {
      try {
        proxy.freeIfUnused(keySlot);
        proxy.transitions.dropFreedSlots();
      } catch (RuntimeException e) {
        // the request itself succeeded; the slot stays bound and the next open frees it
        LOG.log(System.Logger.Level.WARNING, "freeing a deleted key's slot failed: " + e.getMessage());
      }
    }
  }

  /** Fails every queued request (at close). */
  void failQueued() {
    Request r;
    while ((r = proxy.queue.poll()) != null) {
      r.done.completeExceptionally(new PancakeException("the PANCAKE client was closed before this request was served"));
    }
  }
}
