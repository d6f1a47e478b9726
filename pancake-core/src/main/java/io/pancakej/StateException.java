package io.pancakej;

/** The proxy state directory is missing, unreadable, truncated, or belongs to a different store or configuration. */
public class StateException extends PancakeException {
  private static final long serialVersionUID = 1L;

  public StateException(String message) {
    super(message);
  }

  public StateException(String message, Throwable cause) {
    super(message, cause);
  }
}
