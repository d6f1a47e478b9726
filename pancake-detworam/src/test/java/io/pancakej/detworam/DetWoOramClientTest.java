package io.pancakej.detworam;

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
import java.util.Properties;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.pancakej.CapacityException;
import io.pancakej.ConfigException;
import io.pancakej.ValueTooLargeException;
import io.pancakej.crypto.KeyPurposes;
import io.pancakej.crypto.MasterKey;
import io.pancakej.store.MemoryStore;

class DetWoOramClientTest {
  static final int KEY_SIZE = 16;
  static final int VALUE_SIZE = 32;
  static final MasterKey MASTER = MasterKey.of(new byte[32]);

  @TempDir
  Path dir;

  static DetWoOramClient.Builder small(Path dir, int capacity, int holding) {
    return DetWoOramClient.builder().store(new MemoryStore()).stateDir(dir).capacity(capacity).holding(holding)
        .keySize(KEY_SIZE).valueSize(VALUE_SIZE).masterKey(MASTER);
  }

  static byte[] key(int i) {
    return ("user" + i).getBytes(StandardCharsets.UTF_8);
  }

  static byte[] randomValue(Random r) {
    byte[] v = new byte[r.nextInt(VALUE_SIZE + 1)];
    r.nextBytes(v);
    return v;
  }

  static List<byte[]> keys(int from, int count) {
    List<byte[]> keys = new ArrayList<>();
    for (int i = from; i < from + count; i++) {
      keys.add(key(i));
    }
    return keys;
  }

