package io.pancakej.pathoram;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.pancakej.CapacityException;
import io.pancakej.ValueTooLargeException;
import io.pancakej.store.MemoryStore;

class PathOramClientTest {
  static final int KEY_SIZE = 16;
  static final int VALUE_SIZE = 32;

  @TempDir
  Path dir;

  static PathOramClient.Builder small(Path dir, int capacity, long seed) {
    return PathOramClient.builder().store(new MemoryStore()).stateDir(dir).capacity(capacity)
        .keySize(KEY_SIZE).valueSize(VALUE_SIZE).seed(seed);
  }

  static byte[] key(int i) {
    return ("user" + i).getBytes(StandardCharsets.UTF_8);
  }

  static byte[] randomValue(Random r) {
    byte[] v = new byte[r.nextInt(VALUE_SIZE + 1)];
    r.nextBytes(v);
    return v;
  }

  /** Runs {@code ops} random operations on {@code keys} and checks each against a HashMap. */
  static void randomOps(PathOramClient c, Random r, List<byte[]> keys, int ops) {
    Map<ByteBuffer, byte[]> model = new HashMap<>();
    for (int i = 0; i < ops; i++) {
      byte[] k = keys.get(r.nextInt(keys.size()));
      ByteBuffer kb = ByteBuffer.wrap(k);
      switch (r.nextInt(4)) {
        case 0: {
          byte[] expected = model.get(kb);
          Optional<byte[]> got = c.get(k);
          assertEquals(expected != null, got.isPresent(), "presence at op " + i);
          if (expected != null) {
            assertArrayEquals(expected, got.get(), "value at op " + i);
          }
          break;
        }
        case 1: {
          byte[] v = randomValue(r);
          c.put(k, v);
          model.put(kb, v);
          break;
        }
        case 2: {
          byte[] suffix = {(byte) r.nextInt()};
          boolean present = model.containsKey(kb);
          boolean updated = c.update(k, cur -> {
            byte[] n = cur.length < VALUE_SIZE ? new byte[cur.length + 1] : cur.clone();
            System.arraycopy(cur, 0, n, 0, cur.length);
            n[n.length - 1] = suffix[0];
            return n;
          });
          assertEquals(present, updated, "update result at op " + i);
          if (present) {
            byte[] cur = model.get(kb);
            byte[] n = cur.length < VALUE_SIZE ? new byte[cur.length + 1] : cur.clone();
            System.arraycopy(cur, 0, n, 0, cur.length);
            n[n.length - 1] = suffix[0];
            model.put(kb, n);
          }
          break;
        }
        default:
          assertEquals(model.remove(kb) != null, c.delete(k), "delete result at op " + i);
      }
    }
    for (byte[] k : keys) {
      byte[] expected = model.get(ByteBuffer.wrap(k));
      Optional<byte[]> got = c.get(k);
      assertEquals(expected != null, got.isPresent());
      if (expected != null) {
        assertArrayEquals(expected, got.get());
      }
    }
  }

  static List<byte[]> keys(int from, int count) {
    List<byte[]> keys = new ArrayList<>();
    for (int i = from; i < from + count; i++) {
      keys.add(key(i));
    }
    return keys;
  }

  @Test
  void randomOperations_matchAHashMapModel() {
    try (PathOramClient c = small(dir, 1024, 1).build()) {
      randomOps(c, new Random(42), keys(0, 1000), 20_000);
      PathOramClient.Stats s = c.stats();
      assertEquals(11, s.bucketsPerAccess());
      assertTrue(s.accesses() >= 20_000);
      System.out.println("pathoram random ops: " + s);
    }
  }

