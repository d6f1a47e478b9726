package io.pancakej.pathoram;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.pancakej.IntegrityException;

/** What the store holds: fixed-size, freshly randomized, label-bound ciphertexts. */
class CiphertextTest {
  @TempDir
  Path dir;

  @Test
  void everyCiphertextWritten_hasTheSameLength() {
    RecordingStore store = new RecordingStore();
    Set<Integer> lengths = new HashSet<>();
    try (PathOramClient c = PathOramClientTest.small(dir, 128, 31).store(store).build()) {
      PathOramClientTest.randomOps(c, new Random(31), PathOramClientTest.keys(0, 100), 2_000);
    }
    int writes = 0;
    for (RecordingStore.Op op : store.ops()) {
      for (byte[] v : op.values()) {
        lengths.add(v.length);
        writes++;
      }
    }
    assertEquals(1, lengths.size(), "ciphertext lengths seen: " + lengths);
    assertTrue(writes > 2 * 2_000 * 8, "initialization, reads and writes all recorded: " + writes);
  }

  @Test
  void twoWritesOfTheSameBucket_differ_evenWhenItStaysEmpty() {
    RecordingStore store = new RecordingStore();
    Set<ByteBuffer> roots = new HashSet<>();
    int rootWrites = 0;
    try (PathOramClient c = PathOramClientTest.small(dir, 128, 32).store(store).build()) {
      for (int i = 0; i < 200; i++) {
        c.get(PathOramClientTest.key(i)); // absent keys: every bucket stays empty
      }
    }
    for (RecordingStore.Op op : store.ops()) {
      if (op.kind() != RecordingStore.Kind.PUT) {
        continue;
      }
      for (int i = 0; i < op.labels().size(); i++) {
        if (TreeLayout.bucketOf(op.labels().get(i)) == 0) {
          roots.add(ByteBuffer.wrap(op.values().get(i)));
          rootWrites++;
        }
      }
    }
    assertEquals(201, rootWrites, "initialization plus one write per access");
    assertEquals(rootWrites, roots.size(), "every write of the root bucket is a fresh ciphertext");
  }

  @Test
  void aTamperedOrMovedBucket_failsAuthentication() {
    RecordingStore store = new RecordingStore();
    try (PathOramClient c = PathOramClientTest.small(dir, 4, 33).store(store).build()) {
      c.put(PathOramClientTest.key(1), new byte[] {1});
      byte[] root = TreeLayout.label(0);
      byte[] child = TreeLayout.label(1);
      byte[] sealed = store.delegate().get(root);
      byte[] tampered = sealed.clone();
      tampered[tampered.length / 2] ^= 1;
      store.delegate().put(root, tampered);
      assertThrows(IntegrityException.class, () -> c.get(PathOramClientTest.key(1)));
      store.delegate().put(root, store.delegate().get(child)); // a valid ciphertext of another bucket
      assertThrows(IntegrityException.class, () -> c.get(PathOramClientTest.key(1)));
      store.delegate().put(root, sealed);
      assertFalse(c.get(PathOramClientTest.key(1)).isEmpty(), "the genuine bucket still opens");
      List<RecordingStore.Op> ops = store.ops();
      assertFalse(ops.isEmpty());
    }
  }
}
