package io.pancakej.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import io.pancakej.StoreException;
import io.pancakej.testing.KvStoreContractTest;

/** Combining keeps the store contract, groups concurrent gets and puts, and fails whole groups. */
class CombiningStoreTest extends KvStoreContractTest {
  @Override
  protected KvStore newStore() {
    return new CombiningStore(new MemoryStore());
  }

  /**
   * Eight threads each own eight keys and repeatedly read them and write them back incremented,
   * as PANCAKE batches do (a key is never read and written by two threads at once). Every
   * increment must survive, and the mixed calls must have been grouped into fewer store calls.
   */
  @Test
  void concurrentReadModifyWrites_onDisjointKeys_loseNothing_andAreGrouped() throws Exception {
    CountingStore counting = new CountingStore(new MemoryStore());
    int threads = 8;
    int rounds = 2_000;
    try (CombiningStore combining = new CombiningStore(counting)) {
      ExecutorService pool = Executors.newFixedThreadPool(threads);
      CountDownLatch start = new CountDownLatch(1);
      List<Future<?>> futures = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int owner = t;
        futures.add(pool.submit(() -> {
          start.await();
          List<byte[]> keys = new ArrayList<>();
          for (int k = 0; k < 8; k++) {
            keys.add(new byte[] {(byte) owner, (byte) k});
          }
          for (int r = 0; r < rounds; r++) {
            List<byte[]> values = combining.multiGet(keys);
            List<byte[]> next = new ArrayList<>();
            for (byte[] v : values) {
              next.add(ByteBuffer.allocate(4).putInt(v == null ? 1 : ByteBuffer.wrap(v).getInt() + 1).array());
            }
            combining.multiPut(keys, next);
          }
          return null;
        }));
      }
      start.countDown();
      for (Future<?> f : futures) {
        f.get(60, TimeUnit.SECONDS);
      }
      pool.shutdown();
      for (int t = 0; t < threads; t++) {
        for (int k = 0; k < 8; k++) {
          assertEquals(rounds, ByteBuffer.wrap(counting.get(new byte[] {(byte) t, (byte) k})).getInt());
        }
      }
    }
    CountingStore.Counts c = counting.snapshot();
    long calls = 2L * threads * rounds;
    assertEquals(calls * 8 / 2 + 8L * 8, c.keysRead()); // the final check reads one key at a time
    assertTrue(c.roundTrips() < calls, "expected grouping: " + c.roundTrips() + " store calls for " + calls);
  }

  @Test
  void aFailingGroupCall_failsItsCallers_withAStoreException_andLaterCallsWork() {
    AtomicInteger failures = new AtomicInteger(1);
    MemoryStore memory = new MemoryStore();
    KvStore flaky = new KvStore() {
      @Override
      public List<byte[]> multiGet(List<byte[]> keys) {
        if (failures.getAndDecrement() > 0) {
          throw new IllegalStateException("injected");
        }
        return memory.multiGet(keys);
      }

      @Override
      public void multiPut(List<byte[]> keys, List<byte[]> values) {
        memory.multiPut(keys, values);
      }

      @Override
      public void multiDelete(List<byte[]> keys) {
        memory.multiDelete(keys);
      }

      @Override
      public String describe() {
        return "flaky";
      }

      @Override
      public void close() {
        memory.close();
      }
    };
    try (CombiningStore combining = new CombiningStore(flaky)) {
      StoreException e = assertThrows(StoreException.class, () -> combining.multiGet(List.of(new byte[] {1})));
      assertTrue(e.getMessage().contains("injected"), e.getMessage());
      combining.multiPut(List.of(new byte[] {1}), List.of(new byte[] {9}));
      assertArrayEquals(new byte[] {9}, combining.multiGet(List.of(new byte[] {1})).get(0));
    }
  }
}
