package io.pancakej.detworam;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.IntSupplier;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.pancakej.crypto.Aead;
import io.pancakej.crypto.KeyPurposes;
import io.pancakej.store.MemoryStore;

/**
 * What the store sees of writes: over 10^5 logical writes with a zipfian key choice, the blocks
 * each write puts are exactly the schedule's (holding slot s mod M, main blocks (s*k + j) mod N),
 * the same sequence as for any other key choice; and, decrypting what was written, no holding
 * slot is ever overwritten while it holds the only current copy of a block.
 */
class WritePatternTest {
  static final int KEYS = 1000;
  static final int WRITES = 100_000;

  @TempDir
  Path dir;

  /** Zipfian(0.99) over KEYS ranks, seeded. */
  static IntSupplier zipf(long seed) {
    double[] cumulative = new double[KEYS];
    double sum = 0;
    for (int i = 0; i < KEYS; i++) {
      sum += 1 / Math.pow(i + 1, 0.99);
      cumulative[i] = sum;
    }
    double total = sum;
    Random r = new Random(seed);
    return () -> {
      int i = Arrays.binarySearch(cumulative, r.nextDouble() * total);
      return Math.min(KEYS - 1, i < 0 ? -i - 1 : i);
    };
  }

  /**
   * Runs WRITES logical writes (puts, and deletes of present keys) with keys from {@code choice},
   * a get after every tenth; checks the values at the end; returns the recorded multi-puts.
   */
  private List<RecordingStore.Op> run(Path state, int holding, IntSupplier choice, long seed) {
    RecordingStore store = new RecordingStore(new MemoryStore());
    Map<Integer, byte[]> model = new HashMap<>();
    Random r = new Random(seed);
    try (DetWoOramClient c = DetWoOramClientTest.small(state, KEYS, holding).store(store).build()) {
      store.clear();
      for (int w = 0; w < WRITES; w++) {
        int k = choice.getAsInt();
        if (model.containsKey(k) && r.nextInt(10) == 0) {
          assertTrue(c.delete(DetWoOramClientTest.key(k)));
          model.remove(k);
        } else {
          byte[] v = DetWoOramClientTest.randomValue(r);
          c.put(DetWoOramClientTest.key(k), v);
          model.put(k, v);
        }
        if (w % 10 == 0) {
          int g = choice.getAsInt();
          assertEquals(model.containsKey(g), c.get(DetWoOramClientTest.key(g)).isPresent());
        }
      }
      assertEquals(WRITES, c.stats().writes());
      for (int k = 0; k < KEYS; k++) {
        byte[] expected = model.get(k);
        byte[] got = c.get(DetWoOramClientTest.key(k)).orElse(null);
        if (expected == null) {
          assertEquals(null, got, "key " + k);
        } else {
          assertArrayEquals(expected, got, "key " + k);
        }
      }
    }
    List<RecordingStore.Op> puts = new ArrayList<>();
    for (RecordingStore.Op op : store.ops()) {
      if (op.kind() == RecordingStore.Kind.PUT) {
        puts.add(op);
      }
      assertFalse(op.kind() == RecordingStore.Kind.DELETE, "DetWoORAM never deletes a store entry");
    }
    return puts;
  }

  private void checkSchedule(List<RecordingStore.Op> puts, int holding) {
    Schedule schedule = new Schedule(KEYS, holding);
    Labels labels = new Labels(DetWoOramClientTest.MASTER.derive(KeyPurposes.DETWORAM_LABELS));
    assertEquals(WRITES, puts.size(), "one multi-put per logical write");
    for (int s = 0; s < WRITES; s++) {
      List<byte[]> got = puts.get(s).labels();
      assertEquals(1 + schedule.refreshesPerWrite, got.size(), "blocks written by write " + s);
      assertArrayEquals(labels.holding(schedule.holdingSlot(s)), got.get(0), "holding slot of write " + s);
      for (int j = 0; j < schedule.refreshesPerWrite; j++) {
        assertArrayEquals(labels.main(schedule.refreshed(s, j)), got.get(1 + j), "refresh " + j + " of write " + s);
      }
    }
  }

  /**
   * Decrypts every block written, in order, and tracks where each logical block's newest copy is;
   * fails if a holding slot is overwritten while it is some block's newest copy.
   */
  private void checkNoCurrentCopyIsOverwritten(List<RecordingStore.Op> puts, int holding) {
    BlockCodec codec = new BlockCodec(new Aead(DetWoOramClientTest.MASTER.derive(KeyPurposes.DETWORAM_BLOCKS)),
        DetWoOramClientTest.KEY_SIZE, DetWoOramClientTest.VALUE_SIZE);
    int[] holderOf = new int[holding];
    Arrays.fill(holderOf, -1);
    int[] newestIn = new int[KEYS];
    Arrays.fill(newestIn, -1); // -1: main area
    int movedToMain = 0;
    int superseded = 0;
    for (int s = 0; s < puts.size(); s++) {
      RecordingStore.Op op = puts.get(s);
      int slot = s % holding;
      assertEquals(-1, holderOf[slot], "write " + s + " overwrites holding slot " + slot
          + ", the only current copy of block " + holderOf[slot]);
      BlockCodec.Block written = codec.open(op.labels().get(0), op.values().get(0), "holding");
      assertEquals(s, written.step());
      if (newestIn[written.id()] >= 0) {
        holderOf[newestIn[written.id()]] = -1;
        superseded++;
      }
      newestIn[written.id()] = slot;
      holderOf[slot] = written.id();
      for (int j = 1; j < op.labels().size(); j++) {
        BlockCodec.Block main = codec.open(op.labels().get(j), op.values().get(j), "main");
        assertEquals(s, main.step());
        if (newestIn[main.id()] >= 0) {
          holderOf[newestIn[main.id()]] = -1;
          newestIn[main.id()] = -1;
          movedToMain++;
        }
      }
    }
    long stillHeld = Arrays.stream(holderOf).filter(id -> id >= 0).count();
    assertEquals(WRITES, movedToMain + superseded + stillHeld, "every holding copy is moved, superseded or still held");
    assertTrue(movedToMain > WRITES / 4, "refreshes moved " + movedToMain + " copies to the main area");
    assertTrue(stillHeld <= holding);
  }

  @Test
  void zipfianWrites_putExactlyTheScheduledBlocks_andNeverOverwriteACurrentCopy_withMEqualN() {
    List<RecordingStore.Op> zipfian = run(dir.resolve("zipf"), KEYS, zipf(1), 1);
    checkSchedule(zipfian, KEYS);
    checkNoCurrentCopyIsOverwritten(zipfian, KEYS);

    // another key choice entirely (one key over and over): the same labels in the same order
    List<RecordingStore.Op> oneKey = run(dir.resolve("one"), KEYS, () -> 7, 2);
    for (int s = 0; s < WRITES; s++) {
      List<byte[]> a = zipfian.get(s).labels();
      List<byte[]> b = oneKey.get(s).labels();
      for (int j = 0; j < a.size(); j++) {
        assertArrayEquals(a.get(j), b.get(j), "write " + s + " block " + j + " depends on the key written");
      }
    }
  }

  @Test
  void zipfianWrites_withASmallHoldingArea_refreshCeilNOverMBlocksPerWrite_andNeverOverwriteACurrentCopy() {
    int holding = 300; // k = 4
    List<RecordingStore.Op> puts = run(dir.resolve("small"), holding, zipf(3), 3);
    checkSchedule(puts, holding);
    checkNoCurrentCopyIsOverwritten(puts, holding);
  }
}
