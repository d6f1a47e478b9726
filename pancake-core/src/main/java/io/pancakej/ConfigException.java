package io.pancakej;

/** A configuration value is missing, malformed or out of range; the message names the property. */
public class ConfigException extends PancakeException {
  private static final long serialVersionUID = 1L;

  public ConfigException(String message) {
    super(message);
  }

  public ConfigException(String message, Throwable cause) {
    super(message, cause);
  }
}
