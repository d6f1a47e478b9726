package io.pancakej.smoothing;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.pancakej.PancakeConfig;
import io.pancakej.PancakeException;
import io.pancakej.store.CountingStore;
import io.pancakej.store.MemoryStore;

/**
 * The write path off the clock (issue #19, item 2): checkpoints on a schedule that does not
 * depend on writes, and a log failure that fails the writes without changing what the store sees.
 */
class WritePathTimingTest {
  @TempDir
  Path dir;

  private static byte[] key(String k) {
    return k.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void checkpoints_runOnTheirSchedule_withNothingWritten() throws Exception {
    try (Proxy proxy = Proxy.open(PancakeConfig.builder().stateDir(dir.resolve("s")).capacity(50).valueSize(16)
        .keySize(16).checkpointInterval(Duration.ofMillis(100)).store(new MemoryStore()).build())) {
      long before = proxy.checkpointer.checkpoints.sum();
      Thread.sleep(1_000);
      long taken = proxy.checkpointer.checkpoints.sum() - before;
      // ten are due; a loaded machine may lose a few to scheduling, an idle proxy must not skip them
      assertTrue(taken >= 5 && taken <= 11, taken + " checkpoints in 1 s at one per 100 ms with no write");
    }
  }

  /**
   * The checkpoint schedule reads the proxy's clock, the one the emitter keeps, not the system's
   * time: with the clock standing still no checkpoint falls due however long the test waits, and
   * one falls due as soon as the clock moves past the interval.
   */
  @Test
  void checkpoints_followTheProxysClock_notTheSystemsTime() throws Exception {
    StillClock clock = new StillClock();
    try (Proxy proxy = ProxyOpener.open(PancakeConfig.builder().stateDir(dir.resolve("c")).capacity(50).valueSize(16)
        .keySize(16).checkpointInterval(Duration.ofMillis(100)).store(new MemoryStore()).build(), clock)) {
      assertSame(clock, proxy.clock);
      long before = proxy.checkpointer.checkpoints.sum();
      Thread.sleep(600); // six intervals of the system's time
      assertEquals(before, proxy.checkpointer.checkpoints.sum(), "no checkpoint while the proxy's clock stands still");
      clock.now += Duration.ofMillis(150).toNanos();
      long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
      while (proxy.checkpointer.checkpoints.sum() == before && System.nanoTime() < deadline) {
        Thread.sleep(5);
      }
      assertEquals(before + 1, proxy.checkpointer.checkpoints.sum(), "one checkpoint once the clock passed one interval");
    }
  }

  /**
   * A log that fails (its file closed under it) fails the write that needed it and every later
   * write, with a message naming the log; reads of durable data go on, and the store keeps seeing
   * the same ticks: as many calls per second after the failure as before.
   */
  @Test
  void logFailure_failsWrites_butNotTheTicks() throws Exception {
    CountingStore store = new CountingStore(new MemoryStore());
    Proxy proxy = Proxy.open(PancakeConfig.builder().stateDir(dir.resolve("f")).capacity(50).valueSize(16)
        .keySize(16).pacerRate(200).tickRateMax(200).store(store).build());
    try {
      proxy.put(key("kept"), key("v1"));
      long calls0 = store.snapshot().roundTrips();
      Thread.sleep(500);
      long callsBefore = store.snapshot().roundTrips() - calls0;

      java.lang.reflect.Field channel = proxy.wal.getClass().getDeclaredField("channel");
      channel.setAccessible(true);
      ((FileChannel) channel.get(proxy.wal)).close();
      // and the mapped chunks dropped (the current one and the one prepared ahead): the next record
      // needs a new one from the closed file
      for (String name : new String[] {"chunk", "spare"}) {
        java.lang.reflect.Field chunk = proxy.wal.getClass().getDeclaredField(name);
        chunk.setAccessible(true);
        chunk.set(proxy.wal, null);
      }
      PancakeException failed = assertThrows(PancakeException.class, () -> proxy.put(key("lost"), key("v2")));
      assertTrue(failed.getMessage().contains("write-ahead log"), failed.getMessage());
      PancakeException later = assertThrows(PancakeException.class, () -> proxy.put(key("kept"), key("v3")));
      assertTrue(later.getMessage().contains("write-ahead log"), later.getMessage());
      assertArrayEquals(key("v1"), proxy.get(key("kept")).orElseThrow(), "durable data still reads");

      long calls1 = store.snapshot().roundTrips();
      Thread.sleep(500);
      long callsAfter = store.snapshot().roundTrips() - calls1;
      assertTrue(Math.abs(callsAfter - callsBefore) <= Math.max(10, callsBefore / 5),
          "store calls per 500 ms changed with the log failure: " + callsBefore + " before, " + callsAfter + " after");
      assertEquals(0, proxy.stats().queued());
    } finally {
      try {
        proxy.close();
      } catch (PancakeException closing) {
        // close may report the failed log (its checkpoint cannot use a closed file): expected here
      }
    }
  }
}
