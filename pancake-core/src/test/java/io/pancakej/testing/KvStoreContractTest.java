package io.pancakej.testing;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.pancakej.StoreException;
import io.pancakej.store.KvStore;

/**
 * The behaviour every {@link KvStore} promises (see its Javadoc). A backend's test extends this
 * class and implements {@link #newStore()}; state that outlives a store (a Redis server, a temp
 * directory) is cleared in {@link #cleanUp()}. Each test gets a fresh, empty store, closed after
 * the test.
 */
public abstract class KvStoreContractTest {
  private static final int THREADS = 8;
  /** Fixed seed: failures reproduce. */
  private final Random random = new Random(20240501L);
  /** The store under test, opened before each test. */
  protected KvStore store;

  /** Opens a new, empty store. */
  protected abstract KvStore newStore();

  /** Called after each test, once the store is closed: remove what the test left behind. */
  protected void cleanUp() {}

  @BeforeEach
  final void openStore() {
    store = newStore();
  }

  @AfterEach
  final void closeStore() {
    try {
      store.close();
    } finally {
      cleanUp();
    }
  }

  @Test
  void get_returnsNullForAbsentKey() {
    assertNull(store.get(bytes("absent")));
  }

  @Test
  void isEmpty_whileNoKeyIsHeld_whereverTheKeyLives() {
    assertTrue(store.isEmpty(), "a new store");
    // one key at a time, so that on a cluster each master in turn is the only one holding data
    for (int i = 0; i < 24; i++) {
      byte[] key = bytes("only-" + i);
      store.put(key, bytes("v"));
      assertFalse(store.isEmpty(), "holding key " + i);
      store.multiDelete(List.of(key));
      assertTrue(store.isEmpty(), "key " + i + " deleted");
    }
  }

  @Test
  void multiGet_returnsNullAtAbsentPositions() {
    store.put(bytes("present"), bytes("v"));
    List<byte[]> got = store.multiGet(List.of(bytes("absent-1"), bytes("present"), bytes("absent-2")));
    assertEquals(3, got.size());
    assertNull(got.get(0));
    assertArrayEquals(bytes("v"), got.get(1));
    assertNull(got.get(2));
  }

  @Test
  void multiPut_thenMultiGet_roundTrips() {
    List<byte[]> keys = List.of(bytes("a"), bytes("b"), bytes("c"));
    List<byte[]> values = List.of(bytes("1"), bytes("22"), bytes("333"));
    store.multiPut(keys, values);
    assertValues(values, store.multiGet(keys));
    assertArrayEquals(bytes("22"), store.get(bytes("b")));
  }

  @Test
  void multiPutGet_writesThenReads_includingKeysItJustWrote() {
    store.put(bytes("old"), bytes("0"));
    List<byte[]> got = store.multiPutGet(List.of(bytes("a"), bytes("b")), List.of(bytes("1"), bytes("22")),
        List.of(bytes("b"), bytes("old"), bytes("absent")));
    assertEquals(3, got.size());
    assertArrayEquals(bytes("22"), got.get(0));
    assertArrayEquals(bytes("0"), got.get(1));
    assertNull(got.get(2));
    assertArrayEquals(bytes("1"), store.get(bytes("a")));
  }

  @Test
  void multiPutGet_withOneSideEmpty_isAPutOrAGet() {
    assertTrue(store.multiPutGet(List.of(bytes("k")), List.of(bytes("v")), List.of()).isEmpty());
    List<byte[]> got = store.multiPutGet(List.of(), List.of(), List.of(bytes("k")));
    assertEquals(1, got.size());
    assertArrayEquals(bytes("v"), got.get(0));
  }

  @Test
  void sendPutGet_returnsWhatMultiPutGetWould_andTheSameValuesOnASecondAwait() {
    store.put(bytes("old"), bytes("0"));
    KvStore.PendingReply reply = store.sendPutGet(List.of(bytes("a")), List.of(bytes("1")),
        List.of(bytes("a"), bytes("old"), bytes("absent")));
    List<byte[]> got = reply.await();
    assertEquals(3, got.size());
    assertArrayEquals(bytes("1"), got.get(0));
    assertArrayEquals(bytes("0"), got.get(1));
    assertNull(got.get(2));
    assertValues(got, reply.await());
    assertTrue(store.sendPutGet(List.of(bytes("b")), List.of(bytes("2")), List.of()).await().isEmpty());
    assertArrayEquals(bytes("2"), store.sendPutGet(List.of(), List.of(), List.of(bytes("b"))).await().get(0));
    assertTrue(store.sendPutGet(List.of(), List.of(), List.of()).await().isEmpty());
  }