  @Test
  void eightThreads_onDisjointKeys_eachMatchTheirModel() throws Exception {
    try (PathOramClient c = small(dir, 1024, 2).build()) {
      ExecutorService pool = Executors.newFixedThreadPool(8);
      try {
        List<Future<?>> futures = new ArrayList<>();
        for (int t = 0; t < 8; t++) {
          int thread = t;
          futures.add(pool.submit(() -> randomOps(c, new Random(100 + thread), keys(thread * 125, 125), 2_500)));
        }
        for (Future<?> f : futures) {
          f.get();
        }
      } finally {
        pool.shutdown();
      }
    }
  }

  @Test
  void eightThreads_incrementingOverlappingKeys_loseNoIncrement() throws Exception {
    int keys = 16;
    int perThread = 1_000;
    try (PathOramClient c = small(dir, 64, 3).build()) {
      for (int i = 0; i < keys; i++) {
        c.put(key(i), ByteBuffer.allocate(8).putLong(0).array());
      }
      ExecutorService pool = Executors.newFixedThreadPool(8);
      try {
        List<Future<?>> futures = new ArrayList<>();
        for (int t = 0; t < 8; t++) {
          Random r = new Random(200 + t);
          futures.add(pool.submit(() -> {
            for (int i = 0; i < perThread; i++) {
              assertTrue(c.update(key(r.nextInt(keys)),
                  cur -> ByteBuffer.allocate(8).putLong(ByteBuffer.wrap(cur).getLong() + 1).array()));
            }
          }));
        }
        for (Future<?> f : futures) {
          f.get();
        }
      } finally {
        pool.shutdown();
      }
      long total = 0;
      for (int i = 0; i < keys; i++) {
        total += ByteBuffer.wrap(c.get(key(i)).orElseThrow()).getLong();
      }
      assertEquals(8L * perThread, total);
    }
  }

  @Test
  void putBeyondCapacity_throwsCapacityException_andDeleteFreesASlot() {
    try (PathOramClient c = small(dir, 4, 4).build()) {
      for (int i = 0; i < 4; i++) {
        c.put(key(i), new byte[] {(byte) i});
      }
      CapacityException e = assertThrows(CapacityException.class, () -> c.put(key(4), new byte[1]));
      assertTrue(e.getMessage().contains("pancake.capacity"), e.getMessage());
      c.put(key(0), new byte[] {9}); // replacing a bound key needs no new block
      assertTrue(c.delete(key(1)));
      c.put(key(4), new byte[] {4});
      assertArrayEquals(new byte[] {4}, c.get(key(4)).orElseThrow());
      assertFalse(c.get(key(1)).isPresent());
    }
  }

  @Test
  void oversizedKeysAndValues_nameTheirProperty_andBadKeysAreRejected() {
    try (PathOramClient c = small(dir, 4, 5).build()) {
      ValueTooLargeException v = assertThrows(ValueTooLargeException.class,
          () -> c.put(key(1), new byte[VALUE_SIZE + 1]));
      assertTrue(v.getMessage().contains("pancake.value.size"), v.getMessage());
      ValueTooLargeException k = assertThrows(ValueTooLargeException.class,
          () -> c.put(new byte[KEY_SIZE + 1], new byte[1]));
      assertTrue(k.getMessage().contains("pancake.key.size"), k.getMessage());
      assertThrows(IllegalArgumentException.class, () -> c.get(null));
      assertThrows(IllegalArgumentException.class, () -> c.get(new byte[0]));
      assertThrows(IllegalArgumentException.class, () -> c.put(key(1), null));
      c.put(key(1), new byte[] {1});
      assertThrows(ValueTooLargeException.class, () -> c.update(key(1), cur -> new byte[VALUE_SIZE + 1]));
      assertArrayEquals(new byte[] {1}, c.get(key(1)).orElseThrow(), "a failed merge changes nothing");
      c.put(key(2), new byte[0]);
      assertArrayEquals(new byte[0], c.get(key(2)).orElseThrow(), "empty values are values");
    }
  }

