package io.pancakej.bench;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.pancakej.store.RocksDbStore;

/** {@link ClockLoop}'s failure path: a store that fails its calls fails the round, and no caller hangs. */
class ClockLoopTest {
  @Test
  void aFailingStore_failsTheRound_insteadOfHangingItsCallers(@TempDir Path dir) {
    RocksDbStore store = RocksDbStore.open(dir.resolve("db"), 8);
    StoreLoop.load(store, 10);
    store.close(); // every call now throws
    PrintStream quiet = new PrintStream(PrintStream.nullOutputStream());
    IllegalStateException e = assertTimeoutPreemptively(Duration.ofSeconds(20), () -> assertThrows(
        IllegalStateException.class, () -> ClockLoop.run(store, 4, 400, 10, 1000, 1, 1, quiet)));
    assertTrue(e.getMessage().startsWith("a tick's store call failed: "), e.getMessage());
  }
}
