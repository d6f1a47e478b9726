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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

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

  /** Where a call hangs: in the emitter's send, or in the serving thread's wait for the reply. */
  enum Where { SEND, REPLY }

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
    return Proxy.open(PancakeConfig.builder().stateDir(state).capacity(80).valueSize(48).keySize(16)
        .pacerRate(1000).seed(5).createIfMissing(true).store(store).build());
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
    Proxy proxy = open(state, store);
    for (int i = 0; i < 40; i++) {
      byte[] v = ("value-" + i).getBytes(StandardCharsets.UTF_8);
      proxy.put(key(i), v);
      model.put(i, v);
    }
    proxy.checkpoint();
    for (int i = 0; i < 10; i++) { // acknowledged after the last checkpoint: only the log has them
      byte[] v = ("later-" + i).getBytes(StandardCharsets.UTF_8);
      proxy.put(key(i), v);
      model.put(i, v);
    }
    ProxyProbe.emitterStopWait(proxy, Duration.ofSeconds(1));
    store.armed.set(true);
    assertTrue(store.blocked.await(10, TimeUnit.SECONDS), "the emitter's next call blocks");
    CompletableFuture<Object> waiting = CompletableFuture.supplyAsync(() -> proxy.get(key(3)));
    CompletableFuture<Void> asyncGet = proxy.getAsync(key(4)).thenApply(v -> null);
    CompletableFuture<Void> checkpointer = CompletableFuture.runAsync(proxy::checkpoint); // waits for a slot

    PancakeException closed = assertTimeoutPreemptively(Duration.ofSeconds(60),
        () -> assertThrows(PancakeException.class, proxy::close), "close must not hang on a store call");
    assertTrue(closed.getMessage().contains("did not stop"), closed.getMessage());
    for (CompletableFuture<?> f : List.of(waiting, asyncGet, checkpointer)) {
      try {
        f.get(30, TimeUnit.SECONDS);
        fail("a request or checkpoint asked for while the store was stuck succeeded");
      } catch (ExecutionException expected) {
        // failed by close, not left hanging
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
}
