package io.pancakej.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

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
    AtomicInteger mixedGroups = new AtomicInteger();
    KvStore recording = new ForwardingStore(counting) {
      @Override
      public List<byte[]> multiPutGet(List<byte[]> putKeys, List<byte[]> putValues, List<byte[]> getKeys) {
        if (!putKeys.isEmpty() && !getKeys.isEmpty()) {
          mixedGroups.incrementAndGet();
        }
        return super.multiPutGet(putKeys, putValues, getKeys);
      }
    };
    int threads = 8;
    int rounds = 2_000;
    try (CombiningStore combining = new CombiningStore(recording)) {
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
    assertTrue(mixedGroups.get() > 0, "some group should have carried both writes and reads");
  }

  /**
   * With a store slower than the followers' yield phase, followers park; every one must be woken
   * (by its group's completion or by a leader handing over), or this test hangs until the timeout.
   */
  @Test
  void followersOfSlowGroups_park_andAreAllWoken() throws Exception {
    KvStore slow = new ForwardingStore(new MemoryStore()) {
      @Override
      public List<byte[]> multiGet(List<byte[]> keys) {
        pause();
        return super.multiGet(keys);
      }

      @Override
      public void multiPut(List<byte[]> keys, List<byte[]> values) {
        pause();
        super.multiPut(keys, values);
      }

      @Override
      public List<byte[]> multiPutGet(List<byte[]> putKeys, List<byte[]> putValues, List<byte[]> getKeys) {
        pause();
        return super.multiPutGet(putKeys, putValues, getKeys);
      }

      private void pause() {
        LockSupport.parkNanos(3 * CombiningStore.SPIN_NANOS);
      }
    };
    int threads = 6;
    int rounds = 60;
    try (CombiningStore combining = new CombiningStore(slow)) {
      ExecutorService pool = Executors.newFixedThreadPool(threads);
      List<Future<?>> futures = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        byte[] key = {(byte) t};
        futures.add(pool.submit(() -> {
          for (int r = 0; r < rounds; r++) {
            byte[] v = combining.multiGet(List.of(key)).get(0);
            combining.multiPut(List.of(key), List.of(new byte[] {(byte) (v == null ? 1 : v[0] + 1)}));
          }
          return null;
        }));
      }
      for (Future<?> f : futures) {
        f.get(60, TimeUnit.SECONDS);
      }
      pool.shutdown();
      for (int t = 0; t < threads; t++) {
        assertEquals(rounds, combining.get(new byte[] {(byte) t})[0]);
      }
      assertTrue(combining.parks() > 0, "followers should have parked behind slow groups");
    }
  }

  /**
   * A group holding a write and a read whose combined call fails: both callers get the store's
   * error (nothing is retried), and the next call is served.
   */
  @Test
  void aFailedMixedGroup_failsBothItsWriteAndItsRead_andTheNextCallIsServed() throws Exception {
    MemoryStore memory = new MemoryStore();
    memory.put(new byte[] {2}, new byte[] {22});
    CountDownLatch firstCallEntered = new CountDownLatch(1);
    CountDownLatch releaseFirstCall = new CountDownLatch(1);
    AtomicInteger gets = new AtomicInteger();
    KvStore delegate = new ForwardingStore(memory) {
      @Override
      public List<byte[]> multiGet(List<byte[]> keys) {
        if (gets.getAndIncrement() == 0) {
          firstCallEntered.countDown();
          await(releaseFirstCall);
        }
        return super.multiGet(keys);
      }

      @Override
      public List<byte[]> multiPutGet(List<byte[]> putKeys, List<byte[]> putValues, List<byte[]> getKeys) {
        throw new StoreException("injected write failure");
      }
    };
    ExecutorService pool = Executors.newFixedThreadPool(3);
    try (CombiningStore combining = new CombiningStore(delegate)) {
      Future<List<byte[]>> first = pool.submit(() -> combining.multiGet(List.of(new byte[] {2})));
      assertTrue(firstCallEntered.await(10, TimeUnit.SECONDS));
      Future<?> write = pool.submit(() -> {
        combining.multiPut(List.of(new byte[] {1}), List.of(new byte[] {11}));
        return null;
      });
      Future<List<byte[]>> read = pool.submit(() -> combining.multiGet(List.of(new byte[] {2})));
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (combining.queuedCalls() < 2 && System.nanoTime() < deadline) {
        Thread.sleep(1);
      }
      assertEquals(2, combining.queuedCalls(), "the write and the read wait for the busy leader");
      releaseFirstCall.countDown();
      assertArrayEquals(new byte[] {22}, first.get(10, TimeUnit.SECONDS).get(0));
      for (Future<?> f : List.of(write, read)) {
        ExecutionException e = assertThrows(ExecutionException.class, () -> f.get(10, TimeUnit.SECONDS));
        assertTrue(e.getCause() instanceof StoreException && e.getCause().getMessage().contains("injected"),
            String.valueOf(e.getCause()));
      }
      assertEquals(1, gets.get(), "the failed group's read is not sent again");
      assertArrayEquals(new byte[] {22}, combining.multiGet(List.of(new byte[] {2})).get(0));
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void anErrorInTheStore_failsTheGroupWithoutLeavingCallersParked() throws Exception {
    KvStore delegate = new ForwardingStore(new MemoryStore()) {
      @Override
      public List<byte[]> multiGet(List<byte[]> keys) {
        throw new AssertionError("injected error");
      }
    };
    try (CombiningStore combining = new CombiningStore(delegate)) {
      assertThrows(AssertionError.class, () -> combining.multiGet(List.of(new byte[] {1})));
      // the leader role was handed back: a later call is served
      combining.multiPut(List.of(new byte[] {1}), List.of(new byte[] {5}));
    }
  }

  private static void await(CountDownLatch latch) {
    try {
      if (!latch.await(10, TimeUnit.SECONDS)) {
        throw new IllegalStateException("test latch timed out");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  @Test
  void aFailingGroupCall_failsItsCallers_withAStoreException_andLaterCallsWork() {
    AtomicInteger failures = new AtomicInteger(1);
    KvStore flaky = new ForwardingStore(new MemoryStore()) {
      @Override
      public List<byte[]> multiGet(List<byte[]> keys) {
        if (failures.getAndDecrement() > 0) {
          throw new IllegalStateException("injected");
        }
        return super.multiGet(keys);
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
