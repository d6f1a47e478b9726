package io.pancakej.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import io.pancakej.StoreException;

/** A RocksDB directory held by another process: a clear error, and the data is untouched. */
class RocksDbLockTest {

  @Test
  @Timeout(value = 60, unit = TimeUnit.SECONDS)
  void directoryOpenInAnotherProcess_failsSayingItIsLocked_andLosesNothing(@TempDir Path dir) throws Exception {
    Path db = dir.resolve("rocksdb");
    Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx64m", "-cp", System.getProperty("java.class.path"), RocksDbHolder.class.getName(), db.toString())
        .redirectError(ProcessBuilder.Redirect.INHERIT).start();
    try {
      BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
      assertEquals("open", out.readLine(), "the child opened the database");

      StoreException e = assertThrows(StoreException.class, () -> RocksDbStore.open(db, 8));
      assertTrue(e.getMessage().contains("locked by another process"), e.getMessage());
      assertTrue(e.getMessage().contains(db.toAbsolutePath().normalize().toString()), "names the directory: " + e.getMessage());
      assertTrue(e.getCause() != null, "the cause is kept");

      child.getOutputStream().close(); // let the child close the database and exit
      assertTrue(child.waitFor(30, TimeUnit.SECONDS), "child exited");
      assertEquals(0, child.exitValue());
    } finally {
      child.destroyForcibly();
    }
    try (RocksDbStore store = RocksDbStore.open(db, 8)) {
      assertArrayEquals("by the child".getBytes(StandardCharsets.UTF_8), store.get("held".getBytes(StandardCharsets.UTF_8)));
    }
  }
}
