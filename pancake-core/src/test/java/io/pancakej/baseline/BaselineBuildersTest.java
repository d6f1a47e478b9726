package io.pancakej.baseline;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import java.util.function.Function;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.pancakej.ConfigException;
import io.pancakej.KvClient;
import io.pancakej.ValueTooLargeException;
import io.pancakej.scheme.SchemeBuilder;
import io.pancakej.store.MemoryStore;

/**
 * The baselines are configured as the other schemes are: a builder on the shared
 * {@link SchemeBuilder}, and properties read through it, so a property is checked as its setter
 * checks it and one set of properties serves all five schemes.
 */
class BaselineBuildersTest {
  @TempDir
  Path dir;

  private int runs;

  /** A memory store, with a state directory of its own (a memory store is refused under an earlier run's key). */
  private Properties memory() {
    Properties p = new Properties();
    p.setProperty("pancake.store", "memory");
    p.setProperty("pancake.state.dir", dir.resolve("state" + runs++).toString());
    return p;
  }

  @Test
  void bothBuilders_areSchemeBuilders() {
    assertTrue(SchemeBuilder.class.isAssignableFrom(EncryptedClient.Builder.class));
    assertTrue(SchemeBuilder.class.isAssignableFrom(InsecureClient.Builder.class));
  }

  @Test
  void fromProperties_sizesHaveTheDefaults_orWhatIsSet_andAreReadAtEveryOpen() {
    for (Function<Properties, KvClient> open : java.util.List.<Function<Properties, KvClient>>of(
        EncryptedClient::open, InsecureClient::open)) {
      try (KvClient c = open.apply(memory())) {
        c.put(new byte[128], new byte[1200]);
        assertThrows(ValueTooLargeException.class, () -> c.put(new byte[129], new byte[1]));
        assertEquals("value of 1201 bytes exceeds pancake.value.size=1200; raise property pancake.value.size",
            assertThrows(ValueTooLargeException.class, () -> c.put(new byte[1], new byte[1201])).getMessage(),
            "nothing fixes the sizes of a baseline: no 'fixed when' in the message");
      }
      Properties p = memory();
      p.setProperty("pancake.value.size", "4096");
      p.setProperty("pancake.key.size", "32");
      p.setProperty("pancake.capacity", "100000000"); // set for the other schemes; a baseline has no fixed size
      try (KvClient c = open.apply(p)) {
        c.put(new byte[32], new byte[4096]);
        assertThrows(ValueTooLargeException.class, () -> c.put(new byte[33], new byte[1]));
        assertThrows(ValueTooLargeException.class, () -> c.put(new byte[1], new byte[4097]));
      }
      p.setProperty("pancake.key.size", "big");
      assertEquals("property pancake.key.size must be an integer, got 'big'",
          assertThrows(ConfigException.class, () -> open.apply(p)).getMessage());
    }
  }

  @Test
  void aBuilderWithoutAStore_isRefused_sayingSo() {
    assertTrue(assertThrows(ConfigException.class, () -> InsecureClient.builder().build()).getMessage()
        .contains("the insecure client needs a store"));
    assertTrue(assertThrows(ConfigException.class, () -> EncryptedClient.builder().build()).getMessage()
        .contains("the encrypted client needs a store"));
  }

  @Test
  void encrypted_withoutAMasterKey_usesTheKeyFile_createdOnce() {
    Path keyFile = dir.resolve("k").resolve("master.key");
    MemoryStore store = new MemoryStore();
    try (EncryptedClient c = EncryptedClient.builder().keyFile(keyFile).store(store).build()) {
      c.put(KvClient.utf8("k"), KvClient.utf8("v"));
    }
    assertTrue(Files.isRegularFile(keyFile));
    try (EncryptedClient c = EncryptedClient.builder().keyFile(keyFile).createIfMissing(false).store(store.reopen())
        .build()) {
      assertArrayEquals(KvClient.utf8("v"), c.get(KvClient.utf8("k")).orElseThrow(), "the same key file, the same labels");
    }
  }
}
