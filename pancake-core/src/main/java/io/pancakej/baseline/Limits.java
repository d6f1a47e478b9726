package io.pancakej.baseline;

import java.util.Properties;

import io.pancakej.PancakeConfig;
import io.pancakej.ValueTooLargeException;
import io.pancakej.store.Stores;

/** Argument checks shared by the baselines: the same key and value limits as PANCAKE. */
final class Limits {
  final int valueSize;
  final int keySize;

  Limits(int valueSize, int keySize) {
    if (valueSize < 1) {
      throw new IllegalArgumentException(PancakeConfig.VALUE_SIZE_PROPERTY + " must be at least 1, got " + valueSize);
    }
    if (keySize < 1) {
      throw new IllegalArgumentException(PancakeConfig.KEY_SIZE_PROPERTY + " must be at least 1, got " + keySize);
    }
    this.valueSize = valueSize;
    this.keySize = keySize;
  }

  static Limits defaults() {
    return new Limits(PancakeConfig.DEFAULT_VALUE_SIZE, PancakeConfig.DEFAULT_KEY_SIZE);
  }

  static Limits fromProperties(Properties props) {
    return new Limits(
        Stores.intProperty(props, PancakeConfig.VALUE_SIZE_PROPERTY, PancakeConfig.DEFAULT_VALUE_SIZE),
        Stores.intProperty(props, PancakeConfig.KEY_SIZE_PROPERTY, PancakeConfig.DEFAULT_KEY_SIZE));
  }

  void checkKey(byte[] key) {
    if (key == null) {
      throw new IllegalArgumentException("key must not be null");
    }
    if (key.length == 0) {
      throw new IllegalArgumentException("key must not be empty");
    }
    if (key.length > keySize) {
      throw new ValueTooLargeException("key of " + key.length + " bytes exceeds the maximum of " + keySize
          + " bytes; raise property " + PancakeConfig.KEY_SIZE_PROPERTY);
    }
  }

  void checkValue(byte[] value) {
    if (value == null) {
      throw new IllegalArgumentException("value must not be null");
    }
    if (value.length > valueSize) {
      throw new ValueTooLargeException("value of " + value.length + " bytes exceeds the maximum of " + valueSize
          + " bytes; raise property " + PancakeConfig.VALUE_SIZE_PROPERTY);
    }
  }
}
