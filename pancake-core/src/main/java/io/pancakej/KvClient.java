package io.pancakej;

import java.nio.charset.StandardCharsets;
import java.util.Optional;
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
