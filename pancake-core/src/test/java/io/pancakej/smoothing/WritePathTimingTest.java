package io.pancakej.smoothing;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
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

  /**
   * A checkpoint's sealing and saving run on a thread at nice 19 (the snapshot is still copied
   * under the phase lock, by the emitter between two ticks, at the normal priority): at the normal priority
   * they held the serving thread and the caller off their CPU for milliseconds, and the emitter,
   * waiting for that serving, skipped points the store saw (results/timing/serving-wait). The
   * checkpoints still run on their schedule and a reopen finds what they saved.
   */
  @Test
  void checkpointsAreSaved_onAThreadAtTheLowestPriority() throws Exception {
    assumeTrue(onPath("renice"), "renice (util-linux) is not installed");
    byte[] value = "v".getBytes(StandardCharsets.UTF_8);
    MemoryStore store = new MemoryStore();
    try (Proxy proxy = Proxy.open(PancakeConfig.builder().stateDir(dir.resolve("n")).capacity(50).valueSize(16)
        .keySize(16).checkpointInterval(Duration.ofMillis(100)).store(store).build())) {
      long tid = proxy.checkpointer.saverThreadId;
      assertTrue(tid > 0, "the saver thread did not lower its priority");
      assertEquals(LowPriority.NICE, nice(tid), "the saver thread's nice value");
      proxy.put(key("k"), value);
      long before = proxy.checkpointer.checkpoints.sum();
      long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
      while (proxy.checkpointer.checkpoints.sum() < before + 2 && System.nanoTime() < deadline) {
        Thread.sleep(20);
      }
      assertTrue(proxy.checkpointer.checkpoints.sum() >= before + 2, "checkpoints saved on the saver thread");
      assertEquals(tid, proxy.checkpointer.lastSaveThreadId, "the last save ran on the saver thread");
    }
    try (Proxy proxy = Proxy.open(PancakeConfig.builder().stateDir(dir.resolve("n")).capacity(50).valueSize(16)
        .keySize(16).store(store.reopen()).build())) {
      assertArrayEquals(value, proxy.get(key("k")).orElseThrow());
    }
  }

  /**
   * Every open rehearses a checkpoint's path before the clock starts, even a reopen whose saved
   * state is current (an empty log), and leaves that state alone: the first save loads classes and
   * bootstraps call sites under the JVM's class and compile locks, and done by the nice-19 saver
   * while the ticks ran it held the emitter on them for 30-270 ms
   * (results/timing/off-slot-silences). Without the rehearsal the reopen below counts none.
   */
  @Test
  void everyOpen_rehearsesACheckpointBeforeTheClockStarts_andLeavesTheStateAlone() throws Exception {
    MemoryStore store = new MemoryStore();
    PancakeConfig.Builder config = PancakeConfig.builder().stateDir(dir.resolve("o")).capacity(50).valueSize(16)
        .keySize(16).checkpointInterval(Duration.ofSeconds(60));
    try (Proxy proxy = Proxy.open(config.store(store).build())) {
      proxy.put(key("k"), "v".getBytes(StandardCharsets.UTF_8));
    }
    byte[] saved = Files.readAllBytes(dir.resolve("o").resolve(StateDirectory.STATE_FILE));
    try (Proxy proxy = Proxy.open(config.store(store.reopen()).build())) {
      assertEquals(1, proxy.checkpointer.rehearsals.sum(), "rehearsals at the reopen");
      assertEquals(0, proxy.checkpointer.checkpoints.sum(), "checkpoints at the reopen (its state was current)");
      if (proxy.checkpointer.saverThreadId > 0) {
        assertEquals(proxy.checkpointer.saverThreadId, proxy.checkpointer.lastSaveThreadId,
            "the rehearsal ran on the saver thread");
      }
      assertEquals(0, proxy.pauses.atOnceRun(), "the rehearsal's copy ran before the emitter, not as a pause of it");
      assertArrayEquals(saved, Files.readAllBytes(dir.resolve("o").resolve(StateDirectory.STATE_FILE)),
          "the rehearsal re-sealed the state");
      assertFalse(Files.exists(dir.resolve("o").resolve(StateDirectory.REHEARSAL_FILE)), "the scratch file is left");
    }
  }

  /**
   * Every open rehearses a plan change on the planner's thread before the clock starts (the first
   * one loads classes and bootstraps call sites under the JVM's locks while the emitter runs,
   * results/timing/plan-rehearsal) and changes nothing: no transition, no plan saved or left in
   * the state directory, the plan in force the same. Without the rehearsal the count below is 0.
   */
  @Test
  void everyOpen_rehearsesAPlanChangeBeforeTheClockStarts_andChangesNothing() throws Exception {
    MemoryStore memory = new MemoryStore();
    PancakeConfig.Builder config = PancakeConfig.builder().stateDir(dir.resolve("p")).capacity(50).valueSize(16)
        .keySize(16).checkpointInterval(Duration.ofSeconds(60));
    ReplicaPlan planBefore;
    try (Proxy proxy = Proxy.open(config.store(memory).build())) {
      proxy.put(key("k"), "v".getBytes(StandardCharsets.UTF_8));
      planBefore = proxy.phase.target;
    }
    try (Proxy proxy = Proxy.open(config.store(memory.reopen()).build())) {
      assertEquals(1, proxy.transitions.rehearsals, "plan-change rehearsals at the reopen");
      assertEquals(0, proxy.transitions.count(), "transitions started");
      assertEquals(0, proxy.checkpointer.plansSavedAhead.sum(), "plans saved ahead");
      assertArrayEquals(planBefore.ownerOf, proxy.phase.target.ownerOf, "the plan in force changed");
      try (java.util.stream.Stream<Path> files = Files.list(dir.resolve("p"))) {
        assertEquals(java.util.List.of(), files.map(f -> f.getFileName().toString()).filter(n -> n.startsWith("plan"))
            .toList(), "plan files left in the state directory");
      }
    }
  }

  /**
   * A rehearsal that fails (here its scratch file's name is taken by a directory that cannot be
   * replaced) is logged and fails no open: the proxy opens, serves, and counts no rehearsal.
   */
  @Test
  void aPlanChangeRehearsalThatFails_failsNoOpen() throws Exception {
    Path state = dir.resolve("f");
    Files.createDirectories(state.resolve(StateDirectory.PLAN_REHEARSAL_FILE).resolve("in-the-way"));
    PancakeConfig config = PancakeConfig.builder().stateDir(state).capacity(50).valueSize(16).keySize(16)
        .store(new MemoryStore()).build();
    try (Proxy proxy = Proxy.open(config)) {
      assertEquals(0, proxy.transitions.rehearsals, "a rehearsal counted though its save failed");
      proxy.put(key("k"), "v".getBytes(StandardCharsets.UTF_8));
      assertArrayEquals("v".getBytes(StandardCharsets.UTF_8), proxy.get(key("k")).orElseThrow());
    }
  }

  private static boolean onPath(String command) {
    for (String d : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
      if (Files.isExecutable(Path.of(d, command))) {
        return true;
      }
    }
    return false;
  }

  /** A thread's nice value, from /proc (the field after the priority). */
  private static int nice(long tid) throws java.io.IOException {
    String stat = Files.readString(Path.of("/proc/self/task/" + tid + "/stat"));
    return Integer.parseInt(stat.substring(stat.lastIndexOf(')') + 2).split(" ")[16]);
  }

  @Test
  void checkpoints_runOnTheirSchedule_withNothingWritten() throws Exception {
    try (Proxy proxy = Proxy.open(PancakeConfig.builder().stateDir(dir.resolve("s")).capacity(50).valueSize(16)
        .keySize(16).checkpointInterval(Duration.ofMillis(100)).store(new MemoryStore()).build())) {
      long before = proxy.checkpointer.checkpoints.sum();
      Thread.sleep(1_000);
      long taken = proxy.checkpointer.checkpoints.sum() - before;
      // ten are due; a loaded machine may lose a few to scheduling (the saves run at nice 19), an
      // idle proxy must not skip them
      assertTrue(taken >= 3 && taken <= 11, taken + " checkpoints in 1 s at one per 100 ms with no write");
    }
  }

  /**
   * The checkpoint schedule reads the proxy's clock, the one the emitter keeps, not the system's
   * time: with the clock standing still no checkpoint falls due however long the test waits, and
   * one is taken in the emitter's slot once the clock moves past it.
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
      // a scheduled checkpoint gets ready a quarter of the interval before its slot and waits for it
      clock.now += Duration.ofMillis(80).toNanos();
      Thread.sleep(300);
      assertEquals(before, proxy.checkpointer.checkpoints.sum(), "no checkpoint before its slot");
      clock.now += Duration.ofMillis(70).toNanos();
      long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
      while (proxy.checkpointer.checkpoints.sum() == before && System.nanoTime() < deadline) {
        Thread.sleep(5);
      }
      assertEquals(before + 1, proxy.checkpointer.checkpoints.sum(), "one checkpoint once the clock passed its slot");
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
