package io.pancakej.config;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.Properties;
import java.util.function.Function;

import io.pancakej.ConfigException;

/**
 * Internal (public only because the scheme modules use it): typed readers of
 * {@link Properties}. An unset or blank property gives the default; a value is trimmed; a bad
 * value is a {@link ConfigException} that names the property and quotes the value, so a user
 * knows which line of the configuration to fix.
 */
public final class PropertyReader {
  private PropertyReader() {}

  /** Whether {@code name} has a non-blank value. */
  public static boolean isSet(Properties props, String name) {
    String v = props.getProperty(name);
    return v != null && !v.isBlank();
  }

  /** The trimmed value, or {@code defaultValue} if unset. */
  public static String string(Properties props, String name, String defaultValue) {
    return isSet(props, name) ? props.getProperty(name).trim() : defaultValue;
  }

  /** A file or directory; {@code defaultValue} (may be null) if unset. */
  public static Path path(Properties props, String name, Path defaultValue) {
    return isSet(props, name) ? Path.of(props.getProperty(name).trim()) : defaultValue;
  }

  /** An integer. */
  public static int intValue(Properties props, String name, int defaultValue) {
    return number(props, name, defaultValue, Integer::valueOf, "an integer");
  }

  /** An integer in {@code min..max}; for settings that have no builder setter to check them. */
  public static int intValue(Properties props, String name, int defaultValue, int min, int max) {
    int v = intValue(props, name, defaultValue);
    if (v < min || v > max) {
      throw outOfRange(props, name, min + ".." + max);
    }
    return v;
  }

  /** A long integer. */
  public static long longValue(Properties props, String name, long defaultValue) {
    return number(props, name, defaultValue, Long::valueOf, "an integer");
  }

  /** A number. */
  public static double doubleValue(Properties props, String name, double defaultValue) {
    return number(props, name, defaultValue, Double::valueOf, "a number");
  }

  /** A number in {@code min..max} (NaN is outside every range); for settings with no builder setter. */
  public static double doubleValue(Properties props, String name, double defaultValue, double min, double max) {
    double v = doubleValue(props, name, defaultValue);
    if (!(v >= min && v <= max)) {
      throw outOfRange(props, name, format(min) + ".." + format(max));
    }
    return v;
  }

  /** {@code true} or {@code false}, in any case. */
  public static boolean bool(Properties props, String name, boolean defaultValue) {
    if (!isSet(props, name)) {
      return defaultValue;
    }
    switch (props.getProperty(name).trim().toLowerCase(Locale.ROOT)) {
      case "true":
        return true;
      case "false":
        return false;
      default:
        throw new ConfigException("property " + name + " must be true or false, got '" + props.getProperty(name) + "'");
    }
  }

  /** One of {@code type}'s constants, by name in any case. */
  public static <E extends Enum<E>> E enumValue(Properties props, String name, Class<E> type, E defaultValue) {
    if (!isSet(props, name)) {
      return defaultValue;
    }
    String v = props.getProperty(name).trim();
    for (E constant : type.getEnumConstants()) {
      if (constant.name().equalsIgnoreCase(v)) {
        return constant;
      }
    }
    throw new ConfigException("property " + name + " must be one of "
        + Arrays.toString(type.getEnumConstants()).toLowerCase(Locale.ROOT) + ", got '" + props.getProperty(name) + "'");
  }

  private static <T> T number(Properties props, String name, T defaultValue, Function<String, T> parse, String what) {
    if (!isSet(props, name)) {
      return defaultValue;
    }
    try {
      return parse.apply(props.getProperty(name).trim());
    } catch (NumberFormatException e) {
      throw new ConfigException("property " + name + " must be " + what + ", got '" + props.getProperty(name) + "'", e);
    }
  }

  private static ConfigException outOfRange(Properties props, String name, String range) {
    return new ConfigException("property " + name + " must be in " + range + ", got '"
        + props.getProperty(name, "").trim() + "'");
  }

  /** 86400.0 as "86400", 0.01 as "0.01". */
  private static String format(double d) {
    return d == Math.rint(d) && Math.abs(d) < 1e15 ? Long.toString((long) d) : Double.toString(d);
  }
}
