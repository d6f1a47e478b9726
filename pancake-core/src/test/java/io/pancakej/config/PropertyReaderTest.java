package io.pancakej.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Properties;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

import io.pancakej.ConfigException;

class PropertyReaderTest {
  private enum Mode { OFF, WRITE, FSYNC }

  private static Properties props(String... namesAndValues) {
    Properties p = new Properties();
    for (int i = 0; i < namesAndValues.length; i += 2) {
      p.setProperty(namesAndValues[i], namesAndValues[i + 1]);
    }
    return p;
  }

  /** The reader fails with a ConfigException whose message names the property and quotes the bad value. */
  private static ConfigException refused(Executable read, String property, String value, String... more) {
    ConfigException e = assertThrows(ConfigException.class, read, property + "=" + value);
    String m = e.getMessage();
    assertTrue(m.contains(property), m);
    assertTrue(m.contains("'" + value + "'"), m);
    for (String s : more) {
      assertTrue(m.contains(s), "should mention '" + s + "': " + m);
    }
    return e;
  }

  @Test
  void unsetAndBlankProperties_giveTheDefault() {
    for (Properties p : new Properties[] {props(), props("x", ""), props("x", "  \t")}) {
      assertFalse(PropertyReader.isSet(p, "x"));
      assertEquals("d", PropertyReader.string(p, "x", "d"));
      assertEquals(Path.of("d"), PropertyReader.path(p, "x", Path.of("d")));
      assertNull(PropertyReader.path(p, "x", null));
      assertEquals(7, PropertyReader.intValue(p, "x", 7));
      assertEquals(7, PropertyReader.intValue(p, "x", 7, 1, 10));
      assertEquals(1L << 40, PropertyReader.longValue(p, "x", 1L << 40));
      assertEquals(2.5, PropertyReader.doubleValue(p, "x", 2.5));
      assertEquals(2.5, PropertyReader.doubleValue(p, "x", 2.5, 0, 3));
      assertTrue(PropertyReader.bool(p, "x", true));
      assertFalse(PropertyReader.bool(p, "x", false));
      assertEquals(Mode.WRITE, PropertyReader.enumValue(p, "x", Mode.class, Mode.WRITE));
    }
  }

  @Test
  void values_areTrimmed_andParsed() {
    assertTrue(PropertyReader.isSet(props("x", " 0 "), "x"));
    assertEquals("redis-1", PropertyReader.string(props("x", " redis-1 "), "x", "d"));
    assertEquals(Path.of("data/state"), PropertyReader.path(props("x", " data/state "), "x", null));
    assertEquals(-12, PropertyReader.intValue(props("x", " -12 "), "x", 0));
    assertEquals(1L << 40, PropertyReader.longValue(props("x", "1099511627776"), "x", 0));
    assertEquals(0.25, PropertyReader.doubleValue(props("x", " 0.25 "), "x", 0));
    assertEquals(1e6, PropertyReader.doubleValue(props("x", "1e6"), "x", 0));
    assertTrue(PropertyReader.bool(props("x", " TRUE "), "x", false));
    assertFalse(PropertyReader.bool(props("x", "False"), "x", true));
    assertEquals(Mode.FSYNC, PropertyReader.enumValue(props("x", " fsync "), "x", Mode.class, Mode.WRITE));
    assertEquals(Mode.OFF, PropertyReader.enumValue(props("x", "OFF"), "x", Mode.class, Mode.WRITE));
  }

  @Test
  void malformedValues_areConfigErrors_namingThePropertyAndTheValue() {
    refused(() -> PropertyReader.intValue(props("pancake.batch.size", "three"), "pancake.batch.size", 3),
        "pancake.batch.size", "three", "an integer");
    refused(() -> PropertyReader.intValue(props("pancake.capacity", "99999999999"), "pancake.capacity", 0),
        "pancake.capacity", "99999999999", "an integer");
    refused(() -> PropertyReader.intValue(props("redis.port", "1.5"), "redis.port", 6379, 1, 65535),
        "redis.port", "1.5", "an integer");
    refused(() -> PropertyReader.longValue(props("pancake.seed", "0x10"), "pancake.seed", 0),
        "pancake.seed", "0x10", "an integer");
    refused(() -> PropertyReader.doubleValue(props("pancake.pacer.rate", "fast"), "pancake.pacer.rate", 100),
        "pancake.pacer.rate", "fast", "a number");
    refused(() -> PropertyReader.bool(props("pancake.adapt", "yes"), "pancake.adapt", true),
        "pancake.adapt", "yes", "true or false");
    refused(() -> PropertyReader.enumValue(props("pancake.wal.sync", "always"), "pancake.wal.sync", Mode.class,
        Mode.WRITE), "pancake.wal.sync", "always", "[off, write, fsync]");
  }

  @Test
  void ranges_includeTheirBounds_andRefuseWhatIsOutside_namingTheRange() {
    assertEquals(1, PropertyReader.intValue(props("redis.port", "1"), "redis.port", 6379, 1, 65535));
    assertEquals(65535, PropertyReader.intValue(props("redis.port", "65535"), "redis.port", 6379, 1, 65535));
    for (String port : new String[] {"0", "-1", "65536"}) {
      refused(() -> PropertyReader.intValue(props("redis.port", port), "redis.port", 6379, 1, 65535),
          "redis.port", port, "1..65535");
    }
    assertEquals(0.01, PropertyReader.doubleValue(props("i", "0.01"), "i", 10, 0.01, 86_400));
    assertEquals(86_400, PropertyReader.doubleValue(props("i", "86400"), "i", 10, 0.01, 86_400));
    for (String interval : new String[] {"0", "0.009", "86400.5", "NaN", "-Infinity"}) {
      refused(() -> PropertyReader.doubleValue(props("i", interval), "i", 10, 0.01, 86_400), "i", interval,
          "0.01..86400");
    }
  }
}
