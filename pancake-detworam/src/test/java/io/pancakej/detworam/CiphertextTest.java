package io.pancakej.detworam;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Random;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.pancakej.IntegrityException;
import io.pancakej.crypto.KeyPurposes;
import io.pancakej.store.MemoryStore;

/** What the store holds: fixed-size, freshly randomized, position-bound and fresh ciphertexts. */
class CiphertextTest {
  @TempDir
  Path dir;

  private final MemoryStore memory = new MemoryStore();
  private final RecordingStore store = new RecordingStore(memory);
  private final Labels labels = new Labels(DetWoOramClientTest.MASTER.derive(KeyPurposes.DETWORAM_LABELS));

  @Test
  void everyBlockWritten_hasTheSameLength_andTheStoreHoldsExactlyNPlusMEntries() {
    Set<Integer> lengths = new HashSet<>();
    try (DetWoOramClient c = DetWoOramClientTest.small(dir, 128, 32).store(store).build()) {
      DetWoOramClientTest.randomOps(c, new Random(31), DetWoOramClientTest.keys(0, 100), 2_000);
    }
    int writes = 0;
    for (RecordingStore.Op op : store.ops()) {
      if (op.kind() == RecordingStore.Kind.PUT) {
        for (byte[] v : op.values()) {
          lengths.add(v.length);
          writes++;
        }
      }
    }
    assertEquals(1, lengths.size(), "ciphertext lengths seen: " + lengths);
    assertTrue(writes > 160 + 2 * 500, "initialization and writes recorded: " + writes);
    assertEquals(128 + 32, memory.size(), "N main blocks and M holding slots, nothing else");
  }

  @Test
  void rewritingTheSameBlock_withTheSameContent_givesAFreshCiphertextEveryTime() {
    Set<ByteBuffer> seen = new HashSet<>();
    int mainZeroWrites = 0;
    try (DetWoOramClient c = DetWoOramClientTest.small(dir, 2, 2).store(store).build()) {
      for (int i = 0; i < 200; i++) {
        c.put(DetWoOramClientTest.key(1), new byte[] {1});
      }
    }
    for (RecordingStore.Op op : store.ops()) {
      for (int i = 0; i < op.labels().size(); i++) {
        if (op.kind() == RecordingStore.Kind.PUT && java.util.Arrays.equals(op.labels().get(i), labels.main(0))) {
          seen.add(ByteBuffer.wrap(op.values().get(i)));
          mainZeroWrites++;
        }
      }
    }
    assertEquals(101, mainZeroWrites, "initialization plus every other write refreshes main block 0");
    assertEquals(mainZeroWrites, seen.size(), "every write of a block is a fresh ciphertext");
  }

  @Test
  void aTamperedMovedOrRolledBackBlock_failsWithIntegrityException_andTheGenuineOneStillOpens() {
    try (DetWoOramClient c = DetWoOramClientTest.small(dir, 4, 4).store(store).build()) {
      byte[] k = DetWoOramClientTest.key(1);
      c.put(k, new byte[] {1}); // write 0: block 0 into holding 0, main 0 refreshed with it
      byte[] label = labels.main(0);
      byte[] first = memory.get(label);
      c.put(DetWoOramClientTest.key(2), new byte[] {2}); // write 1 refreshes main 1
      c.put(DetWoOramClientTest.key(3), new byte[] {3});
      c.put(DetWoOramClientTest.key(4), new byte[] {4});
      c.put(DetWoOramClientTest.key(2), new byte[] {5}); // write 4 refreshes main 0 again
      byte[] sealed = memory.get(label);
      for (int i = 0; i < sealed.length; i++) {
        byte[] tampered = sealed.clone();
        tampered[i] ^= 1;
        memory.put(label, tampered);
        assertThrows(IntegrityException.class, () -> c.get(k), "byte " + i + " flipped");
      }
      memory.put(label, memory.get(labels.main(1))); // a valid block of another position
      IntegrityException moved = assertThrows(IntegrityException.class, () -> c.get(k));
      assertTrue(moved.getMessage().contains("main block 0"), moved.getMessage());
      memory.put(label, first); // its own, older, authentic ciphertext
      IntegrityException rolledBack = assertThrows(IntegrityException.class, () -> c.get(k));
      assertTrue(rolledBack.getMessage().contains("rolled back"), rolledBack.getMessage());
      memory.put(label, sealed);
      assertArrayEquals(new byte[] {1}, c.get(k).orElseThrow(), "the genuine block still opens");
    }
  }
}
