package io.pancakej.smoothing;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.pancakej.PancakeConfig;
import io.pancakej.store.MemoryStore;

/** Reference-model checks of the engine, single and multi-threaded, and replica convergence. */
class ProxyCorrectnessTest {
  @TempDir
  Path dir;

  private Proxy open(MemoryStore store, int capacity) {
    return Proxy.open(PancakeConfig.builder().stateDir(dir.resolve("state")).capacity(capacity)
        .valueSize(64).keySize(32).pacerRate(2000).seed(7).store(store).build());
  }

  private static byte[] key(int i) {
    return ("user" + i).getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void randomOperations_matchReferenceModel_singleThread() {
    MemoryStore store = new MemoryStore();
    try (Proxy proxy = open(store, 300)) {
      Map<Integer, byte[]> model = new HashMap<>();
      Random rnd = new Random(1);
      for (int op = 0; op < 20_000; op++) {
        int k = rnd.nextInt(200);
        switch (rnd.nextInt(4)) {
          case 0: {
            Optional<byte[]> got = proxy.get(key(k));
            byte[] want = model.get(k);
            if (want == null) {
              assertTrue(got.isEmpty(), "key " + k + " should be absent at op " + op);
            } else {
              assertArrayEquals(want, got.orElseThrow(), "key " + k + " at op " + op);
            }
            break;
          }
          case 1: {
            byte[] v = ("v" + op).getBytes(StandardCharsets.UTF_8);
            proxy.put(key(k), v);
            model.put(k, v);
            break;
          }
          case 2: {
            boolean updated = proxy.update(key(k), old -> concat(old, "+u"));
            assertEquals(model.containsKey(k), updated);
            model.computeIfPresent(k, (kk, old) -> concat(old, "+u"));
            break;
          }
          default: {
            assertEquals(model.containsKey(k), proxy.delete(key(k)));
            model.remove(k);
          }
        }
      }
      quiesce(proxy);
      assertEquals(0, proxy.stats().updateCacheEntries());
      assertEveryReplicaHoldsLatest(proxy, model);
    }
  }

  @Test
  void concurrentIncrements_loseNoUpdate_andReplicasConverge() throws Exception {
    MemoryStore store = new MemoryStore();
    int threads = 8;
    int keys = 20;
    int perThread = 1500;
    try (Proxy proxy = open(store, 64)) {
      for (int k = 0; k < keys; k++) {
        proxy.put(key(k), ByteBuffer.allocate(8).putLong(0).array());
      }
      ExecutorService pool = Executors.newFixedThreadPool(threads);
      List<Future<?>> futures = new ArrayList<>();
      ConcurrentHashMap<Integer, Long> expected = new ConcurrentHashMap<>();
      for (int t = 0; t < threads; t++) {
        int seed = t;
        futures.add(pool.submit(() -> {
          Random rnd = new Random(seed);
          for (int i = 0; i < perThread; i++) {
            int k = rnd.nextInt(keys);
            assertTrue(proxy.update(key(k), old -> ByteBuffer.allocate(8).putLong(ByteBuffer.wrap(old).getLong() + 1).array()));
            expected.merge(k, 1L, Long::sum);
            // read-your-writes: a later read by this thread sees at least its own increment
            long seen = ByteBuffer.wrap(proxy.get(key(k)).orElseThrow()).getLong();
            assertTrue(seen >= 1);
          }
        }));
      }
      for (Future<?> f : futures) {
        f.get(120, TimeUnit.SECONDS);
      }
      pool.shutdown();
      Map<Integer, byte[]> model = new HashMap<>();
      for (int k = 0; k < keys; k++) {
        long want = expected.getOrDefault(k, 0L);
        assertEquals(want, ByteBuffer.wrap(proxy.get(key(k)).orElseThrow()).getLong(), "counter " + k);
        model.put(k, ByteBuffer.allocate(8).putLong(want).array());
      }
      quiesce(proxy);
      assertEveryReplicaHoldsLatest(proxy, model);
    }
  }

  /**
   * Requests send nothing of their own: with the clock pinned at 100 ticks of one batch per
   * second, 150 requests (absent keys among them) are all answered -- absent ones "absent" -- while
   * the batches sent stay within what the clock allowed in that time, far below one per request.
   */
  @Test
  void requests_sendNoBatchOfTheirOwn_andAbsentKeysAreServedLikeOthers() throws Exception {
    MemoryStore store = new MemoryStore();
    try (Proxy proxy = Proxy.open(PancakeConfig.builder().stateDir(dir.resolve("state")).capacity(200)
        .valueSize(64).keySize(32).pacerRate(100).tickRateMax(100).tickBatchesMax(1).seed(7).store(store).build())) {
      for (int k = 0; k < 20; k++) {
        proxy.put(key(k), new byte[] {(byte) k});
      }
      long t0 = System.nanoTime();
      long before = proxy.stats().batches();
      java.util.List<java.util.concurrent.CompletableFuture<java.util.Optional<byte[]>>> gets = new java.util.ArrayList<>();
      for (int i = 0; i < 150; i++) {
        gets.add(proxy.getAsync(key(i % 2 == 0 ? i % 20 : 1000 + i)));
      }
      java.util.concurrent.CompletableFuture<Boolean> absentUpdate = proxy.updateAsync(key(999), v -> v);
      java.util.concurrent.CompletableFuture<Boolean> absentDelete = proxy.deleteAsync(key(998));
      for (int i = 0; i < gets.size(); i++) {
        java.util.Optional<byte[]> v = gets.get(i).get(60, java.util.concurrent.TimeUnit.SECONDS);
        if (i % 2 == 0) {
          assertArrayEquals(new byte[] {(byte) (i % 20)}, v.orElseThrow(), "key " + i % 20);
        } else {
          assertTrue(v.isEmpty());
        }
      }
      assertFalse(absentUpdate.get(60, java.util.concurrent.TimeUnit.SECONDS));
      assertFalse(absentDelete.get(60, java.util.concurrent.TimeUnit.SECONDS));
      double seconds = (System.nanoTime() - t0) / 1e9;
      long sent = proxy.stats().batches() - before;
      assertTrue(sent <= 100 * seconds + 3, sent + " batches in " + seconds + " s: more than the clock sends");
      assertTrue(sent < 152, sent + " batches for 152 requests");
    }
  }

  /**
   * Asynchronous answers complete on the client's one callback thread: not a tick's thread, and
   * not a thread per completion (CompletableFuture's default executor starts one per completion
   * when the machine has fewer than three cores, which cost 4x in throughput on two). The thread
   * stops at close. Fails on a client that completes them with {@code whenCompleteAsync} alone
   * (300 completions on 300 threads).
   */
  @Test
  void asyncAnswers_completeOnOneCallbackThread_whichStopsAtClose() throws Exception {
    MemoryStore store = new MemoryStore();
    java.util.Set<Thread> ran = java.util.concurrent.ConcurrentHashMap.newKeySet();
    Proxy proxy = open(store, 100);
    try {
      for (int k = 0; k < 20; k++) {
        proxy.put(key(k), new byte[] {(byte) k});
      }
      java.util.List<java.util.concurrent.CompletableFuture<?>> pending = new java.util.ArrayList<>();
      for (int i = 0; i < 300; i++) {
        java.util.concurrent.CompletableFuture<?> f = i % 3 == 0
            ? proxy.putAsync(key(i % 20), new byte[] {(byte) i})
            : proxy.getAsync(key(i % 40));
        pending.add(f.whenComplete((v, e) -> ran.add(Thread.currentThread())));
      }
      for (java.util.concurrent.CompletableFuture<?> f : pending) {
        f.get(60, java.util.concurrent.TimeUnit.SECONDS);
      }
    } finally {
      proxy.close();
    }
    // a callback attached after its future completed runs on the attaching thread (here main), as
    // CompletableFuture specifies; every other one must have run on the one callback thread
    ran.remove(Thread.currentThread());
    assertEquals(1, ran.size(), "callbacks ran on " + ran.size() + " threads besides the caller's, e.g. " + ran.stream().findFirst().orElse(null));
    Thread callbacks = ran.iterator().next();
    assertEquals("pancake-callbacks", callbacks.getName());
    callbacks.join(10_000);
    assertFalse(callbacks.isAlive(), "the callback thread outlived close");
  }

  @Test
  void stateSurvivesReopen_includingPendingUpdates() {
    MemoryStore store = new MemoryStore();
    Map<Integer, byte[]> model = new HashMap<>();
    try (Proxy proxy = open(store, 50)) {
      for (int k = 0; k < 40; k++) {
        byte[] v = ("value-" + k).getBytes(StandardCharsets.UTF_8);
        proxy.put(key(k), v);
        model.put(k, v);
      }
    }
    // MemoryStore.close() only flips a flag; reuse its contents through a fresh wrapper
    MemoryStore again = reopenMemory(store);
    try (Proxy proxy = Proxy.open(PancakeConfig.builder().stateDir(dir.resolve("state")).valueSize(64)
        .keySize(32).pacerRate(2000).seed(8).createIfMissing(false).store(again).build())) {
      for (Map.Entry<Integer, byte[]> e : model.entrySet()) {
        assertArrayEquals(e.getValue(), proxy.get(key(e.getKey())).orElseThrow());
      }
      quiesce(proxy);
      assertEveryReplicaHoldsLatest(proxy, model);
    }
  }

  @Test
  void slotDeletedWhileInUse_isFreedByTheNextOpen() throws Exception {
    MemoryStore store = new MemoryStore();
    int boundBefore;
    try (Proxy proxy = open(store, 50)) {
      proxy.put(key(1), "one".getBytes(StandardCharsets.UTF_8));
      proxy.put(key(2), "two".getBytes(StandardCharsets.UTF_8));
      // a request still holding the key's slot when its deletion completes keeps it bound ...
      java.lang.reflect.Field keysField = Proxy.class.getDeclaredField("keys");
      keysField.setAccessible(true);
      KeyTable keys = (KeyTable) keysField.get(proxy);
      int slot = keys.acquire(key(1), false);
      assertTrue(proxy.delete(key(1)));
      quiesce(proxy);
      assertEquals(slot, proxy.keys.peek(key(1)), "the slot is in use, so it stays bound for now");
      boundBefore = proxy.stats().keys();
      // ... and the process ends before that request gave it back
    }
    try (Proxy proxy = Proxy.open(PancakeConfig.builder().stateDir(dir.resolve("state")).valueSize(64)
        .keySize(32).pacerRate(2000).seed(8).createIfMissing(false).store(reopenMemory(store)).build())) {
      assertEquals(-1, proxy.keys.peek(key(1)), "the deleted key's slot must not stay bound across a reopen");
      assertEquals(boundBefore - 1, proxy.stats().keys());
      assertTrue(proxy.get(key(1)).isEmpty());
      assertArrayEquals("two".getBytes(StandardCharsets.UTF_8), proxy.get(key(2)).orElseThrow());
      proxy.put(key(1), "again".getBytes(StandardCharsets.UTF_8));
      assertArrayEquals("again".getBytes(StandardCharsets.UTF_8), proxy.get(key(1)).orElseThrow());
    }
  }

  static MemoryStore reopenMemory(MemoryStore closed) {
    return closed.reopen();
  }

  private static byte[] concat(byte[] a, String suffix) {
    byte[] s = suffix.getBytes(StandardCharsets.UTF_8);
    byte[] out = new byte[a.length + s.length];
    System.arraycopy(a, 0, out, 0, a.length);
    System.arraycopy(s, 0, out, a.length, s.length);
    return out;
  }

  /** Sends batches with no requests until every pending update reached every replica. */
  static void quiesce(Proxy proxy) {
    for (int i = 0; i < 2_000_000 && proxy.stats().updateCacheEntries() > 0; i++) {
      ProxyProbe.idleBatch(proxy);
    }
    assertEquals(0, proxy.stats().updateCacheEntries(), "UpdateCache did not drain");
    proxy.log.drain(); // slots whose deletion completed are freed on the log writer's thread
  }

  static void assertEveryReplicaHoldsLatest(Proxy proxy, Map<Integer, byte[]> model) {
    ReplicaPlan plan = proxy.phase.target;
    for (int k = 0; k < 400; k++) {
      int slot = proxy.keys.peek(key(k));
      if (slot < 0) {
        continue;
      }
      byte[] want = model.get(k);
      for (int j = 0; j < plan.replicaCount(slot); j++) {
        byte[] got = ProxyProbe.readReplicaValue(proxy, plan.replica(slot, j));
        if (want == null) {
          assertNull(got, "replica " + j + " of deleted key " + k);
        } else {
          assertArrayEquals(want, got, "replica " + j + " of key " + k);
        }
      }
    }
  }
}
