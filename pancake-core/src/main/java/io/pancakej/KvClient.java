package io.pancakej;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * What every scheme offers its caller: PANCAKE ({@link PancakeClient}), Path ORAM, the
 * {@code encrypted} baseline (PRF labels and AEAD values, no smoothing) and the {@code insecure}
 * baseline (plaintext). Implementations are thread-safe and share one store SPI, so the scheme is
 * the only difference between them. Keys must be non-empty; null keys or values are rejected with
 * {@link IllegalArgumentException}.
 */
public interface KvClient extends AutoCloseable {

  /** The latest value of {@code key}, or empty if the key is absent. */
  Optional<byte[]> get(byte[] key);

  /** Inserts or replaces the value of {@code key}. */
  void put(byte[] key, byte[] value);

  /**
   * Atomically replaces the value of a present key with {@code merge.apply(current)}; concurrent
   * updates of one key are serialized, none is lost. Returns false, writing nothing, if the key is
   * absent. {@code merge} must be side-effect free and must not return null.
   */
  boolean update(byte[] key, UnaryOperator<byte[]> merge);

  /** Removes {@code key}; returns false if it was absent. */
  boolean delete(byte[] key);

  /**
   * {@link #get} without blocking: one thread can keep many requests in flight. Bad input (a null,
   * empty or oversized key or value) throws at once, as does a closed {@link PancakeClient}; store,
   * integrity and log failures complete the future exceptionally with the exception {@link #get}
   * would throw. The default
   * runs the request on the calling thread and returns a completed future; {@link PancakeClient}
   * queues it for the next clock ticks and returns at once (what that costs the store: nothing --
   * the store sees the same ticks whether or not requests wait; see docs/design.md).
   */
  default CompletableFuture<Optional<byte[]>> getAsync(byte[] key) {
    return completed(() -> get(key));
  }

  /** {@link #put} without blocking; see {@link #getAsync}. */
  default CompletableFuture<Void> putAsync(byte[] key, byte[] value) {
    return completed(() -> {
      put(key, value);
      return null;
    });
  }

  /** {@link #update} without blocking; see {@link #getAsync}. */
  default CompletableFuture<Boolean> updateAsync(byte[] key, UnaryOperator<byte[]> merge) {
    return completed(() -> update(key, merge));
  }

  /** {@link #delete} without blocking; see {@link #getAsync}. */
  default CompletableFuture<Boolean> deleteAsync(byte[] key) {
    return completed(() -> delete(key));
  }

  /**
   * Gets every key, all in flight at once; the result has one entry per key, in order. The first
   * failure is thrown once every request has finished.
   */
  default List<Optional<byte[]>> getAll(List<byte[]> keys) {
    List<CompletableFuture<Optional<byte[]>>> pending = new ArrayList<>(keys.size());
    for (byte[] key : keys) {
      pending.add(getAsync(key));
    }
    return joinAll(pending);
  }

  /** Puts every (key, value) pair, all in flight at once (the same key twice: the later one wins). */
  default void putAll(List<byte[]> keys, List<byte[]> values) {
    if (keys.size() != values.size()) {
      throw new IllegalArgumentException(keys.size() + " keys but " + values.size() + " values");
    }
    List<CompletableFuture<Void>> pending = new ArrayList<>(keys.size());
    java.util.Set<java.nio.ByteBuffer> inFlight = new java.util.HashSet<>();
    for (int i = 0; i < keys.size(); i++) {
      if (!inFlight.add(java.nio.ByteBuffer.wrap(keys.get(i)))) {
        joinAll(pending); // a repeated key waits for the earlier puts, so the later value wins
        pending.clear();
        inFlight.clear();
        inFlight.add(java.nio.ByteBuffer.wrap(keys.get(i)));
      }
      pending.add(putAsync(keys.get(i), values.get(i)));
    }
    joinAll(pending);
  }

  private static <T> List<T> joinAll(List<CompletableFuture<T>> pending) {
    List<T> out = new ArrayList<>(pending.size());
    RuntimeException first = null;
    for (CompletableFuture<T> f : pending) {
      try {
        out.add(f.join());
      } catch (CompletionException e) {
        if (first == null) {
          first = e.getCause() instanceof RuntimeException re ? re : e;
        }
      }
    }
    if (first != null) {
      throw first;
    }
    return out;
  }

  private static <T> CompletableFuture<T> completed(Supplier<T> call) {
    try {
      return CompletableFuture.completedFuture(call.get());
    } catch (IllegalArgumentException | ValueTooLargeException e) {
      throw e; // bad input throws at once, as it does for the queued implementation
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  /** Releases the store and persists proxy state. Idempotent. */
  @Override
  void close();

  /** Convenience: UTF-8 encoding of a string key. */
  static byte[] utf8(String key) {
    if (key == null) {
      throw new IllegalArgumentException("key must not be null");
    }
    return key.getBytes(StandardCharsets.UTF_8);
  }
}
