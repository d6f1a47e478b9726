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
   * emitter then waits for that serving, or stops); the same with few ticks a second, so that the
   * emitter reaches a slot and waits there for the phase lock the stuck serving holds.
   */
  enum Where { SEND, REPLY, REPLY_SLOW_TICKS }

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
      maybeBlock();
      return super.multiPutGet(putKeys, putValues, getKeys);
    }

    @Override
    public PendingReply sendPutGet(List<byte[]> putKeys, List<byte[]> putValues, List<byte[]> getKeys) {
      if (where == Where.SEND) {
        return standardSendPutGet(putKeys, putValues, getKeys); // through multiPutGet, on the emitter
      }
      List<byte[]> values = super.multiPutGet(putKeys, putValues, getKeys); // sent; the reply never comes
      return () -> {
        maybeBlock();
        return values;
      };
    }

    @Override
    public void multiPut(List<byte[]> keys, List<byte[]> values) {
      maybeBlock();
      super.multiPut(keys, values);
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
  @EnumSource(Where.class)
  void aStoreCallThatNeverReturns_closeEndsInBoundedTime_failsWhatWaits_andLosesNothing(Where where) throws Exception {
    Path state = dir.resolve("state");
    MemoryStore memory = new MemoryStore();
    StuckStore store = new StuckStore(memory, where);
    Map<Integer, byte[]> model = new HashMap<>();
    Proxy proxy = open(state, store, where == Where.REPLY_SLOW_TICKS ? 4 : 1000);
    putAll(proxy, model, 40, "value-");
    proxy.checkpoint();
    putAll(proxy, model, 10, "later-"); // acknowledged after the last checkpoint: only the log has them
    ProxyProbe.emitterStopWait(proxy, Duration.ofSeconds(1));
    List<CompletableFuture<?>> before = new ArrayList<>(); // queued before the block: some in the stuck tick
    for (int i = 0; i < 100; i++) {
      before.add(proxy.getAsync(key(i % 40)));
    }
    store.armed.set(true);
    assertTrue(store.blocked.await(10, TimeUnit.SECONDS), "a call blocks");
    CompletableFuture<Object> waiting = CompletableFuture.supplyAsync(() -> proxy.get(key(3)));
    CompletableFuture<Void> asyncGet = proxy.getAsync(key(4)).thenApply(v -> null);
    CompletableFuture<Void> checkpointer = CompletableFuture.runAsync(proxy::checkpoint); // waits for a slot
    Thread.sleep(200); // they wait

    long start = System.nanoTime();
    PancakeException closed = assertTimeoutPreemptively(Duration.ofSeconds(60),
        () -> assertThrows(PancakeException.class, proxy::close), "close must not hang on a store call");
    double seconds = (System.nanoTime() - start) / 1e9;
    assertTrue(seconds < 6, "close took " + seconds + " s with a 1-s wait for the emitter");
    assertTrue(closed.getMessage().contains("did not stop"), closed.getMessage());
    for (CompletableFuture<?> f : List.of(waiting, asyncGet, checkpointer)) {
      try {
        f.get(5, TimeUnit.SECONDS);
        fail("a request or checkpoint asked for while the store was stuck succeeded");
      } catch (ExecutionException expected) {
        // failed by close, not left hanging
      }
    }
    for (CompletableFuture<?> f : before) {
      try {
        f.get(5, TimeUnit.SECONDS); // answered before the block, or failed by close: never left waiting
      } catch (ExecutionException failedByClose) {
        // fine
      }
    }
    // the stuck call may still land: the state directory stays locked until it has returned
    StateException inUse = assertThrows(StateException.class, () -> open(state, new MemoryStore()).close());
    assertTrue(inUse.getMessage().contains("already open in this JVM"), inUse.getMessage());

    store.release.countDown();
    Proxy reopened = null;
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (reopened == null) {
      try {
        reopened = open(state, memory.reopen());
      } catch (StateException e) {
        if (System.nanoTime() > deadline) {
          throw e;
        }
        Thread.sleep(50);
      }
    }
    try (Proxy p = reopened) {
      for (Map.Entry<Integer, byte[]> e : model.entrySet()) {
        assertArrayEquals(e.getValue(), p.get(key(e.getKey())).orElseThrow(), "key " + e.getKey());
      }
      assertEquals(model.size(), p.stats().keys());
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
      for (Map.Entry<Integer, byte[]> e : model.entrySet()) {
        assertArrayEquals(e.getValue(), p.get(key(e.getKey())).orElseThrow(), "key " + e.getKey());
      }
    }
  }
}
