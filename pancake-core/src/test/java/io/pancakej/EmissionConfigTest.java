package io.pancakej;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Properties;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The clock's properties, and the properties of the per-request emitter that no longer exist. */
class EmissionConfigTest {
  @TempDir
  Path dir;

  private PancakeConfig config(String property, String value) {
    Properties p = new Properties();
    p.setProperty(PancakeConfig.STATE_DIR_PROPERTY, dir.toString());
    if (property != null) {
      p.setProperty(property, value);
    }
    return PancakeConfig.fromProperties(p);
  }

  @Test
  void defaults_andParsedValues() {
    PancakeConfig d = config(null, null);
    assertEquals(6400.0, d.tickRateMax());
    assertEquals(64, d.tickBatchesMax());
    assertEquals(10_000, d.checkpointInterval().toMillis());
    assertEquals(2, config(PancakeConfig.TICK_BATCHES_MAX_PROPERTY, "2").tickBatchesMax());
    assertEquals(1000.0, config(PancakeConfig.TICK_RATE_MAX_PROPERTY, "1000").tickRateMax());
    assertEquals(500, config(PancakeConfig.CHECKPOINT_INTERVAL_PROPERTY, "0.5").checkpointInterval().toMillis());
  }

  @Test
  void outOfRangeValues_areConfigErrors_namingTheProperty() {
    String[][] bad = {
        {PancakeConfig.TICK_BATCHES_MAX_PROPERTY, "0"},
        {PancakeConfig.TICK_BATCHES_MAX_PROPERTY, "1025"},
        {PancakeConfig.TICK_RATE_MAX_PROPERTY, "0"},
        {PancakeConfig.CHECKPOINT_INTERVAL_PROPERTY, "0"},
        {PancakeConfig.CHECKPOINT_INTERVAL_PROPERTY, "-3"},
        {PancakeConfig.PACER_RATE_PROPERTY, "0"},
    };
    for (String[] b : bad) {
      ConfigException e = assertThrows(ConfigException.class, () -> config(b[0], b[1]), b[0] + "=" + b[1]);
      assertTrue(e.getMessage().contains(b[0]), e.getMessage());
    }
  }

  @Test
  void removedProperties_areRejected_sayingWhatReplacedThem() {
    for (String removed : new String[] {"pancake.pacer.fraction", "pancake.pacer.swap.rate", "pancake.store.combine"}) {
      ConfigException e = assertThrows(ConfigException.class, () -> config(removed, "auto"));
      assertTrue(e.getMessage().contains(removed) && e.getMessage().contains("was removed"), e.getMessage());
    }
  }
}
