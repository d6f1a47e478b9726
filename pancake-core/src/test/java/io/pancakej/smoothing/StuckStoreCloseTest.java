package io.pancakej.smoothing;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import io.pancakej.PancakeConfig;
import io.pancakej.PancakeException;
import io.pancakej.StateException;
import io.pancakej.store.ForwardingStore;
import io.pancakej.store.KvStore;
import io.pancakej.store.MemoryStore;

/**
 * A store call that never returns (an application's own {@link KvStore}, a Redis client with no
 * timeout) must not hang {@link Proxy#close}: close gives the emitter a bounded time, then fails
 * what waits, closes without its final checkpoint, says why, and keeps the state directory locked
 * until the call returns (a late call must not land under a proxy reopened meanwhile). Nothing
 * acknowledged is lost: the reopen recovers it from the state file and the log.
 */
class StuckStoreCloseTest {
  @TempDir
  Path dir;

  /**
   * Where a call hangs: in the emitter's send; in the serving thread's wait for the reply (the
   * emitter then waits for that serving, or stops); the same with 4 ticks a second, the emitter then
   * waiting for the phase lock the stuck serving holds, in a slot or for the checkpoint asked for;
   * in the last write-backs' calls, at close, after every tick was served.
   */
  enum Where { SEND, REPLY, REPLY_SLOW_TICKS, FLUSH }

  /** A store whose calls block, once armed, until released. */
  static final class StuckStore extends ForwardingStore {
    final Where where;
    final AtomicBoolean armed = new AtomicBoolean();
    final CountDownLatch blocked = new CountDownLatch(1);
    final CountDownLatch release = new CountDownLatch(1);

    StuckStore(KvStore delegate, Where where) {
      super(delegate);
      this.where = where;
    }

