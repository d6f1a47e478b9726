package io.pancakej;

/** The key-value store failed or could not be reached. The cause is always kept. */
public class StoreException extends PancakeException {
  private static final long serialVersionUID = 1L;

  public StoreException(String message) {
    super(message);
  }

  public StoreException(String message, Throwable cause) {
    super(message, cause);
  }
}
