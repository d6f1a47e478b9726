package io.pancakej.baseline;

import java.util.Properties;

import io.pancakej.config.Limits;
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
public final class InsecureClient extends PerKeyClient {

  /** A client on {@code store} (which it takes ownership of) with the default size limits. */
  public InsecureClient(KvStore store) {
    this(store, Limits.DEFAULT_VALUE_SIZE, Limits.DEFAULT_KEY_SIZE);
  }

  /** A client on {@code store} with the given maximum value and key sizes in bytes (the bounds of {@link Limits}). */
  public InsecureClient(KvStore store, int valueSize, int keySize) {
    this(store, new Limits(keySize, valueSize, null));
  }

  private InsecureClient(KvStore store, Limits limits) {
    super(store, limits);
  }

  /** Reads the size limits, then opens the store named in {@code props} ({@link Stores#open}). */
  public static InsecureClient open(Properties props) {
    Limits limits = Limits.fromProperties(props);
    return new InsecureClient(Stores.open(props), limits);
  }

  @Override
  byte[] storeKey(byte[] key) {
    return key;
  }

  @Override
  byte[] encode(byte[] storeKey, byte[] value) {
    return value;
  }

  @Override
  byte[] decode(byte[] storeKey, byte[] stored) {
    return stored;
  }
}
