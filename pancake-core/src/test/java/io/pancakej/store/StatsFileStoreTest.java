package io.pancakej.store;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StatsFileStoreTest {
  @TempDir
  Path dir;

  @Test
  void close_writesCountsAndStorage_whenStatsFileIsSet() throws IOException {
    Path file = dir.resolve("stats.properties");
    Properties props = new Properties();
    props.setProperty(Stores.STORE_PROPERTY, "memory");
    props.setProperty(Stores.STATS_FILE_PROPERTY, file.toString());
    KvStore store = Stores.open(props);
    store.multiPut(List.of(new byte[] {1}, new byte[] {2}), List.of(new byte[10], new byte[20]));
    store.multiGet(List.of(new byte[] {1}, new byte[] {3}));
    store.close();
    store.close();

    Properties stats = new Properties();
    try (Reader r = Files.newBufferedReader(file)) {
      stats.load(r);
    }
    assertEquals("2", stats.getProperty("roundTrips"));
    assertEquals("2", stats.getProperty("keysRead"));
    assertEquals("2", stats.getProperty("keysWritten"));
    assertEquals("12", stats.getProperty("bytesRead"));
    assertEquals("32", stats.getProperty("bytesWritten"));
    assertEquals("2", stats.getProperty("storageEntries"));
    assertEquals("32", stats.getProperty("storageBytes"));
  }
}