    private void maybeBlock() {
      long slow = slowMillis;
      if (slow > 0) {
        try {
          Thread.sleep(slow);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
      if (armed.get()) {
        blocked.countDown();
        try {
          release.await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
    }

    @Override
    public List<byte[]> multiPutGet(List<byte[]> putKeys, List<byte[]> putValues, List<byte[]> getKeys) {
      if (where != Where.FLUSH) {
        maybeBlock();
      }
      return super.multiPutGet(putKeys, putValues, getKeys);
    }

    @Override
    public PendingReply sendPutGet(List<byte[]> putKeys, List<byte[]> putValues, List<byte[]> getKeys) {
      if (where == Where.SEND || where == Where.FLUSH) {
        return standardSendPutGet(putKeys, putValues, getKeys); // through multiPutGet, on the emitter
      }
      List<byte[]> values = super.multiPutGet(putKeys, putValues, getKeys); // sent; the reply never comes
      return () -> {
        maybeBlock();
        return values;
      };
    }

    /** A pause in every call once armed, however it is made (a slow but healthy store). */
    volatile long slowMillis;

    @Override
    public void multiPut(List<byte[]> keys, List<byte[]> values) {
      maybeBlock();
      super.multiPut(keys, values);
    }

    @Override
    public List<byte[]> multiGet(List<byte[]> keys) {
      maybeBlock();
      return super.multiGet(keys);
    }
  }

  private Proxy open(Path state, KvStore store) {
    return open(state, store, 1000);
  }

  private Proxy open(Path state, KvStore store, double tickRateMax) {
    return Proxy.open(PancakeConfig.builder().stateDir(state).capacity(80).valueSize(48).keySize(16)
        .pacerRate(Math.min(1000, tickRateMax)).tickRateMax(tickRateMax).seed(5).createIfMissing(true).store(store)
        .build());
  }

  /** Puts keys 0..n-1 at once (a few ticks even at 4 a second), and waits for every acknowledgement. */
  private static void putAll(Proxy proxy, Map<Integer, byte[]> model, int n, String prefix) throws Exception {
    List<CompletableFuture<Void>> puts = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      byte[] v = (prefix + i).getBytes(StandardCharsets.UTF_8);
      puts.add(proxy.putAsync(key(i), v));
      model.put(i, v);
    }
    for (CompletableFuture<Void> f : puts) {
      f.get(60, TimeUnit.SECONDS);
    }
  }

  private static byte[] key(int i) {
    return ("k" + i).getBytes(StandardCharsets.UTF_8);
  }

  @ParameterizedTest
  @EnumSource(value = Where.class, names = {"SEND", "REPLY", "REPLY_SLOW_TICKS"})
  void aStoreCallThatNeverReturns_closeEndsInBoundedTime_failsWhatWaits_andLosesNothing(Where where) throws Exception {
    Rig rig = rig("state", where);
    Proxy proxy = open(rig.state(), rig.store(), where == Where.REPLY_SLOW_TICKS ? 4 : 1000);
    putAll(proxy, rig.model(), 40, "value-");
    proxy.checkpoint();
    putAll(proxy, rig.model(), 10, "later-"); // acknowledged after the last checkpoint: only the log has them
    ProxyProbe.emitterStopWait(proxy, Duration.ofSeconds(1));
    List<CompletableFuture<?>> before = new ArrayList<>(); // queued before the block: some in the stuck tick
    for (int i = 0; i < 100; i++) {
      before.add(proxy.getAsync(key(i % 40)));
    }
    rig.store().armed.set(true);
    assertTrue(rig.store().blocked.await(10, TimeUnit.SECONDS), "a call blocks");
    CompletableFuture<Object> waiting = CompletableFuture.supplyAsync(() -> proxy.get(key(3)));
    CompletableFuture<Void> asyncGet = proxy.getAsync(key(4)).thenApply(v -> null);
    CompletableFuture<Void> checkpointer = CompletableFuture.runAsync(proxy::checkpoint); // waits for a slot
    Thread.sleep(200); // they wait

    long start = System.nanoTime();
    PancakeException closed = assertTimeoutPreemptively(Duration.ofSeconds(60),
        () -> assertThrows(PancakeException.class, proxy::close), "close must not hang on a store call");
    double seconds = (System.nanoTime() - start) / 1e9;
    assertTrue(seconds < 6, "close took " + seconds + " s with a 1-s wait for the emitter");
    assertTrue(closed.getMessage().contains("has not returned"), closed.getMessage());
    for (CompletableFuture<?> f : List.of(waiting, asyncGet, checkpointer)) {
      try {
        f.get(5, TimeUnit.SECONDS);
        fail("a request or checkpoint asked for while the store was stuck succeeded");
      } catch (ExecutionException e) {
        assertFailedByClose(e); // not left hanging
      }
    }
    for (CompletableFuture<?> f : before) {
      try {
        f.get(5, TimeUnit.SECONDS); // answered before the block, or failed by close: never left waiting
      } catch (ExecutionException e) {
        assertFailedByClose(e);
      }
    }
    // the stuck call may still land: the state directory stays locked until it has returned
    StateException inUse = assertThrows(StateException.class, () -> open(rig.state(), new MemoryStore()).close());
    assertTrue(inUse.getMessage().contains("already open in this JVM"), inUse.getMessage());

    rig.store().release.countDown();
    Proxy reopened = null;
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (reopened == null) {
      try {
        reopened = open(rig.state(), rig.memory().reopen());
      } catch (StateException e) {
        if (System.nanoTime() > deadline) {
          throw e;
        }
        Thread.sleep(50);
      }
    }
    try (Proxy p = reopened) {
      assertEveryValue(p, rig.model());
      assertEquals(rig.model().size(), p.stats().keys());
    }
  }

  /** A {@link StuckStore} over a memory store, the state directory it is opened with, and a model of what was put. */
  private record Rig(Path state, MemoryStore memory, StuckStore store, Map<Integer, byte[]> model) {}

  private Rig rig(String stateDir, Where where) {
    MemoryStore memory = new MemoryStore();
    return new Rig(dir.resolve(stateDir), memory, new StuckStore(memory, where), new HashMap<>());
  }

  /** Every key of {@code model} reads its value. */
  private static void assertEveryValue(Proxy p, Map<Integer, byte[]> model) {
    for (Map.Entry<Integer, byte[]> e : model.entrySet()) {
      assertArrayEquals(e.getValue(), p.get(key(e.getKey())).orElseThrow(), "key " + e.getKey());
    }
  }

  private static void assertFailedByClose(ExecutionException e) {
    String m = String.valueOf(e.getCause().getMessage()).toLowerCase(java.util.Locale.ROOT);
    assertTrue(m.contains("closed"), "failed by something else than close: " + e.getCause());
  }

  @Test
  void aLastFlushThatNeverReturns_closeEndsInBoundedTime_andLosesNothing() throws Exception {
    Rig rig = rig("state-flush", Where.FLUSH);
    Proxy proxy = open(rig.state(), rig.store());
    putAll(proxy, rig.model(), 40, "value-");
    proxy.checkpoint();
    putAll(proxy, rig.model(), 10, "later-");
    ProxyProbe.emitterStopWait(proxy, Duration.ofSeconds(1));
    rig.store().armed.set(true); // the ticks' calls go on; the flush's multiPut blocks
    long start = System.nanoTime();
    PancakeException closed = assertTimeoutPreemptively(Duration.ofSeconds(60),
        () -> assertThrows(PancakeException.class, proxy::close), "close must not hang on the last flush");
    double seconds = (System.nanoTime() - start) / 1e9;
    assertTrue(rig.store().blocked.getCount() == 0, "the flush's call blocked");
    assertTrue(seconds < 10, "close took " + seconds + " s: at most the 5 s a flush gets, and the 1-s wait");
    assertTrue(closed.getMessage().contains("has not returned"), closed.getMessage());
    assertThrows(StateException.class, () -> open(rig.state(), new MemoryStore()).close()); // still locked
    rig.store().release.countDown();
    try (Proxy p = reopenWhenReleased(rig.state(), rig.memory())) {
      assertEveryValue(p, rig.model());
    }
  }

  private Proxy reopenWhenReleased(Path state, MemoryStore memory) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (true) {
      try {
        return open(state, memory.reopen());
      } catch (StateException e) {
        if (System.nanoTime() > deadline) {
          throw e;
        }
        Thread.sleep(50);
      }
    }
  }

  @Test
  void anInterruptDuringClose_ofASlowButHealthyStore_closesCleanly() throws Exception {
    Rig rig = rig("state-slow", Where.SEND);
    Proxy proxy = open(rig.state(), rig.store());
    putAll(proxy, rig.model(), 40, "value-");
    rig.store().slowMillis = 100; // every call, the flush's and the checkpoint's included, takes 100 ms
    CompletableFuture<Void> closing = new CompletableFuture<>();
    Thread closer = Waits.startDaemon("closer", proxy::close, closing);
    for (int i = 0; i < 10 && closer.isAlive(); i++) {
      Thread.sleep(60);
      closer.interrupt(); // again and again, while it closes
    }
    closing.get(60, TimeUnit.SECONDS); // closed cleanly: no exception
    rig.store().slowMillis = 0;
    try (Proxy p = open(rig.state(), rig.memory().reopen())) { // released at once
      assertEveryValue(p, rig.model());
    }
  }

  @Test
  void anInterruptedCloseFromACallback_ofASlowStore_closesCleanly() throws Exception {
    Rig rig = rig("state-callback", Where.SEND);
    Proxy proxy = open(rig.state(), rig.store());
    putAll(proxy, rig.model(), 40, "value-");
    for (int i = 0; i < 50; i++) {
      proxy.getAsync(key(i % 40)); // write-backs owed at close
    }
    rig.store().slowMillis = 100; // the last flush takes a while: close must wait for it, interrupted or not
    CompletableFuture<Void> closedInCallback = proxy.getAsync(key(1)).thenAccept(v -> {
      Thread.currentThread().interrupt(); // a callback that kept an interrupt, then closes (inline)
      proxy.close();
    });
    closedInCallback.get(60, TimeUnit.SECONDS); // no exception
    rig.store().slowMillis = 0;
    try (Proxy p = open(rig.state(), rig.memory().reopen())) { // released at once: nothing left running
      assertEveryValue(p, rig.model());
    }
  }

  @Test
  void anInterruptedClose_ofAHealthyStore_stillClosesCleanly() throws Exception {
    Path state = dir.resolve("state-interrupted");
    MemoryStore memory = new MemoryStore();
    Map<Integer, byte[]> model = new HashMap<>();
    for (int round = 0; round < 5; round++) {
      Proxy proxy = open(state, round == 0 ? memory : memory.reopen());
      List<CompletableFuture<?>> inFlight = new ArrayList<>();
      for (int i = 0; i < 40; i++) {
        byte[] v = ("r" + round + "-" + i).getBytes(StandardCharsets.UTF_8);
        model.put(i, v);
        inFlight.add(proxy.putAsync(key(i), v));
      }
      for (CompletableFuture<?> f : inFlight) {
        f.get(30, TimeUnit.SECONDS);
      }
      for (int i = 0; i < 100; i++) {
        proxy.getAsync(key(i % 40)); // ticks in flight at close
      }
      Thread.currentThread().interrupt();
      try {
        proxy.close(); // must not take the interrupt for a stuck store
      } finally {
        assertTrue(Thread.interrupted(), "close keeps the interrupt");
      }
    }
    try (Proxy p = open(state, memory.reopen())) { // the directory was released at once
      assertEveryValue(p, model);
    }
  }
}
