package io.pancakej.baseline;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.UnaryOperator;

import io.pancakej.KvClient;
import io.pancakej.store.KvStore;
import io.pancakej.store.Stores;

/**
 * The {@code insecure} baseline: the plaintext key is the store key and the plaintext value is
 * the stored value. One store read per get, one write per put; an update is a read, a merge and
 * a write under a per-key lock, so concurrent updates in this JVM lose nothing. The same key and
 * value limits as PANCAKE apply ({@code pancake.key.size}, {@code pancake.value.size}), so the
 * schemes accept the same workloads.
 *
 * <p>Security guarantees: none. The store sees every key, value and access.
 */
public final class InsecureClient implements KvClient {
  private final KvStore store;
  private final Limits limits;
  private final StripedLocks locks = new StripedLocks(256);
  private final AtomicBoolean open = new AtomicBoolean(true);

  /** A client on {@code store} (which it takes ownership of) with the default size limits. */
  public InsecureClient(KvStore store) {
    this(store, Limits.defaults());
  }

  /** A client on {@code store} with the given maximum value and key sizes in bytes. */
  public InsecureClient(KvStore store, int valueSize, int keySize) {
    this(store, new Limits(valueSize, keySize));
  }

  private InsecureClient(KvStore store, Limits limits) {
    this.store = Objects.requireNonNull(store, "store");
    this.limits = limits;
  }

  /** Opens the store named in {@code props} ({@link Stores#open}) and reads the size limits. */
  public static InsecureClient open(Properties props) {
    Limits limits = Limits.fromProperties(props);
    return new InsecureClient(Stores.open(props), limits);
  }

  @Override
  public Optional<byte[]> get(byte[] key) {
    limits.checkKey(key);
    return Optional.ofNullable(store.get(key));
  }

  @Override
  public void put(byte[] key, byte[] value) {
    limits.checkKey(key);
    limits.checkValue(value);
    ReentrantLock lock = locks.forKey(key);
    lock.lock();
    try {
      store.put(key, value);
    } finally {
      lock.unlock();
    }
  }

  @Override
  public boolean update(byte[] key, UnaryOperator<byte[]> merge) {
    limits.checkKey(key);
    Objects.requireNonNull(merge, "merge");
    ReentrantLock lock = locks.forKey(key);
    lock.lock();
    try {
      byte[] current = store.get(key);
      if (current == null) {
        return false;
      }
      byte[] next = merge.apply(current);
      limits.checkValue(next);
      store.put(key, next);
      return true;
    } finally {
      lock.unlock();
    }
  }

  @Override
  public boolean delete(byte[] key) {
    limits.checkKey(key);
    ReentrantLock lock = locks.forKey(key);
    lock.lock();
    try {
      if (store.get(key) == null) {
        return false;
      }
      store.multiDelete(List.of(key));
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
    return "InsecureClient[" + store.describe() + "]";
  }
}
