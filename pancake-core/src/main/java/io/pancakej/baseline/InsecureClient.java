package io.pancakej.baseline;

import java.util.Properties;

import io.pancakej.config.Limits;
import io.pancakej.scheme.SchemeBuilder;
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

  private InsecureClient(KvStore store, Limits limits) {
    super(store, limits);
  }

  /** A builder; {@link Builder#store} is required. */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Opens the client from properties, through {@link Builder}: {@value Limits#VALUE_SIZE_PROPERTY},
   * {@value Limits#KEY_SIZE_PROPERTY}, then the store by name ({@link Stores#open(Properties)}).
   */
  public static InsecureClient open(Properties props) {
    return Builder.fromProperties(props).build();
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

  /**
   * Builder with fail-fast checks, on the settings every scheme shares ({@link SchemeBuilder}): the
   * key and value sizes (read at every open) and the store, which the client then owns. This
   * baseline keeps no state and no key: the state directory, key file, create flag and capacity are
   * accepted and ignored, so that one set of properties serves every scheme.
   */
  public static final class Builder extends SchemeBuilder<Builder> {
    private Builder() {
      super("insecure", "data/insecure-state", 30);
    }

    /** What the properties say, on the store they name. */
    static Builder fromProperties(Properties props) {
      return builder().readProperties(props).store(Stores.open(props));
    }

    /** Opens the client on the store given to {@link #store}. */
    public InsecureClient build() {
      return open(s -> new InsecureClient(s.store(),
          new Limits(s.keySizeOr(Limits.DEFAULT_KEY_SIZE), s.valueSizeOr(Limits.DEFAULT_VALUE_SIZE), null)));
    }
  }
}