  /** Runs {@code ops} random get/put/update/delete on {@code keys}, each checked against a HashMap. */
  static void randomOps(DetWoOramClient c, Random r, List<byte[]> keys, int ops) {
    Map<ByteBuffer, byte[]> model = new HashMap<>();
    for (int i = 0; i < ops; i++) {
      byte[] k = keys.get(r.nextInt(keys.size()));
      ByteBuffer kb = ByteBuffer.wrap(k);
      switch (r.nextInt(4)) {
        case 0: {
          Optional<byte[]> got = c.get(k);
          assertEquals(model.containsKey(kb), got.isPresent(), "presence at op " + i);
          if (got.isPresent()) {
            assertArrayEquals(model.get(kb), got.get(), "value at op " + i);
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
          byte b = (byte) r.nextInt();
          boolean present = model.containsKey(kb);
          assertEquals(present, c.update(k, cur -> appendOrReset(cur, b)), "update result at op " + i);
          if (present) {
            model.put(kb, appendOrReset(model.get(kb), b));
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

  private static byte[] appendOrReset(byte[] cur, byte b) {
    if (cur.length >= VALUE_SIZE) {
      return new byte[] {b};
    }
    byte[] n = java.util.Arrays.copyOf(cur, cur.length + 1);
    n[cur.length] = b;
    return n;
  }

  @Test
  void randomOperations_matchAHashMapModel_forHoldingAreasSmallerEqualAndLargerThanN() {
    int[][] shapes = {{256, 256}, {256, 37}, {64, 1}, {256, 768}, {1, 1}};
    for (int[] shape : shapes) {
      Path state = dir.resolve("n" + shape[0] + "m" + shape[1]);
      try (DetWoOramClient c = small(state, shape[0], shape[1]).build()) {
        randomOps(c, new Random(shape[1]), keys(0, shape[0]), 6_000);
        DetWoOramClient.Stats s = c.stats();
        assertEquals((shape[0] + shape[1] - 1) / shape[1], s.refreshesPerWrite(), "k = ceil(N/M)");
        assertTrue(s.writes() > 2_000 && s.reads() > 500, s.toString());
      }
    }
  }

  @Test
  void putBeyondCapacity_throwsCapacityException_andDeleteFreesASlot() {
    try (DetWoOramClient c = small(dir, 4, 4).build()) {
      for (int i = 0; i < 4; i++) {
        c.put(key(i), new byte[] {(byte) i});
      }
      CapacityException e = assertThrows(CapacityException.class, () -> c.put(key(4), new byte[1]));
      assertTrue(e.getMessage().contains("pancake.capacity"), e.getMessage());
      long writes = c.stats().writes();
      c.put(key(0), new byte[] {9}); // replacing a bound key needs no new block
      assertTrue(c.delete(key(1)));
      c.put(key(4), new byte[] {4});
      assertArrayEquals(new byte[] {4}, c.get(key(4)).orElseThrow());
      assertArrayEquals(new byte[] {9}, c.get(key(0)).orElseThrow());
      assertFalse(c.get(key(1)).isPresent());
      assertEquals(writes + 3, c.stats().writes(), "the refused put wrote nothing; a delete is a write");
    }
  }

  @Test
  void oversizedKeysAndValues_nameTheirProperty_andBadKeysAreRejected() {
    try (DetWoOramClient c = small(dir, 4, 4).build()) {
      ValueTooLargeException v = assertThrows(ValueTooLargeException.class,
          () -> c.put(key(1), new byte[VALUE_SIZE + 1]));
      assertTrue(v.getMessage().contains("pancake.value.size=" + VALUE_SIZE), v.getMessage());
      ValueTooLargeException k = assertThrows(ValueTooLargeException.class,
          () -> c.put(new byte[KEY_SIZE + 1], new byte[1]));
      assertTrue(k.getMessage().contains("pancake.key.size=" + KEY_SIZE), k.getMessage());
      assertThrows(ValueTooLargeException.class, () -> c.get(new byte[KEY_SIZE + 1]));
      IllegalArgumentException n = assertThrows(IllegalArgumentException.class, () -> c.get(null));
      assertTrue(n.getMessage().contains("key"), n.getMessage());
      assertThrows(IllegalArgumentException.class, () -> c.get(new byte[0]));
      assertThrows(IllegalArgumentException.class, () -> c.put(key(1), null));
      assertThrows(NullPointerException.class, () -> c.update(key(1), null));
      c.put(key(1), new byte[] {1});
      long writes = c.stats().writes();
      assertThrows(ValueTooLargeException.class, () -> c.update(key(1), cur -> new byte[VALUE_SIZE + 1]));
      IllegalArgumentException nul = assertThrows(IllegalArgumentException.class, () -> c.update(key(1), cur -> null));
      assertTrue(nul.getMessage().contains("merge must not return null"), nul.getMessage());
      assertEquals(writes, c.stats().writes(), "a failed merge writes nothing");
      assertArrayEquals(new byte[] {1}, c.get(key(1)).orElseThrow(), "a failed merge changes nothing");
      c.put(key(2), new byte[0]);
      assertArrayEquals(new byte[0], c.get(key(2)).orElseThrow(), "empty values are values");
    }
  }

  @Test
  void badConfiguration_isRefusedAtTheSetter_withThePropertyName() {
    DetWoOramClient.Builder b = DetWoOramClient.builder();
    assertTrue(assertThrows(ConfigException.class, () -> b.capacity(0)).getMessage().contains("pancake.capacity"));
    assertTrue(assertThrows(ConfigException.class, () -> b.holding(0)).getMessage()
        .contains("pancake.detworam.holding"));
    assertTrue(assertThrows(ConfigException.class, () -> b.valueSize(0)).getMessage().contains("pancake.value.size"));
    assertTrue(assertThrows(ConfigException.class, () -> b.keySize(70_000)).getMessage().contains("pancake.key.size"));
    assertTrue(assertThrows(ConfigException.class, b::build).getMessage().contains("needs a store"));
    ConfigException noCapacity = assertThrows(ConfigException.class,
        () -> DetWoOramClient.builder().store(new MemoryStore()).stateDir(dir).build());
    assertTrue(noCapacity.getMessage().contains("needs a capacity"), noCapacity.getMessage());
    Properties p = new Properties();
    p.setProperty("pancake.store", "memory");
    p.setProperty("pancake.state.dir", dir.toString());
    p.setProperty("pancake.capacity", "10");
    p.setProperty("pancake.detworam.holding", "many");
    ConfigException notANumber = assertThrows(ConfigException.class, () -> DetWoOramClient.open(p));
    assertTrue(notANumber.getMessage().contains("pancake.detworam.holding"), notANumber.getMessage());
  }

  @Test
  void operationsOnAbsentKeys_readOneMainBlock_andWriteNothing() {
    RecordingStore store = new RecordingStore(new MemoryStore());
    Labels labels = new Labels(MASTER.derive(KeyPurposes.DETWORAM_LABELS));
    java.util.Set<ByteBuffer> mainLabels = new java.util.HashSet<>();
    for (int i = 0; i < 16; i++) {
      mainLabels.add(ByteBuffer.wrap(labels.main(i)));
    }
    java.util.Set<ByteBuffer> seen = new java.util.HashSet<>();
    try (DetWoOramClient c = small(dir, 16, 16).store(store).build()) {
      c.put(key(0), new byte[] {1});
      for (int round = 0; round < 50; round++) {
        store.clear();
        assertFalse(c.update(key(1), cur -> cur));
        assertFalse(c.delete(key(1)));
        assertFalse(c.get(key(1)).isPresent());
        List<RecordingStore.Op> ops = store.ops();
        assertEquals(3, ops.size(), "one store call per operation");
        for (RecordingStore.Op op : ops) {
          assertEquals(RecordingStore.Kind.GET, op.kind(), "an absent key writes nothing");
          assertEquals(1, op.labels().size());
          assertTrue(mainLabels.contains(ByteBuffer.wrap(op.labels().get(0))), "a main block is read");
          seen.add(ByteBuffer.wrap(op.labels().get(0)));
        }
      }
      assertEquals(1, c.stats().writes());
      assertEquals(1, c.stats().keys());
      assertTrue(seen.size() > 8, "the block read is drawn at random: " + seen.size() + " of 16 seen");
    }
  }

  @Test
  void closedClient_refusesAccess_andCloseIsIdempotent() {
    DetWoOramClient c = small(dir, 4, 4).build();
    c.close();
    c.close();
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> c.get(key(1)));
    assertTrue(e.getMessage().contains("closed"), e.getMessage());
  }
}
