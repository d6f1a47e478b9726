package io.pancakej.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Properties;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import io.pancakej.ConfigException;
import io.pancakej.StoreException;
import io.pancakej.testing.KvStoreContractTest;

class RocksDbStoreTest extends KvStoreContractTest {
  private Path dir;

  @Override
  protected KvStore newStore() {
    try {
      dir = Files.createTempDirectory("pancake-rocksdb-test");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return RocksDbStore.open(dir);
  }

  @Override
  protected void cleanUp() {
    deleteTree(dir);
  }

  private static void deleteTree(Path root) {
    try (Stream<Path> walk = Files.walk(root)) {
      walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Test
  void open_twiceOnOneDirectory_failsSayingItIsLocked() {
    StoreException e = assertThrows(StoreException.class, () -> RocksDbStore.open(dir));
    assertTrue(e.getMessage().contains("locked"), e.getMessage());
    assertTrue(e.getMessage().contains(dir.toAbsolutePath().normalize().toString()), e.getMessage());
  }

  @Test
  void reopen_afterClose_keepsTheData() {
    store.put(bytes("k"), bytes("v"));
    store.close();
    try (RocksDbStore again = RocksDbStore.open(dir)) {
      assertArrayEquals(bytes("v"), again.get(bytes("k")));
    }
  }

  /**
   * The memtable is a hash of keys: keys of any length, and keys that share a long beginning, stay
   * apart, in the memtable and after a flush; and the emptiness check, an iterator, sees keys that
   * are only in the memtable (a prefix-mode iterator would not).
   */
  @Test
  void keysAroundTheHashPrefix_stayApart_andIsEmptySeesTheMemtable() {
    assertTrue(store.isEmpty());
    String shared = "0123456789abcdef"; // 16 bytes: keys around and beyond it
    List<byte[]> keys = List.of(bytes("a"), bytes("0123456789abcde"), bytes(shared), bytes(shared + "x"),
        bytes(shared + "y-and-more"), bytes(shared + "x" + "z".repeat(40)), bytes("user" + "0".repeat(30) + "1"),
        bytes("user" + "0".repeat(30) + "2"));
    for (int i = 0; i < keys.size(); i++) {
      store.put(keys.get(i), filled(50, (byte) i));
    }
    assertFalse(store.isEmpty(), "keys only in the memtable");
    for (int i = 0; i < keys.size(); i++) {
      assertArrayEquals(filled(50, (byte) i), store.get(keys.get(i)), "key " + i);
    }
    store.multiDelete(keys);
    assertTrue(store.isEmpty());
    store.put(keys.get(3), filled(50, (byte) 3));
    store.put(keys.get(4), filled(50, (byte) 4));
    store.close(); // flushes: the keys move to a table file
    try (RocksDbStore again = RocksDbStore.open(dir)) {
      assertFalse(again.isEmpty(), "keys only in a table file");
      assertEquals(null, again.get(keys.get(2)));
      assertArrayEquals(filled(50, (byte) 3), again.get(keys.get(3)));
      assertArrayEquals(filled(50, (byte) 4), again.get(keys.get(4)));
      assertEquals(null, again.get(keys.get(5)));
    }
  }

  /** The hash memtable takes no concurrent writes: without in-place updates the store must still open and work. */
  @Test
  void withoutInPlaceUpdates_theStoreOpensAndKeepsItsData() throws IOException {
    Path other = Files.createTempDirectory("pancake-rocksdb-noinplace");
    try {
      RocksDbStore.Tuning t = new RocksDbStore.Tuning(8, 64, false, 1);
      try (RocksDbStore s = RocksDbStore.open(other, t)) {
        for (int i = 0; i < 2000; i++) { // 2.6 MB: flushes after every MiB
          s.put(bytes("key-" + i), filled(1300, (byte) i));
        }
        assertArrayEquals(filled(1300, (byte) 7), s.get(bytes("key-7")));
      }
      try (RocksDbStore s = RocksDbStore.open(other, t)) {
        assertArrayEquals(filled(1300, (byte) 1999), s.get(bytes("key-1999")));
      }
    } finally {
      deleteTree(other);
    }
  }

  @Test
  void stores_opensRocksDbFromProperties() {
    store.close();
    java.util.Properties p = new java.util.Properties();
    p.setProperty(Stores.STORE_PROPERTY, "rocksdb");
    p.setProperty(Stores.ROCKSDB_DIR_PROPERTY, dir.toString());
    try (KvStore s = Stores.open(p)) {
      assertTrue(s.describe().startsWith("rocksdb:"), s.describe());
    }
  }

  @Test
  void inPlaceOverwrites_keepTheNewestValue_alsoWhenItGrows_andAcrossReopen() {
    byte[] k = bytes("k");
    for (int i = 0; i < 1000; i++) {
      store.put(k, filled(100, (byte) i)); // same size: overwritten in place
    }
    assertArrayEquals(filled(100, (byte) 999), store.get(k));
    store.put(k, filled(300, (byte) 7)); // larger: cannot go in place
    assertArrayEquals(filled(300, (byte) 7), store.get(k));
    store.put(k, filled(50, (byte) 8)); // smaller: in place, and the old tail is not returned
    assertArrayEquals(filled(50, (byte) 8), store.get(k));
    store.close();
    try (RocksDbStore again = RocksDbStore.open(dir)) {
      assertArrayEquals(filled(50, (byte) 8), again.get(k));
    }
  }

  @Test
  void overwritingFewKeys_stillFlushes_soTheWalStaysBounded() throws Exception {
    store.close();
    // 100 keys overwritten in place never fill a memtable; without the store's own flushes the
    // WAL would hold all 24 MiB written here
    try (RocksDbStore s = RocksDbStore.open(dir, new RocksDbStore.Tuning(8, 64, true, 1))) {
      List<byte[]> keys = new java.util.ArrayList<>();
      List<byte[]> values = new java.util.ArrayList<>();
      for (int i = 0; i < 100; i++) {
        keys.add(bytes("key" + i));
        values.add(filled(10_000, (byte) i));
      }
      for (int round = 0; round < 24; round++) {
        s.multiPut(keys, values);
      }
      long deadline = System.nanoTime() + 20_000_000_000L;
      while (filesEndingWith(".log") > 4L << 20 && System.nanoTime() < deadline) {
        Thread.sleep(50);
      }
      assertTrue(filesEndingWith(".log") <= 4L << 20, "WAL bytes: " + filesEndingWith(".log"));
      assertTrue(filesEndingWith(".sst") > 0, "no table was flushed");
      assertArrayEquals(filled(10_000, (byte) 42), s.get(bytes("key42")));
    }
  }

  @Test
  void close_flushesWhatWasWritten_soTheNextOpenReplaysNoWal() throws Exception {
    store.put(bytes("k"), filled(100_000, (byte) 1));
    store.close();
    assertEquals(0, filesEndingWith(".log"), "close left the writes only in the WAL");
    try (RocksDbStore again = RocksDbStore.open(dir)) {
      assertArrayEquals(filled(100_000, (byte) 1), again.get(bytes("k")));
    }
  }

  @Test
  void tuning_rejectsSizesThatAreNotPositive_namingTheProperty() {
    store.close();
    Properties p = new Properties();
    p.setProperty(Stores.ROCKSDB_DIR_PROPERTY, dir.toString());
    p.setProperty(RocksDbStore.MEMTABLE_MB_PROPERTY, "0");
    ConfigException e = assertThrows(ConfigException.class, () -> Stores.open(p));
    assertTrue(e.getMessage().contains(RocksDbStore.MEMTABLE_MB_PROPERTY), e.getMessage());
    p.remove(RocksDbStore.MEMTABLE_MB_PROPERTY);
    p.setProperty(RocksDbStore.FLUSH_AFTER_MB_PROPERTY, "-5");
    e = assertThrows(ConfigException.class, () -> Stores.open(p));
    assertTrue(e.getMessage().contains(RocksDbStore.FLUSH_AFTER_MB_PROPERTY), e.getMessage());
    p.remove(RocksDbStore.FLUSH_AFTER_MB_PROPERTY);
    p.setProperty(RocksDbStore.IN_PLACE_PROPERTY, "yes");
    e = assertThrows(ConfigException.class, () -> Stores.open(p));
    assertTrue(e.getMessage().contains(RocksDbStore.IN_PLACE_PROPERTY), e.getMessage());
  }

  private static byte[] filled(int length, byte b) {
    byte[] v = new byte[length];
    Arrays.fill(v, b);
    return v;
  }

  private long filesEndingWith(String suffix) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files.filter(f -> f.getFileName().toString().endsWith(suffix))
          .mapToLong(f -> f.toFile().length()).sum();
    }
  }
}
