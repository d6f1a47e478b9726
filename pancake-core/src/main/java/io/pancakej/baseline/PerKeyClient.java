package io.pancakej.baseline;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.UnaryOperator;

import io.pancakej.KvClient;
import io.pancakej.config.Limits;
import io.pancakej.store.KvStore;

/**
 * What the two baselines share: one store entry per key, one store read per get, one write per
 * put, and updates and deletes as read-then-write under a per-key lock, so concurrent updates in
 * this JVM lose nothing. A scheme says only how a key becomes a store key and a value a stored
 * value.
 */
abstract class PerKeyClient implements KvClient {
  final KvStore store;
  final Limits limits;
  private final StripedLocks locks = new StripedLocks(256);
  private final AtomicBoolean open = new AtomicBoolean(true);

  PerKeyClient(KvStore store, Limits limits) {
    this.store = Objects.requireNonNull(store, "store");
    this.limits = limits;
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
    byte[] stored = store.get(k);
    return stored == null ? Optional.empty() : Optional.of(decode(k, stored));
  }

  @Override
  public void put(byte[] key, byte[] value) {
    limits.checkKey(key);
    limits.checkValue(value);
    byte[] k = storeKey(key);
    byte[] stored = encode(k, value);
    ReentrantLock lock = locks.forKey(key);
    lock.lock();
    try {
      store.put(k, stored);
    } finally {
      lock.unlock();
    }
  }

  @Override
  public boolean update(byte[] key, UnaryOperator<byte[]> merge) {
    limits.checkKey(key);
    Objects.requireNonNull(merge, "merge");
    byte[] k = storeKey(key);
    ReentrantLock lock = locks.forKey(key);
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
    }
  }

  @Override
  public boolean delete(byte[] key) {
    limits.checkKey(key);
    byte[] k = storeKey(key);
    ReentrantLock lock = locks.forKey(key);
    lock.lock();
    try {
      if (store.get(k) == null) {
        return false;
      }
      store.multiDelete(List.of(k));
      return true;
    } finally {
      lock.unlock();
    }
  }

  @Override
  public void close() {
    if (open.compareAndSet(true, false)) {
      store.close();
    }
  }

  @Override
  public String toString() {
    return getClass().getSimpleName() + "[" + store.describe() + "]";
  }
}
