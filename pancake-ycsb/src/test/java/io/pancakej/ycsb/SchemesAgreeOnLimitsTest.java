package io.pancakej.ycsb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.function.Consumer;
import java.util.function.IntConsumer;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.pancakej.ConfigException;
import io.pancakej.PancakeConfig;
import io.pancakej.baseline.EncryptedClient;
import io.pancakej.baseline.InsecureClient;
import io.pancakej.crypto.MasterKey;
import io.pancakej.detworam.DetWoOramClient;
import io.pancakej.pathoram.PathOramClient;
import io.pancakej.store.MemoryStore;

/**
 * Every scheme takes the same key and value sizes and refuses the same ones with the same
 * message: a workload one scheme accepts, the others accept too (before the limits were shared,
 * Path ORAM and DetWoORAM stopped at 16 MiB values where PANCAKE went to 64 MiB, and the
 * baselines had no upper bound at all).
 */
class SchemesAgreeOnLimitsTest {
  private static final int MIB = 1 << 20;
  private static final MasterKey KEY = MasterKey.generate(new SecureRandom());

  @TempDir
  Path dir;

  /** Each scheme's value size setting; building a baseline client on a memory store allocates nothing per size. */
  private static Map<String, IntConsumer> valueSizeSetters() {
    Map<String, IntConsumer> m = new LinkedHashMap<>();
    m.put("pancake", v -> PancakeConfig.builder().valueSize(v));
    m.put("pathoram", v -> PathOramClient.builder().valueSize(v));
    m.put("detworam", v -> DetWoOramClient.builder().valueSize(v));
    m.put("encrypted", v -> EncryptedClient.builder().store(new MemoryStore())
        .masterKey(KEY).valueSize(v).keySize(128).build().close());
    m.put("insecure", v -> InsecureClient.builder().store(new MemoryStore()).valueSize(v).keySize(128).build().close());
    return m;
  }

  private static Map<String, IntConsumer> keySizeSetters() {
    Map<String, IntConsumer> m = new LinkedHashMap<>();
    m.put("pancake", k -> PancakeConfig.builder().keySize(k));
    m.put("pathoram", k -> PathOramClient.builder().keySize(k));
    m.put("detworam", k -> DetWoOramClient.builder().keySize(k));
    m.put("encrypted", k -> EncryptedClient.builder().store(new MemoryStore())
        .masterKey(KEY).valueSize(1200).keySize(k).build().close());
    m.put("insecure", k -> InsecureClient.builder().store(new MemoryStore())
        .valueSize(1200).keySize(k).build().close());
    return m;
  }

  /** Each scheme opened from properties (a bad size is refused before any store or state is touched). */
  private Map<String, Consumer<Properties>> openers() {
    Map<String, Consumer<Properties>> m = new LinkedHashMap<>();
    m.put("pancake", PancakeConfig::fromProperties);
    m.put("pathoram", p -> PathOramClient.open(p).close());
    m.put("detworam", p -> DetWoOramClient.open(p).close());
    m.put("encrypted", p -> EncryptedClient.open(p).close());
    m.put("insecure", p -> InsecureClient.open(p).close());
    return m;
  }

  @Test
  void everySchemeTakesValuesUpTo64MiB_andRefusesOneByteMore_withTheSameMessage() {
    String expected = "pancake.value.size must be between 1 and 64 MiB, got " + (64 * MIB + 1);
    valueSizeSetters().forEach((scheme, valueSize) -> {
      valueSize.accept(1);
      valueSize.accept(32 * MIB);
      valueSize.accept(64 * MIB);
      assertEquals(expected, assertThrows(ConfigException.class, () -> valueSize.accept(64 * MIB + 1), scheme)
          .getMessage(), scheme);
      assertTrue(assertThrows(ConfigException.class, () -> valueSize.accept(0), scheme).getMessage()
          .startsWith("pancake.value.size must be between 1 and 64 MiB"), scheme);
    });
  }

  @Test
  void everySchemeTakesKeysUpTo65535Bytes_andRefusesOneByteMore_withTheSameMessage() {
    keySizeSetters().forEach((scheme, keySize) -> {
      keySize.accept(65_535);
      assertEquals("pancake.key.size must be between 1 and 65535, got 65536",
          assertThrows(ConfigException.class, () -> keySize.accept(65_536), scheme).getMessage(), scheme);
    });
  }

  @Test
  void everySchemeOpenedFromProperties_refusesAValueSizeAbove64MiB_namingTheProperty() {
    openers().forEach((scheme, open) -> {
      Properties p = new Properties();
      p.setProperty("pancake.store", "memory");
      p.setProperty("pancake.state.dir", dir.resolve(scheme).toString());
      p.setProperty("pancake.capacity", "4");
      p.setProperty("pancake.value.size", Integer.toString(64 * MIB + 1));
      ConfigException e = assertThrows(ConfigException.class, () -> open.accept(p), scheme);
      assertEquals("pancake.value.size must be between 1 and 64 MiB, got " + (64 * MIB + 1), e.getMessage(), scheme);
      p.setProperty("pancake.value.size", "many");
      e = assertThrows(ConfigException.class, () -> open.accept(p), scheme);
      assertEquals("property pancake.value.size must be an integer, got 'many'", e.getMessage(), scheme);
    });
  }
}
