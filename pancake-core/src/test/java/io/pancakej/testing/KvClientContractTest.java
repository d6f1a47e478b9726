package io.pancakej.testing;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.pancakej.KvClient;
import io.pancakej.PancakeConfig;
import io.pancakej.ValueTooLargeException;

/**
 * The behaviour every {@link KvClient} (pancake, pathoram, encrypted, insecure) must show,
 * whatever it does to hide accesses. A scheme's test extends this class and supplies
 * {@link #newClient()}; slow schemes shrink the workloads by overriding the protected sizes.
 * Shared with other modules through pancake-core's test-jar.
 */
public abstract class KvClientContractTest {

  /** A fresh client on an empty store; the test closes it. */
  protected abstract KvClient newClient();

  /** The largest value the client from {@link #newClient()} accepts. */
  protected int maxValueSize() {
    return PancakeConfig.DEFAULT_VALUE_SIZE;
  }

  /** Distinct keys of the random sequence test. */
  protected int randomKeyCount() {
    return 200;
  }

  /** Operations of the random sequence test. */
  protected int randomOperationCount() {
    return 5_000;
  }

  /** Shared counters of the concurrent update test. */
  protected int concurrentKeyCount() {
    return 20;
  }

  /** Increments each thread performs in the concurrent update test. */
  protected int incrementsPerThread() {
    return 250;
  }

  /** Keys each thread writes and reads back in the read-your-writes test. */
  protected int keysPerThread() {
    return 100;
  }

  protected static final int THREADS = 8;

  protected KvClient client;

  @BeforeEach
  void openClient() {
    client = newClient();
  }

  @AfterEach
  void closeClient() {
    if (client != null) {
      client.close();
    }
  }

  protected static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void get_isEmpty_forAbsentKey() {
    assertTrue(client.get(bytes("absent")).isEmpty());
  }

  @Test
  void get_returnsPutValue() {
    client.put(bytes("k"), bytes("hello"));
    assertArrayEquals(bytes("hello"), client.get(bytes("k")).orElseThrow());
  }

  @Test
  void put_overwritesPreviousValue() {
    client.put(bytes("k"), bytes("first, longer value"));
    client.put(bytes("k"), bytes("second"));
    assertArrayEquals(bytes("second"), client.get(bytes("k")).orElseThrow());
  }

  @Test
  void put_acceptsEmptyValue() {
    client.put(bytes("k"), new byte[0]);
    assertArrayEquals(new byte[0], client.get(bytes("k")).orElseThrow());
  }

  @Test
  void update_returnsFalseAndWritesNothing_forAbsentKey() {
    assertFalse(client.update(bytes("absent"), v -> bytes("x")));
    assertTrue(client.get(bytes("absent")).isEmpty());
  }

  @Test
  void update_mergesIntoCurrentValue() {
    client.put(bytes("k"), bytes("ab"));
    assertTrue(client.update(bytes("k"), v -> concat(v, bytes("cd"))));
    assertArrayEquals(bytes("abcd"), client.get(bytes("k")).orElseThrow());
  }

  @Test
  void get_isEmpty_afterDelete() {
    client.put(bytes("k"), bytes("v"));
    assertTrue(client.delete(bytes("k")));
    assertTrue(client.get(bytes("k")).isEmpty());
  }

  @Test
  void delete_returnsFalse_forAbsentKey() {
    assertFalse(client.delete(bytes("absent")));
  }

  @Test
  void binaryKeys_areDistinct() {
    byte[][] keys = {{0}, {0, 0}, {(byte) 0xff}, {1, 0}, {1}, bytes("a"), {'a', 0}};
    for (int i = 0; i < keys.length; i++) {
      client.put(keys[i], new byte[] {(byte) i});
    }
    for (int i = 0; i < keys.length; i++) {
      assertArrayEquals(new byte[] {(byte) i}, client.get(keys[i]).orElseThrow(), "key #" + i);
    }
  }

