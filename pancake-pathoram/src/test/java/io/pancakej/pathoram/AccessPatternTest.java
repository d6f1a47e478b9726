package io.pancakej.pathoram;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Random;

import org.apache.commons.math3.stat.inference.ChiSquareTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the store sees: one path read and the same path written, at uniformly random leaves. */
class AccessPatternTest {
  /**
   * Significance of the uniformity tests. A correct client draws every leaf uniformly and
   * independently, so the chi-square statistic follows its null distribution and the test fails
   * by chance with probability 0.001; with fixed seeds the outcome is deterministic, so a pass
   * today is a pass on every run.
   */
  static final double ALPHA = 0.001;

  @TempDir
  Path dir;

  /** Checks the store saw exactly one access (path read, same path written) and returns its leaf. */
  static int leafOfOneAccess(RecordingStore store, int height) {
    List<RecordingStore.Op> ops = store.ops();
    store.clear();
    assertEquals(2, ops.size(), "one multiGet and one multiPut per access");
    RecordingStore.Op read = ops.get(0);
    RecordingStore.Op write = ops.get(1);
    assertEquals(RecordingStore.Kind.GET, read.kind());
    assertEquals(RecordingStore.Kind.PUT, write.kind());
    assertEquals(height + 1, read.labels().size(), "L+1 buckets read");
    assertEquals(height + 1, write.labels().size(), "L+1 buckets written");
    long previous = -1;
    for (int level = 0; level <= height; level++) {
      long bucket = TreeLayout.bucketOf(read.labels().get(level));
      if (level == 0) {
        assertEquals(0, bucket, "a path starts at the root");
      } else {
        assertTrue(bucket == 2 * previous + 1 || bucket == 2 * previous + 2, "bucket " + bucket
            + " is not a child of " + previous);
      }
      assertArrayEquals(read.labels().get(level), write.labels().get(level), "the path read is written back");
      previous = bucket;
    }
    return (int) (previous - ((1L << height) - 1));
  }

  @Test
  void everyKindOfAccess_readsOnePathInOneMultiGet_andWritesItBackInOneMultiPut() {
    RecordingStore store = new RecordingStore();
    try (PathOramClient c = PathOramClientTest.small(dir, 1024, 11).store(store).build()) {
      store.clear();
      byte[] k = PathOramClientTest.key(1);
      c.get(k); // absent
      leafOfOneAccess(store, 10);
      c.put(k, new byte[] {1});
      leafOfOneAccess(store, 10);
      c.get(k);
      leafOfOneAccess(store, 10);
      c.update(k, v -> new byte[] {2});
      leafOfOneAccess(store, 10);
      c.update(PathOramClientTest.key(2), v -> v); // absent
      leafOfOneAccess(store, 10);
      try {
        c.update(k, v -> {
          throw new IllegalStateException("merge failed");
        });
      } catch (IllegalStateException expected) {
        // a failing merge still looks like any access
      }
      leafOfOneAccess(store, 10);
      c.delete(k);
      leafOfOneAccess(store, 10);
      c.delete(k); // absent
      leafOfOneAccess(store, 10);
    }
  }

  @Test
  void leavesRead_areUniform_evenUnderAHeavilySkewedWorkload() {
    int capacity = 1024;
    int accesses = 100_000;
    RecordingStore store = new RecordingStore();
    long[] observed = new long[capacity];
    try (PathOramClient c = PathOramClientTest.small(dir, capacity, 12).store(store).build()) {
      Random r = new Random(13);
      for (int i = 0; i < capacity; i++) {
        c.put(PathOramClientTest.key(i), PathOramClientTest.randomValue(r));
      }
      store.clear();
      for (int i = 0; i < accesses; i++) {
        // 90% of the accesses go to 8 hot keys
        int k = r.nextInt(10) < 9 ? r.nextInt(8) : r.nextInt(capacity);
        if (r.nextBoolean()) {
          c.get(PathOramClientTest.key(k));
        } else {
          c.put(PathOramClientTest.key(k), PathOramClientTest.randomValue(r));
        }
        observed[leafOfOneAccess(store, 10)]++;
      }
      double p = uniformityPValue(observed);
      System.out.printf("pathoram uniformity: %d accesses over %d leaves, chi-square p = %.4f, %s%n",
          accesses, capacity, p, c.stats());
      assertTrue(p > ALPHA, "leaves read are not uniform: p = " + p);
    }
  }

  @Test
  void theUniformityCheck_rejectsASkewedLeafSequence() {
    // the same workload against a broken ORAM that never remaps: each key keeps one leaf
    int leaves = 1024;
    long[] observed = new long[leaves];
    Random r = new Random(13);
    int[] fixedLeaf = new int[leaves];
    for (int i = 0; i < leaves; i++) {
      fixedLeaf[i] = r.nextInt(leaves);
    }
    for (int i = 0; i < 100_000; i++) {
      int k = r.nextInt(10) < 9 ? r.nextInt(8) : r.nextInt(leaves);
      observed[fixedLeaf[k]]++;
    }
    assertTrue(uniformityPValue(observed) < ALPHA);
    // and a mild skew: one leaf in 64 drawn twice as often
    long[] mild = new long[leaves];
    for (int i = 0; i < 100_000; i++) {
      int leaf = r.nextInt(leaves);
      if (leaf % 64 != 0 && r.nextInt(64) == 0) {
        leaf = leaf - leaf % 64;
      }
      mild[leaf]++;
    }
    double p = uniformityPValue(mild);
    System.out.printf("pathoram uniformity check on a mildly skewed sequence: p = %.3g%n", p);
    assertTrue(p < ALPHA);
  }

  static double uniformityPValue(long[] observed) {
    long total = 0;
    for (long o : observed) {
      total += o;
    }
    double[] expected = new double[observed.length];
    java.util.Arrays.fill(expected, (double) total / observed.length);
    return new ChiSquareTest().chiSquareTest(expected, observed);
  }
}
