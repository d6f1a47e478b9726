package io.pancakej.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.pancakej.StoreException;

/**
 * RocksDB closed while calls are running on other threads: every call either completes with the
 * right answer or fails with the store's "is closed" {@link StoreException}, and nothing crashes
 * (a call on a closed RocksDB is a use-after-free in native code: without the fence this test may
 * take the JVM down).
 */
class RocksDbCloseFenceTest {
  private static final int KEYS = 2_000;

  @TempDir
  Path dir;

  private static byte[] key(int i) {
    return ByteBuffer.allocate(4).putInt(i).array();
  }

  private static byte[] value(int i) {
    byte[] v = new byte[100];
    ByteBuffer.wrap(v).putInt(i);
    return v;
  }

  /**
   * A multi-get long enough (200 000 keys, read from table files) that close is called while it is
   * in RocksDB: close returns only after the multi-get did, which returned every value. Without the
   * fence close frees the database under the call (use-after-free: garbage, an error or a crash).
   */
  @Test
  void closeCalledDuringALongMultiGet_returnsOnlyAfterIt() throws Exception {
    int n = 200_000;
    List<byte[]> keys = new ArrayList<>(n);
    Path db = dir.resolve("long");
    // batches of about 1 MiB with flushes every MiB: the data goes to table files and close has no flush of its own to do
    try (RocksDbStore store = RocksDbStore.open(db, new RocksDbStore.Tuning(8, 64, true, 1))) {
      List<byte[]> batchKeys = new ArrayList<>();
      List<byte[]> batchValues = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        keys.add(key(i));
        batchKeys.add(key(i));
        batchValues.add(value(i));
        if (batchKeys.size() == 10_000) {
          store.multiPut(batchKeys, batchValues);
          batchKeys.clear();
          batchValues.clear();
        }
      }
    }
    int overlapped = 0;
    for (int round = 0; round < 5 && overlapped < 2; round++) {
      RocksDbStore store = RocksDbStore.open(db, new RocksDbStore.Tuning(8, 64, true, 1));
      CountDownLatch calling = new CountDownLatch(1);
      long[] getEnded = {0};
      Object[] outcome = new Object[1];
      Thread reader = new Thread(() -> {
        calling.countDown();
        try {
          outcome[0] = store.multiGet(keys);
        } catch (Throwable e) {
          outcome[0] = e;
        }
        getEnded[0] = System.nanoTime();
      });
      reader.start();
      assertTrue(calling.await(10, TimeUnit.SECONDS));
      Thread.sleep(10);
      long closeCalled = System.nanoTime();
      store.close();
      long closeEnded = System.nanoTime();
      reader.join(TimeUnit.SECONDS.toMillis(30));
      if (outcome[0] instanceof StoreException e && e.getMessage().endsWith(" is closed")) {
        continue; // the call started after close: a clean refusal, but no overlap to check
      }
      assertTrue(outcome[0] instanceof List, "the multi-get completed: " + outcome[0]);
      @SuppressWarnings("unchecked")
      List<byte[]> got = (List<byte[]>) outcome[0];
      assertEquals(n, got.size());
      for (int i = 0; i < n; i += 997) {
        assertArrayEquals(value(i), got.get(i), "value " + i);
      }
      if (getEnded[0] > closeCalled) {
        overlapped++;
        assertTrue(closeEnded >= getEnded[0], "close returned only after the multi-get it overlapped");
      }
    }
    assertTrue(overlapped > 0, "close was called during a multi-get at least once");
  }

  @Test
  void callsRunningWhileTheStoreCloses_completeOrFailCleanly() throws Exception {
    List<byte[]> keys = new ArrayList<>(KEYS);
    List<byte[]> values = new ArrayList<>(KEYS);
    for (int i = 0; i < KEYS; i++) {
      keys.add(key(i));
      values.add(value(i));
    }
    Random random = new Random(17);
    long completedBeforeClose = 0;
    for (int round = 0; round < 12; round++) {
      RocksDbStore store = RocksDbStore.open(dir.resolve("db" + round), new RocksDbStore.Tuning(8, 8, true, 1));
      store.multiPut(keys, values);
      Queue<Throwable> wrong = new ConcurrentLinkedQueue<>();
      AtomicLong completed = new AtomicLong();
      CountDownLatch started = new CountDownLatch(3);
      List<Thread> threads = new ArrayList<>();
      for (int t = 0; t < 3; t++) {
        int which = t;
        Thread thread = new Thread(() -> {
          started.countDown();
          try {
            while (true) {
              switch (which) {
                case 0 -> {
                  List<byte[]> got = store.multiGet(keys);
                  for (int i = 0; i < KEYS; i += 97) {
                    assertArrayEquals(values.get(i), got.get(i));
                  }
                }
                case 1 -> store.multiPut(keys.subList(0, 500), values.subList(0, 500)); // flushes: 1 MiB
                default -> {
                  assertFalse(store.isEmpty());
                  store.storage();
                  store.multiDelete(List.of(key(KEYS + 1)));
                }
              }
              completed.incrementAndGet();
            }
          } catch (StoreException e) {
            if (!e.getMessage().endsWith(" is closed")) {
              wrong.add(e);
            }
          } catch (Throwable e) {
            wrong.add(e);
          }
        });
        threads.add(thread);
        thread.start();
      }
      assertTrue(started.await(10, TimeUnit.SECONDS));
      Thread.sleep(1 + random.nextInt(30));
      completedBeforeClose += completed.get();
      store.close();
      for (Thread thread : threads) {
        thread.join(TimeUnit.SECONDS.toMillis(30));
        assertFalse(thread.isAlive(), "every caller stopped at the closed store");
      }
      assertEquals(List.of(), List.copyOf(wrong), "round " + round + ": only answers or 'is closed'");
      store.close(); // idempotent
    }
    assertTrue(completedBeforeClose > 0, "calls ran while the store was open");
  }
}