  @Test
  void sendPutGet_callsSentBeforeTheirRepliesAreAwaited_runInTheOrderSent_whicheverIsAwaitedFirst() {
    List<KvStore.PendingReply> replies = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      // call i writes k<i> and reads k<i-1>, which call i-1 wrote (its reply not read yet)
      replies.add(store.sendPutGet(List.of(bytes("k" + i)), List.of(bytes("v" + i)), List.of(bytes("k" + (i - 1)))));
    }
    assertArrayEquals(bytes("v3"), replies.get(4).await().get(0)); // reads every earlier reply first
    assertNull(replies.get(0).await().get(0));
    for (int i = 1; i < 4; i++) {
      assertArrayEquals(bytes("v" + (i - 1)), replies.get(i).await().get(0), "call " + i);
    }
  }

  @Test
  void multiPut_overwritesEarlierValues() {
    store.put(bytes("k"), bytes("old"));
    store.multiPut(List.of(bytes("k")), List.of(bytes("new")));
    assertArrayEquals(bytes("new"), store.get(bytes("k")));
  }

  @Test
  void multiGet_sameKeyTwice_returnsTheValueAtBothPositions() {
    store.put(bytes("k"), bytes("v"));
    List<byte[]> got = store.multiGet(List.of(bytes("k"), bytes("x"), bytes("k")));
    assertEquals(3, got.size());
    assertArrayEquals(bytes("v"), got.get(0));
    assertNull(got.get(1));
    assertArrayEquals(bytes("v"), got.get(2));
  }

  @Test
  void multiPut_sameKeyTwice_lastWriteWins() {
    store.multiPut(List.of(bytes("k"), bytes("other"), bytes("k")), List.of(bytes("first"), bytes("o"), bytes("last")));
    assertArrayEquals(bytes("last"), store.get(bytes("k")));
    assertArrayEquals(bytes("o"), store.get(bytes("other")));
  }

  @Test
  void multiDelete_removesKeys_andIgnoresAbsentOnes() {
    store.multiPut(List.of(bytes("a"), bytes("b"), bytes("c")), List.of(bytes("1"), bytes("2"), bytes("3")));
    store.multiDelete(List.of(bytes("a"), bytes("never-written"), bytes("c")));
    List<byte[]> got = store.multiGet(List.of(bytes("a"), bytes("b"), bytes("c")));
    assertNull(got.get(0));
    assertArrayEquals(bytes("2"), got.get(1));
    assertNull(got.get(2));
  }

  @Test
  void emptyBatches_areNoOps() {
    assertEquals(0, store.multiGet(List.of()).size());
    store.multiPut(List.of(), List.of());
    store.multiDelete(List.of());
  }

  @Test
  void multiPut_withMoreKeysThanValues_isRejected() {
    assertThrows(IllegalArgumentException.class, () -> store.multiPut(List.of(bytes("a"), bytes("b")), List.of(bytes("1"))));
  }

  @Test
  void binaryKeys_withZeroBytes_roundTrip() {
    List<byte[]> keys = List.of(new byte[] {0}, new byte[] {0, 0}, new byte[] {0, 1, 0}, new byte[] {1, 0},
        new byte[] {(byte) 0xff, 0, (byte) 0x80});
    List<byte[]> values = new ArrayList<>();
    for (int i = 0; i < keys.size(); i++) {
      values.add(new byte[] {0, (byte) i, 0});
    }
    store.multiPut(keys, values);
    assertValues(values, store.multiGet(keys));
    assertNull(store.get(new byte[] {0, 0, 0}), "a key is not a prefix or padding of another");
  }

  @Test
  void randomSixteenByteLabels_roundTrip() {
    List<byte[]> keys = randomBytesList(200, 16);
    List<byte[]> values = randomBytesList(200, 48);
    store.multiPut(keys, values);
    assertValues(values, store.multiGet(keys));
  }

  @Test
  void batchesOfThousandKeys_roundTrip() {
    List<byte[]> keys = randomBytesList(1_000, 16);
    List<byte[]> values = randomBytesList(1_000, 100);
    store.multiPut(keys, values);
    assertValues(values, store.multiGet(keys));
    store.multiDelete(keys);
    for (byte[] v : store.multiGet(keys)) {
      assertNull(v);
    }
  }

  @Test
  void values_ofZeroBytesOneKilobyteAndSixtyFourKilobytes_roundTrip() {
    List<byte[]> keys = List.of(bytes("empty"), bytes("1k"), bytes("64k"));
    List<byte[]> values = List.of(new byte[0], randomBytes(1024), randomBytes(64 * 1024));
    store.multiPut(keys, values);
    assertValues(values, store.multiGet(keys));
  }

  @Test
  void eightThreads_writingDistinctKeysConcurrently_allReadBack() throws Exception {
    int perThread = 250;
    int batch = 25;
    ExecutorService pool = Executors.newFixedThreadPool(THREADS);
    try {
      CountDownLatch go = new CountDownLatch(1);
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < THREADS; t++) {
        int thread = t;
        done.add(pool.submit(() -> {
          go.await();
          for (int from = 0; from < perThread; from += batch) {
            List<byte[]> keys = new ArrayList<>();
            List<byte[]> values = new ArrayList<>();
            for (int i = from; i < from + batch; i++) {
              keys.add(bytes("t" + thread + "-k" + i));
              values.add(bytes("t" + thread + "-v" + i));
            }
            store.multiPut(keys, values);
            assertValues(values, store.multiGet(keys));
          }
          return null;
        }));
      }
      go.countDown();
      for (Future<?> f : done) {
        f.get(60, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }
    List<byte[]> keys = new ArrayList<>();
    List<byte[]> values = new ArrayList<>();
    for (int t = 0; t < THREADS; t++) {
      for (int i = 0; i < perThread; i++) {
        keys.add(bytes("t" + t + "-k" + i));
        values.add(bytes("t" + t + "-v" + i));
      }
    }
    assertValues(values, store.multiGet(keys));
  }

  @Test
  void describe_namesTheStore() {
    assertNotNull(store.describe());
    assertFalse(store.describe().isBlank());
  }

  @Test
  void close_isIdempotent_andOperationsAfterCloseThrowStoreException() {
    store.put(bytes("k"), bytes("v"));
    store.close();
    store.close();
    assertThrows(StoreException.class, () -> store.get(bytes("k")));
    assertThrows(StoreException.class, () -> store.multiGet(List.of(bytes("k"))));
    assertThrows(StoreException.class, () -> store.put(bytes("k"), bytes("v")));
    assertThrows(StoreException.class, () -> store.multiDelete(List.of(bytes("k"))));
  }

  /** UTF-8 bytes of {@code s}. */
  protected static byte[] bytes(String s) {
    return s.getBytes(UTF_8);
  }

  /** {@code n} seeded random bytes. */
  protected byte[] randomBytes(int n) {
    byte[] b = new byte[n];
    random.nextBytes(b);
    return b;
  }

  /** {@code count} distinct seeded random arrays of {@code length} bytes. */
  protected List<byte[]> randomBytesList(int count, int length) {
    List<byte[]> out = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      out.add(randomBytes(length));
    }
    return out;
  }

  /** Asserts two lists of byte arrays are equal position by position. */
  protected static void assertValues(List<byte[]> expected, List<byte[]> actual) {
    assertEquals(expected.size(), actual.size(), "number of values");
    for (int i = 0; i < expected.size(); i++) {
      byte[] e = expected.get(i);
      byte[] a = actual.get(i);
      if (!Arrays.equals(e, a)) {
        throw new AssertionError("value " + i + " differs: expected "
            + (e == null ? "null" : e.length + " bytes") + ", got " + (a == null ? "null" : a.length + " bytes"));
      }
    }
  }
}
