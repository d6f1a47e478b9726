package io.pancakej;

/** A key or value is larger than the configured maximum; the message names the property to raise. */
public class ValueTooLargeException extends PancakeException {
  private static final long serialVersionUID = 1L;

  public ValueTooLargeException(String message) {
    super(message);
  }

  public ValueTooLargeException(String message, Throwable cause) {
    super(message, cause);
  }
}
