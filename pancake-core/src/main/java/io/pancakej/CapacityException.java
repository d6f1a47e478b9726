package io.pancakej;

/** The proxy has no free key slot (or replica) left for a new key; raise the capacity. */
public class CapacityException extends PancakeException {
  private static final long serialVersionUID = 1L;

  public CapacityException(String message) {
    super(message);
  }

  public CapacityException(String message, Throwable cause) {
    super(message, cause);
  }
}
