package io.pancakej;

/**
 * Root of the one unchecked exception family thrown by PANCAKE-J. Subtypes say what went wrong:
 * {@link StoreException} (the key-value store failed), {@link IntegrityException} (a ciphertext
 * or state file was tampered with or sealed under another key), {@link CapacityException} (no
 * room for another key), {@link ValueTooLargeException} (a key or value exceeds the configured
 * size), {@link ConfigException} (bad configuration) and {@link StateException} (the proxy state
 * directory is missing, damaged or belongs to another store). Messages never contain key material.
 */
public class PancakeException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public PancakeException(String message) {
    super(message);
  }

  public PancakeException(String message, Throwable cause) {
    super(message, cause);
  }
}
