package io.pancakej.config;

import io.pancakej.ConfigException;
import io.pancakej.ValueTooLargeException;

/**
 * Internal (public only because the scheme modules use it): the one set of key and value size
 * limits of every scheme, and the checks a client makes on each request against the sizes it
 * runs with. PANCAKE, Path ORAM, DetWoORAM and the baselines all take {@value #VALUE_SIZE_PROPERTY}
 * and {@value #KEY_SIZE_PROPERTY} within the same bounds, so a workload one accepts the others
 * accept too.
 */
public final class Limits {
  /** Largest value in bytes; every value is padded to this size before encryption. */
  public static final String VALUE_SIZE_PROPERTY = "pancake.value.size";
  public static final int DEFAULT_VALUE_SIZE = 1200;
  /** Largest key in bytes. */
  public static final String KEY_SIZE_PROPERTY = "pancake.key.size";
  public static final int DEFAULT_KEY_SIZE = 128;
  /**
   * Bound on {@value #VALUE_SIZE_PROPERTY}: the largest any scheme accepted before the limits were
   * shared, so every state created then still opens. A Path ORAM bucket of four such blocks
   * (about 256 MiB) still fits one Java array and one Redis string (512 MB).
   */
  public static final int MAX_VALUE_SIZE = 64 << 20;
  /** Bound on {@value #KEY_SIZE_PROPERTY}: block and replica formats store a key's length in two bytes. */
  public static final int MAX_KEY_SIZE = 65_535;

  private final int keySize;
  private final int valueSize;
  private final String fixedWhen;

  /**
   * The limits of one client: keys up to {@code keySize} bytes, values up to {@code valueSize}.
   * {@code fixedWhen} says, at the end of a refused request's message, when the sizes were fixed
   * (for example "fixed when the state is created"); null for a client that reads them at every
   * open.
   */
  public Limits(int keySize, int valueSize, String fixedWhen) {
    this.keySize = checkKeySize(keySize);
    this.valueSize = checkValueSize(valueSize);
    this.fixedWhen = fixedWhen;
  }

  /** {@code bytes} if it is a valid {@value #VALUE_SIZE_PROPERTY}; else a {@link ConfigException} naming it. */
  public static int checkValueSize(int bytes) {
    if (bytes < 1 || bytes > MAX_VALUE_SIZE) {
      throw new ConfigException(VALUE_SIZE_PROPERTY + " must be between 1 and " + (MAX_VALUE_SIZE >> 20) + " MiB, got " + bytes);
    }
    return bytes;
  }

  /** {@code bytes} if it is a valid {@value #KEY_SIZE_PROPERTY}; else a {@link ConfigException} naming it. */
  public static int checkKeySize(int bytes) {
    if (bytes < 1 || bytes > MAX_KEY_SIZE) {
      throw new ConfigException(KEY_SIZE_PROPERTY + " must be between 1 and " + MAX_KEY_SIZE + ", got " + bytes);
    }
    return bytes;
  }

  public int keySize() {
    return keySize;
  }

  public int valueSize() {
    return valueSize;
  }

  /** A key must be non-empty and at most {@link #keySize()} bytes. */
  public void checkKey(byte[] key) {
    if (key == null) {
      throw new IllegalArgumentException("key must not be null");
    }
    if (key.length == 0) {
      throw new IllegalArgumentException("key must not be empty");
    }
    if (key.length > keySize) {
      throw new ValueTooLargeException("key of " + key.length + " bytes exceeds " + tooLarge(KEY_SIZE_PROPERTY, keySize));
    }
  }

  /** A value must be non-null (empty is a value) and at most {@link #valueSize()} bytes. */
  public void checkValue(byte[] value) {
    if (value == null) {
      throw new IllegalArgumentException("value must not be null");
    }
    if (value.length > valueSize) {
      throw new ValueTooLargeException("value of " + value.length + " bytes exceeds "
          + tooLarge(VALUE_SIZE_PROPERTY, valueSize));
    }
  }

  private String tooLarge(String property, int size) {
    return property + "=" + size + "; raise property " + property + (fixedWhen == null ? "" : " (" + fixedWhen + ")");
  }

  @Override
  public String toString() {
    return "Limits[key=" + keySize + ", value=" + valueSize + "]";
  }
}
