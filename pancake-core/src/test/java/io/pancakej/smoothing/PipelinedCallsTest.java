package io.pancakej.smoothing;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.pancakej.PancakeConfig;
import io.pancakej.StoreException;
import io.pancakej.store.ForwardingStore;
import io.pancakej.store.KvStore;
import io.pancakej.store.MemoryStore;

/**
 * Ticks whose calls are sent ahead of their replies ({@link KvStore#sendPutGet}), as on Redis: on
 * a store that runs each call only when its reply is awaited (as late as a pipelined store may),
 * no value is lost or read stale, and a call that fails when its reply is read fails its own
 * tick's requests and nothing else.
 */
class PipelinedCallsTest {
  @TempDir
  Path dir;

  /** Runs each call when its reply is awaited; while {@code failing}, that reply fails instead. */
  static final class DeferringStore extends ForwardingStore {
    volatile boolean failing;
    /** Each reply takes a millisecond: without the wait for tick k-L's serving, calls would pile up. */
    volatile boolean slowReplies;
    final AtomicInteger sent = new AtomicInteger();
    final AtomicInteger maxInFlight = new AtomicInteger();
    private final AtomicInteger inFlight = new AtomicInteger();

    DeferringStore(KvStore delegate) {
      super(delegate);
    }

    /** The memory store outlives the proxy that closes this one: the tests reopen on it. */
    @Override
    public void close() {
    }

    @Override
    public PendingReply sendPutGet(List<byte[]> putKeys, List<byte[]> putValues, List<byte[]> getKeys) {
      sent.incrementAndGet();
      maxInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
      List<byte[]> puts = List.copyOf(putKeys);
      List<byte[]> values = List.copyOf(putValues);
      List<byte[]> gets = List.copyOf(getKeys);
      boolean[] ran = new boolean[1];
      List<List<byte[]>> reply = new ArrayList<>(1);
      return () -> {
        synchronized (ran) {
          if (!ran[0]) {
            ran[0] = true;
            if (slowReplies) {
              java.util.concurrent.locks.LockSupport.parkNanos(1_000_000); // the serving falls behind the clock
            }
            inFlight.decrementAndGet();
            if (failing) {
              throw new StoreException("the call failed when its reply was read");
            }
            reply.add(delegate().multiPutGet(puts, values, gets));
          }
          if (reply.isEmpty()) {
            throw new StoreException("the call failed when its reply was read");
          }
          return reply.get(0);
        }
      };
    }
  }

  private PancakeConfig config(Path state, KvStore store) {
    return PancakeConfig.builder().stateDir(state).capacity(50).valueSize(16).keySize(16).seed(5).store(store).build();
  }

  @Test
  void callsRunOnlyWhenTheirRepliesAreRead_andEveryCallerReadsItsOwnWrites_beforeAndAfterAReopen() throws Exception {
    MemoryStore memory = new MemoryStore();
    DeferringStore store = new DeferringStore(memory);
    store.slowReplies = true;
    Path state = dir.resolve("s");
    try (Proxy proxy = Proxy.open(config(state, store))) {
      TickPipelineTest.fourCallersWriteAndReadBack(proxy);
    }
    assertTrue(store.sent.get() > 100, "ticks sent: " + store.sent.get());
    assertTrue(store.maxInFlight.get() <= TickRunner.WRITE_BACK_LAG, "calls in flight at once: " + store.maxInFlight.get());
    // the serving falls behind the clock here: calls pile up past two, up to the lag
    assertTrue(store.maxInFlight.get() > 2, "calls in flight at once: " + store.maxInFlight.get());
    try (Proxy proxy = Proxy.open(config(state, new DeferringStore(memory)))) {
      for (int k = 0; k < 40; k++) {
        assertArrayEquals(value(k, 140 + k % 10), proxy.get(key(k)).orElseThrow(), "key " + k);
      }
    }
  }

  @Test
  void aReplyThatFails_failsItsTicksRequests_thenTheProxyGoesOn_andClosesAndReopens() throws Exception {
    MemoryStore memory = new MemoryStore();
    DeferringStore store = new DeferringStore(memory);
    Path state = dir.resolve("f");
    try (Proxy proxy = Proxy.open(config(state, store))) {
      proxy.put(key(1), value(1, 1));
      store.failing = true;
      StoreException e = assertThrows(StoreException.class, () -> proxy.get(key(1)));
      assertTrue(e.getMessage().contains("when its reply was read"), e.getMessage());
      store.failing = false;
      proxy.put(key(2), value(2, 2));
      assertArrayEquals(value(1, 1), proxy.get(key(1)).orElseThrow());
      assertArrayEquals(value(2, 2), proxy.get(key(2)).orElseThrow());
    } // close waits for every tick's serving: it would hang if a failed tick kept its phase stamp
    try (Proxy proxy = Proxy.open(config(state, new DeferringStore(memory)))) {
      assertArrayEquals(value(1, 1), proxy.get(key(1)).orElseThrow());
      assertArrayEquals(value(2, 2), proxy.get(key(2)).orElseThrow());
    }
  }

  private static byte[] key(int i) {
    return TickPipelineTest.key(i);
  }

  private static byte[] value(int k, int i) {
    return TickPipelineTest.value(k, i);
  }
}
