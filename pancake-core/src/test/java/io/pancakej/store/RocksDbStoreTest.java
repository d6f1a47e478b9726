package io.pancakej.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

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
    try (Stream<Path> walk = Files.walk(dir)) {
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
}
