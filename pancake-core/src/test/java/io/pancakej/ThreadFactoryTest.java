package io.pancakej;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.pancakej.store.MemoryStore;

/**
 * The client's background threads come from the application's factory when it gives one, and
 * close stops every one of them: with non-daemon threads a client that left one running would
 * keep the JVM alive.
 */
class ThreadFactoryTest {
  @TempDir
  Path dir;

  @Test
  void everyBackgroundThread_comesFromTheFactory_andCloseStopsThemAll() throws Exception {
    List<Thread> made = new CopyOnWriteArrayList<>();
    AtomicInteger n = new AtomicInteger();
    ThreadFactory factory = r -> {
      Thread t = new Thread(r, "app-worker-" + n.incrementAndGet());
      t.setDaemon(false); // the application's choice: these would keep the JVM alive
      made.add(t);
      return t;
    };
    MemoryStore store = new MemoryStore();
    byte[] value = "v".getBytes(StandardCharsets.UTF_8);
    try (PancakeClient client = PancakeClient.open(PancakeConfig.builder().stateDir(dir.resolve("s")).capacity(20)
        .valueSize(16).keySize(16).threadFactory(factory).store(store).build())) {
      client.put("k".getBytes(StandardCharsets.UTF_8), value);
      assertArrayEquals(value, client.get("k".getBytes(StandardCharsets.UTF_8)).orElseThrow());
      // the clock, serving, answers, log writer, checkpoint and estimator threads
      assertTrue(made.size() >= 6, made.size() + " threads from the factory: " + made);
      for (Thread t : Thread.getAllStackTraces().keySet()) {
        assertFalse(t.getName().startsWith("pancake-"), "a thread not from the factory: " + t.getName());
      }
    }
    for (Thread t : made) {
      t.join(5_000); // close has returned: nothing should be left to wait for
      assertFalse(t.isAlive(), t.getName() + " still runs after close");
    }
    // a reopen (loading the saved state in the background) uses the factory too
    int before = made.size();
    try (PancakeClient client = PancakeClient.open(PancakeConfig.builder().stateDir(dir.resolve("s")).capacity(20)
        .valueSize(16).keySize(16).createIfMissing(false).threadFactory(factory).store(store.reopen()).build())) {
      assertArrayEquals(value, client.get("k".getBytes(StandardCharsets.UTF_8)).orElseThrow());
      assertTrue(made.size() > before + 6, "state loading and the client's threads: " + (made.size() - before));
    }
    for (Thread t : made) {
      t.join(5_000);
      assertFalse(t.isAlive(), t.getName() + " still runs after close");
    }
  }

  @Test
  void aFactoryThatReturnsNoThread_failsTheOpenClearly_andLeavesNothingBehind() throws Exception {
    Path state = dir.resolve("t");
    MemoryStore store = new MemoryStore();
    ConfigException e = assertThrows(ConfigException.class, () -> PancakeClient.open(PancakeConfig.builder()
        .stateDir(state).capacity(20).valueSize(16).keySize(16).threadFactory(r -> null).store(store).build()).close());
    assertTrue(e.getMessage().contains("thread factory returned no thread"), e.getMessage());
    assertFalse(java.nio.file.Files.exists(state.resolve("state.bin")), "no state was created");
    assertEquals(0, store.size(), "nothing was written to the store");
    try (PancakeClient client = PancakeClient.open(PancakeConfig.builder().stateDir(state).capacity(20).valueSize(16)
        .keySize(16).store(store).build())) {
      assertTrue(client.get("k".getBytes(StandardCharsets.UTF_8)).isEmpty(), "a fixed configuration opens");
    }
  }

  /**
   * A factory that fails once the open has started its threads (here: when the serving thread is
   * made, after the log writer's) fails the open with its error, leaves none of the threads it made
   * running -- before the fix the log writer's stayed parked, and being non-daemon would have kept
   * the JVM alive -- and loses nothing: the next open serves the value.
   */
  @Test
  void aFactoryThatFailsMidOpen_leavesNoThreadRunning_andLosesNothing() throws Exception {
    Path state = dir.resolve("m");
    MemoryStore store = new MemoryStore();
    byte[] key = "k".getBytes(StandardCharsets.UTF_8);
    byte[] value = "v".getBytes(StandardCharsets.UTF_8);
    try (PancakeClient client = PancakeClient.open(PancakeConfig.builder().stateDir(state).capacity(20).valueSize(16)
        .keySize(16).store(store).build())) {
      client.put(key, value);
    }
    List<Thread> made = new CopyOnWriteArrayList<>();
    List<Thread> logWriters = new CopyOnWriteArrayList<>();
    ThreadFactory failsOnAPool = r -> {
      if (r.getClass().getName().contains("ThreadPoolExecutor$Worker")) {
        return null; // the serving thread's pool, started once the log writer runs
      }
      Thread t = new Thread(r, "app-worker-" + made.size());
      t.setDaemon(false);
      made.add(t);
      if (r.getClass().getName().contains("LogWriter")) {
        logWriters.add(t);
      }
      return t;
    };
    PancakeException e = assertThrows(PancakeException.class, () -> PancakeClient.open(PancakeConfig.builder()
        .stateDir(state).capacity(20).valueSize(16).keySize(16).createIfMissing(false).threadFactory(failsOnAPool)
        .store(store.reopen()).build()).close());
    assertTrue(e.getMessage().contains("returned no thread"), e.getMessage());
    assertEquals(1, logWriters.size(), "the log writer's thread came from the factory: " + made);
    assertTrue(logWriters.get(0).getState() != Thread.State.NEW, "the open failed after the log writer started");
    for (Thread t : made) {
      t.join(5_000);
      assertFalse(t.isAlive(), t.getName() + " still runs after the failed open");
    }
    try (PancakeClient client = PancakeClient.open(PancakeConfig.builder().stateDir(state).capacity(20).valueSize(16)
        .keySize(16).createIfMissing(false).store(store.reopen()).build())) {
      assertArrayEquals(value, client.get(key).orElseThrow(), "the value stored before the failed open");
    }
  }
}
