package io.pancakej.baseline;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.UnaryOperator;

import io.pancakej.KvClient;
import io.pancakej.StoreException;
import io.pancakej.config.Limits;
import io.pancakej.store.KvStore;

/**
 * What the two baselines share: one store entry per key, one store read per get, one write per
 * put, and updates and deletes as read-then-write under a per-key lock, so concurrent updates in
 * this JVM lose nothing. A scheme says only how a key becomes a store key and a value a stored
 * value.
 *
 * <p>Close is fenced: every operation holds the read side of a lock while it uses the store, and
 * close takes the write side, so it waits for the operations under way and the store is never used
 * after it closed (for RocksDB that would be a use-after-free in native code). An operation that
 * starts after close fails with a {@link StoreException} saying the client is closed.
 */
abstract class PerKeyClient implements KvClient {
  final KvStore store;
  final Limits limits;
  private final StripedLocks locks = new StripedLocks(256);
  /** Read side: an operation using the store; write side: close. */
  private final ReentrantReadWriteLock fence = new ReentrantReadWriteLock();
  /** Guarded by {@link #fence}. */
  private boolean closed;
  private final String description;

  PerKeyClient(KvStore store, Limits limits) {
    this.store = Objects.requireNonNull(store, "store");
    this.limits = limits;
    this.description = getClass().getSimpleName() + "[" + store.describe() + "]";
  }

  /** Takes the read side for one operation; a {@link StoreException} once the client is closed. */
  private void enter() {
    fence.readLock().lock();
    if (closed) {
      fence.readLock().unlock();
      throw new StoreException(description + " is closed");
    }
  }

  private void exit() {
    fence.readLock().unlock();
  }

  /** The store key of {@code key}. */
  abstract byte[] storeKey(byte[] key);

  /** The stored form of {@code value} under {@code storeKey}. */
  abstract byte[] encode(byte[] storeKey, byte[] value);

  /** The value of a stored entry; throws {@link io.pancakej.IntegrityException} if not authentic. */
  abstract byte[] decode(byte[] storeKey, byte[] stored);

  @Override
  public Optional<byte[]> get(byte[] key) {
    limits.checkKey(key);
    byte[] k = storeKey(key);
    byte[] stored;
    enter();
    try {
      stored = store.get(k);
    } finally {
      exit();
    }
    return stored == null ? Optional.empty() : Optional.of(decode(k, stored));
  }

  @Override
  public void put(byte[] key, byte[] value) {
    limits.checkKey(key);
    limits.checkValue(value);
    byte[] k = storeKey(key);
    byte[] stored = encode(k, value);
    ReentrantLock lock = locks.forKey(key);
    enter();
    lock.lock();
    try {
      store.put(k, stored);
    } finally {
      lock.unlock();
      exit();
    }
  }

  @Override
  public boolean update(byte[] key, UnaryOperator<byte[]> merge) {
    limits.checkKey(key);
    Objects.requireNonNull(merge, "merge");
    byte[] k = storeKey(key);
    ReentrantLock lock = locks.forKey(key);
    enter();
    lock.lock();
    try {
      byte[] stored = store.get(k);
      if (stored == null) {
        return false;
      }
      byte[] next = merge.apply(decode(k, stored));
      limits.checkValue(next);
      store.put(k, encode(k, next));
      return true;
    } finally {
      lock.unlock();
      exit();
    }
  }

  @Override
  public boolean delete(byte[] key) {
    limits.checkKey(key);
    byte[] k = storeKey(key);
    ReentrantLock lock = locks.forKey(key);
    enter();
    lock.lock();
    try {
      if (store.get(k) == null) {
        return false;
      }
      store.multiDelete(List.of(k));
      return true;
    } finally {
      lock.unlock();
      exit();
    }
  }

  /**
   * Waits for the operations under way, then closes the store; later operations fail with a
   * {@link StoreException}. Idempotent.
   *
   * @throws IllegalStateException if called from inside an operation of this client (a merge
   *     function), which would wait for itself
   */
  @Override
  public void close() {
    if (fence.getReadHoldCount() > 0) {
      throw new IllegalStateException("close() of " + description + " from inside one of its own operations"
          + " (a merge function) would wait for itself");
    }
    fence.writeLock().lock();
    try {
      if (!closed) {
        closed = true;
        store.close();
      }
    } finally {
      fence.writeLock().unlock();
    }
  }

  @Override
  public String toString() {
    return description;
  }
}