  @Test
  void nullOrEmptyKey_isRejected() {
    assertThrows(IllegalArgumentException.class, () -> client.get(null));
    assertThrows(IllegalArgumentException.class, () -> client.get(new byte[0]));
    assertThrows(IllegalArgumentException.class, () -> client.put(new byte[0], bytes("v")));
    assertThrows(IllegalArgumentException.class, () -> client.put(bytes("k"), null));
    assertThrows(IllegalArgumentException.class, () -> client.delete(new byte[0]));
    assertThrows(IllegalArgumentException.class, () -> client.update(null, v -> v));
  }

  @Test
  void valueOfMaxSize_isAccepted_andOneByteMoreIsTooLarge() {
    byte[] max = new byte[maxValueSize()];
    new Random(1).nextBytes(max);
    client.put(bytes("max"), max);
    assertArrayEquals(max, client.get(bytes("max")).orElseThrow());
    ValueTooLargeException e = assertThrows(ValueTooLargeException.class,
        () -> client.put(bytes("big"), new byte[maxValueSize() + 1]));
    assertTrue(e.getMessage().contains(PancakeConfig.VALUE_SIZE_PROPERTY), e.getMessage());
    assertTrue(client.get(bytes("big")).isEmpty());
  }

  /**
   * The asynchronous API: one thread keeps 200 requests in flight; answers match the synchronous
   * ones, bad input throws at once, and getAll/putAll keep list order (a repeated key in putAll:
   * the later value wins).
   */
  @Test
  @Timeout(value = 120, unit = TimeUnit.SECONDS)
  void asyncAndMultiKeyRequests_matchTheSynchronousAnswers() {
    List<java.util.concurrent.CompletableFuture<Void>> puts = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      puts.add(client.putAsync(bytes("a" + i), bytes("v" + i)));
    }
    puts.forEach(java.util.concurrent.CompletableFuture::join);
    List<java.util.concurrent.CompletableFuture<Optional<byte[]>>> gets = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      gets.add(client.getAsync(bytes("a" + i)));
    }
    for (int i = 0; i < 200; i++) {
      Optional<byte[]> v = gets.get(i).join();
      if (i < 100) {
        assertArrayEquals(bytes("v" + i), v.orElseThrow(), "a" + i);
      } else {
        assertTrue(v.isEmpty(), "a" + i);
      }
    }
    assertTrue(client.updateAsync(bytes("a1"), old -> bytes("u1")).join());
    assertFalse(client.updateAsync(bytes("a150"), old -> old).join());
    assertTrue(client.deleteAsync(bytes("a2")).join());
    assertFalse(client.deleteAsync(bytes("a2")).join());
    assertThrows(IllegalArgumentException.class, () -> client.getAsync(new byte[0]));
    assertThrows(ValueTooLargeException.class, () -> client.putAsync(bytes("big"), new byte[maxValueSize() + 1]));

    client.putAll(List.of(bytes("m1"), bytes("m2"), bytes("m1")), List.of(bytes("x"), bytes("y"), bytes("z")));
    List<Optional<byte[]>> all = client.getAll(List.of(bytes("m1"), bytes("nope"), bytes("m2"), bytes("a1"), bytes("a2")));
    assertEquals(5, all.size());
    assertArrayEquals(bytes("z"), all.get(0).orElseThrow());
    assertTrue(all.get(1).isEmpty());
    assertArrayEquals(bytes("y"), all.get(2).orElseThrow());
    assertArrayEquals(bytes("u1"), all.get(3).orElseThrow());
    assertTrue(all.get(4).isEmpty());
    assertThrows(IllegalArgumentException.class, () -> client.putAll(List.of(bytes("k")), List.of()));
  }

  @Test
  void close_isIdempotent() {
    client.close();
    client.close();
    client = null;
  }

  @Test
  @Timeout(value = 120, unit = TimeUnit.SECONDS)
  void randomSequence_matchesHashMapModel() {
    Random random = new Random(20240601L);
    Map<Integer, byte[]> model = new HashMap<>();
    int valueCap = Math.min(maxValueSize(), 64);
    for (int op = 0; op < randomOperationCount(); op++) {
      int k = random.nextInt(randomKeyCount());
      byte[] key = bytes("key" + k);
      switch (random.nextInt(4)) {
        case 0:
          Optional<byte[]> got = client.get(key);
          assertEquals(model.containsKey(k), got.isPresent(), "presence of key" + k + " at op " + op);
          if (got.isPresent()) {
            assertArrayEquals(model.get(k), got.get(), "value of key" + k + " at op " + op);
          }
          break;
        case 1:
          byte[] value = new byte[random.nextInt(valueCap + 1)];
          random.nextBytes(value);
          client.put(key, value);
          model.put(k, value);
          break;
        case 2:
          byte suffix = (byte) random.nextInt();
          boolean updated = client.update(key, v -> v.length < valueCap ? concat(v, new byte[] {suffix}) : new byte[] {suffix});
          assertEquals(model.containsKey(k), updated, "update of key" + k + " at op " + op);
          model.computeIfPresent(k, (kk, v) -> v.length < valueCap ? concat(v, new byte[] {suffix}) : new byte[] {suffix});
          break;
        default:
          assertEquals(model.remove(k) != null, client.delete(key), "delete of key" + k + " at op " + op);
          break;
      }
    }
    for (int k = 0; k < randomKeyCount(); k++) {
      Optional<byte[]> got = client.get(bytes("key" + k));
      assertEquals(model.containsKey(k), got.isPresent(), "final presence of key" + k);
      if (got.isPresent()) {
        assertArrayEquals(model.get(k), got.get(), "final value of key" + k);
      }
    }
  }

  @Test
  @Timeout(value = 120, unit = TimeUnit.SECONDS)
  void concurrentIncrements_loseNoUpdate() throws Exception {
    int keys = concurrentKeyCount();
    for (int k = 0; k < keys; k++) {
      client.put(bytes("counter" + k), counter(0));
    }
    int perThread = incrementsPerThread();
    runThreads(t -> {
      Random random = new Random(t);
      for (int i = 0; i < perThread; i++) {
        byte[] key = bytes("counter" + random.nextInt(keys));
        assertTrue(client.update(key, v -> counter(ByteBuffer.wrap(v).getLong() + 1)));
      }
      return null;
    });
    long total = 0;
    for (int k = 0; k < keys; k++) {
      total += ByteBuffer.wrap(client.get(bytes("counter" + k)).orElseThrow()).getLong();
    }
    assertEquals((long) THREADS * perThread, total, "increments lost under concurrency");
  }

  @Test
  @Timeout(value = 120, unit = TimeUnit.SECONDS)
  void eachThread_readsItsOwnWrites() throws Exception {
    int perThread = keysPerThread();
    runThreads(t -> {
      for (int i = 0; i < perThread; i++) {
        byte[] key = bytes("t" + t + "-k" + i);
        byte[] value = bytes("value of thread " + t + " key " + i);
        client.put(key, value);
        assertArrayEquals(value, client.get(key).orElseThrow(), "thread " + t + " key " + i);
      }
      return null;
    });
  }

  /** The body of one worker thread, given its index. */
  protected interface Worker {
    Void run(int thread) throws Exception;
  }

  /** Runs {@link #THREADS} workers started together and rethrows the first failure. */
  protected static void runThreads(Worker worker) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(THREADS);
    try {
      CountDownLatch start = new CountDownLatch(1);
      List<Future<Void>> futures = new ArrayList<>();
      for (int t = 0; t < THREADS; t++) {
        int id = t;
        Callable<Void> task = () -> {
          start.await();
          return worker.run(id);
        };
        futures.add(pool.submit(task));
      }
      start.countDown();
      for (Future<Void> f : futures) {
        f.get(120, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }
  }

  protected static byte[] counter(long n) {
    return ByteBuffer.allocate(Long.BYTES).putLong(n).array();
  }

  protected static byte[] concat(byte[] a, byte[] b) {
    byte[] out = new byte[a.length + b.length];
    System.arraycopy(a, 0, out, 0, a.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }
}