  @Test
  void updateAndDeleteOfAbsentKeys_returnFalse() {
    try (PathOramClient c = small(dir, 4, 6).build()) {
      assertFalse(c.update(key(1), cur -> cur));
      assertFalse(c.delete(key(1)));
      assertFalse(c.get(key(1)).isPresent());
      assertEquals(3, c.stats().accesses());
      assertEquals(0, c.stats().keys());
    }
  }

  @Test
  void anOverloadedStash_throwsOverflow_butLosesNoBlock() {
    // 64 blocks in a tree of 7 buckets (28 slots): the stash must hold the rest
    Map<Integer, byte[]> model = new HashMap<>();
    Random r = new Random(7);
    int overflows = 0;
    RecordingStore store = new RecordingStore();
    try (PathOramClient c = small(dir, 64, 7).store(store).treeHeight(2).stashMax(10).build()) {
      for (int i = 0; i < 64; i++) {
        byte[] v = randomValue(r);
        model.put(i, v);
        try {
          c.put(key(i), v);
        } catch (CapacityException e) {
          assertTrue(e.getMessage().startsWith("Path ORAM stash overflow"), e.getMessage());
          overflows++;
        }
      }
      assertTrue(overflows > 0);
      assertTrue(c.stats().stashSize() > 10);
    }
    try (PathOramClient c = PathOramClient.builder().store(store).stateDir(dir).stashMax(1000).build()) {
      for (int i = 0; i < 64; i++) {
        assertArrayEquals(model.get(i), c.get(key(i)).orElseThrow(), "block " + i);
      }
    }
  }

  @Test
  void initializingALargeTree_writesEveryBucket_andLogsProgressAtInfo_printingNothing() {
    // System.Logger's default backend is java.util.logging: listen on the client's logger
    java.util.logging.Logger logger = java.util.logging.Logger.getLogger(PathOramClient.class.getName());
    List<java.util.logging.LogRecord> records = new java.util.concurrent.CopyOnWriteArrayList<>();
    java.util.logging.Handler handler = new java.util.logging.Handler() {
      @Override
      public void publish(java.util.logging.LogRecord record) {
        records.add(record);
      }

      @Override
      public void flush() {}

      @Override
      public void close() {}
    };
    java.io.PrintStream savedErr = System.err;
    java.io.PrintStream savedOut = System.out;
    java.io.ByteArrayOutputStream printed = new java.io.ByteArrayOutputStream();
    MemoryStore store = new MemoryStore();
    logger.addHandler(handler);
    logger.setUseParentHandlers(false); // the console handler would print to the stream swapped below
    System.setErr(new java.io.PrintStream(printed, true, StandardCharsets.UTF_8));
    System.setOut(new java.io.PrintStream(printed, true, StandardCharsets.UTF_8));
    try (PathOramClient c = PathOramClient.builder().store(new RecordingStore(store)).stateDir(dir)
        .capacity(65_536).keySize(8).valueSize(8).seed(9).build()) {
      assertEquals(17, c.stats().bucketsPerAccess());
    } finally {
      System.setErr(savedErr);
      System.setOut(savedOut);
      logger.removeHandler(handler);
      logger.setUseParentHandlers(true);
    }
    assertEquals((1 << 17) - 1, store.size());
    assertEquals(10, records.size(), "one line per tenth");
    for (java.util.logging.LogRecord r : records) {
      assertEquals(java.util.logging.Level.INFO, r.getLevel(), r.getMessage());
    }
    assertEquals("pathoram: initialized 13108 of 131071 buckets (10%)", records.get(0).getMessage());
    assertEquals("pathoram: initialized 131071 of 131071 buckets (100%)", records.get(9).getMessage());
    assertEquals("", printed.toString(StandardCharsets.UTF_8), "the library prints nothing itself");
  }

  @Test
  void closedClient_refusesAccess_andCloseIsIdempotent() {
    PathOramClient c = small(dir, 4, 8).build();
    c.close();
    c.close();
    assertThrows(IllegalStateException.class, () -> c.get(key(1)));
  }
}
