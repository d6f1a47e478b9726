package io.pancakej;

/** A ciphertext, label or sealed state file failed authentication: it was tampered with, read under the wrong label, or sealed under another master key. */
public class IntegrityException extends PancakeException {
  private static final long serialVersionUID = 1L;

  public IntegrityException(String message) {
    super(message);
  }

  public IntegrityException(String message, Throwable cause) {
    super(message, cause);
  }
}
