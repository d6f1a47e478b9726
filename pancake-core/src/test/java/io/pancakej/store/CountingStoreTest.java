package io.pancakej.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import io.pancakej.StoreException;
import io.pancakej.store.CountingStore.Counts;

class CountingStoreTest {

  @Test
  void counts_roundTripsKeysAndBytes_perOperation() {
    byte[] a = label(1);
    byte[] b = label(2);
    byte[] absent = label(3);
    try (CountingStore store = new CountingStore(new MemoryStore())) {
      assertEquals(Counts.ZERO, store.snapshot());

      store.multiPut(List.of(a, b), List.of(new byte[100], new byte[50]));
      assertEquals(new Counts(1, 0, 2, 0, 0, 16 + 100 + 16 + 50), store.snapshot());

      // a present key (16 + 100 bytes), an absent one (16 + 0), the first again
      store.multiGet(List.of(a, absent, a));
      assertEquals(new Counts(2, 3, 2, 0, 116 + 16 + 116, 182), store.snapshot());

      store.multiDelete(List.of(b, absent));
      assertEquals(new Counts(3, 3, 2, 2, 248, 182 + 32), store.snapshot());

      store.get(new byte[3]);
      store.put(new byte[3], new byte[7]);
      assertEquals(new Counts(5, 4, 3, 2, 248 + 3, 214 + 10), store.snapshot());

      // one round trip: b written (16 + 20), then a (116) and b (36) read
      store.multiPutGet(List.of(b), List.of(new byte[20]), List.of(a, b));
      assertEquals(new Counts(6, 6, 4, 2, 251 + 116 + 36, 224 + 36), store.snapshot());
    }
  }

  private static byte[] label(int first) {
    byte[] l = new byte[16];
    l[0] = (byte) first;
    return l;
  }

  @Test
  void emptyBatches_andFailedOperations_countNothing() {
    CountingStore store = new CountingStore(new MemoryStore());
    store.multiGet(List.of());
    store.multiPut(List.of(), List.of());
    store.multiDelete(List.of());
    store.close();
    assertThrows(StoreException.class, () -> store.get(new byte[1]));
    assertEquals(Counts.ZERO, store.snapshot());
  }

  @Test
  void aCallSentAhead_countsOnceWhenItsReplyIsRead_andNothingIfItFails() {
    byte[] a = label(1);
    MemoryStore memory = new MemoryStore();
    boolean[] fail = new boolean[1];
    KvStore deferring = new ForwardingStore(memory) {
      @Override
      public PendingReply sendPutGet(List<byte[]> putKeys, List<byte[]> putValues, List<byte[]> getKeys) {
        return () -> {
          if (fail[0]) {
            throw new StoreException("the call failed");
          }
          return memory.multiPutGet(putKeys, putValues, getKeys);
        };
      }
    };
    try (CountingStore store = new CountingStore(deferring)) {
      KvStore.PendingReply reply = store.sendPutGet(List.of(a), List.of(new byte[10]), List.of(a));
      assertEquals(Counts.ZERO, store.snapshot(), "not counted before its reply is read");
      reply.await();
      reply.await();
      assertEquals(new Counts(1, 1, 1, 0, 16 + 10, 16 + 10), store.snapshot());
      fail[0] = true;
      KvStore.PendingReply failed = store.sendPutGet(List.of(a), List.of(new byte[10]), List.of(a));
      assertThrows(StoreException.class, failed::await);
      assertEquals(new Counts(1, 1, 1, 0, 16 + 10, 16 + 10), store.snapshot());
    }
  }

  @Test
  void reset_zeroesEveryCounter_andMinusGivesTheWorkBetweenSnapshots() {
    try (CountingStore store = new CountingStore(new MemoryStore())) {
      store.put(new byte[2], new byte[3]);
      Counts before = store.snapshot();
      store.get(new byte[2]);
      assertEquals(new Counts(1, 1, 0, 0, 5, 0), store.snapshot().minus(before));
      store.reset();
      assertEquals(Counts.ZERO, store.snapshot());
    }
  }

  @Test
  void counts_areExact_underEightConcurrentThreads() throws Exception {
    int threads = 8;
    int opsPerThread = 500;
    try (CountingStore store = new CountingStore(new MemoryStore())) {
      ExecutorService pool = Executors.newFixedThreadPool(threads);
      try {
        List<Future<?>> done = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
          byte thread = (byte) t;
          done.add(pool.submit(() -> {
            for (int i = 0; i < opsPerThread; i++) {
              store.multiPut(List.of(new byte[] {thread, 1}, new byte[] {thread, 2}), List.of(new byte[10], new byte[10]));
              store.multiGet(List.of(new byte[] {thread, 1}));
            }
          }));
        }
        for (Future<?> f : done) {
          f.get(30, TimeUnit.SECONDS);
        }
      } finally {
        pool.shutdownNow();
      }
      long n = (long) threads * opsPerThread;
      assertEquals(new Counts(2 * n, n, 2 * n, 0, 12 * n, 24 * n), store.snapshot());
    }
  }

  @Test
  void describe_andClose_reachTheDelegate() {
    MemoryStore memory = new MemoryStore("mem-x");
    CountingStore store = new CountingStore(memory);
    assertEquals("mem-x", store.describe());
    store.close();
    assertThrows(StoreException.class, () -> memory.get(new byte[1]));
  }
}
