package io.pancakej;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Properties;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.pancakej.store.KvStore;
import io.pancakej.store.MemoryStore;

/** {@code pancake.store.combine}: auto (network stores only) unless forced either way. */
class StoreCombiningConfigTest {
  @TempDir
  Path dir;

  /** Stands in for a store reached over a network: not embedded. */
  private static final KvStore REMOTE = new KvStore() {
    @Override
    public List<byte[]> multiGet(List<byte[]> keys) {
      throw new UnsupportedOperationException();
    }

    @Override
    public void multiPut(List<byte[]> keys, List<byte[]> values) {
      throw new UnsupportedOperationException();
    }

    @Override
    public void multiDelete(List<byte[]> keys) {
      throw new UnsupportedOperationException();
    }

    @Override
    public boolean isEmpty() {
      throw new UnsupportedOperationException();
    }

    @Override
    public String describe() {
      return "remote";
    }

    @Override
    public void close() {}
  };

  private PancakeConfig config(String combine) {
    Properties p = new Properties();
    p.setProperty(PancakeConfig.STATE_DIR_PROPERTY, dir.toString());
    if (combine != null) {
      p.setProperty(PancakeConfig.COMBINE_PROPERTY, combine);
    }
    return PancakeConfig.fromProperties(p);
  }

  @Test
  void byDefault_andOnAuto_onlyNetworkStoresCombine() {
    try (MemoryStore memory = new MemoryStore()) {
      for (String value : new String[] {null, "", "auto", " AUTO "}) {
        assertTrue(config(value).combineStoreCalls(REMOTE), String.valueOf(value));
        assertFalse(config(value).combineStoreCalls(memory), String.valueOf(value));
      }
      assertTrue(config("true").combineStoreCalls(memory));
      assertFalse(config("false").combineStoreCalls(REMOTE));
    }
  }

  @Test
  void anyOtherValue_isAConfigError_namingTheProperty() {
    ConfigException e = assertThrows(ConfigException.class, () -> config("sometimes"));
    for (String word : new String[] {PancakeConfig.COMBINE_PROPERTY, "auto", "sometimes"}) {
      assertTrue(e.getMessage().contains(word), e.getMessage());
    }
  }
}
