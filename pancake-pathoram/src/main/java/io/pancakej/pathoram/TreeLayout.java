package io.pancakej.pathoram;

import java.util.ArrayList;
import java.util.List;

/**
 * The public shape of the tree: height L, 2^L leaves, 2^(L+1)-1 buckets stored in heap order
 * (root 0, children of i at 2i+1 and 2i+2), so the bucket at level d on the path to leaf x is
 * {@code 2^d - 1 + (x >> (L - d))}. A bucket's store label is its index as 8 big-endian bytes:
 * the tree is public in Path ORAM, so the label hides nothing and needs no PRF.
 */
final class TreeLayout {
  /** Largest height supported: leaves are drawn with {@code nextInt(2^L)}. */
  static final int MAX_HEIGHT = 30;

  final int height;
  final int leaves;
  final long buckets;

  TreeLayout(int height) {
    if (height < 0 || height > MAX_HEIGHT) {
      throw new IllegalArgumentException("tree height must be 0.." + MAX_HEIGHT + ", got " + height);
    }
    this.height = height;
    this.leaves = 1 << height;
    this.buckets = (1L << (height + 1)) - 1;
  }

  /** L = ceil(log2(capacity)), so there are at least as many leaves as blocks. */
  static TreeLayout forCapacity(int capacity) {
    if (capacity < 1) {
      throw new IllegalArgumentException("capacity must be at least 1, got " + capacity);
    }
    int height = capacity == 1 ? 0 : 32 - Integer.numberOfLeadingZeros(capacity - 1);
    return new TreeLayout(height);
  }

  /** Buckets on one root-to-leaf path, L + 1. */
  int pathLength() {
    return height + 1;
  }

  /** Index of the bucket at {@code level} (0 = root) on the path to {@code leaf}. */
  long bucket(int leaf, int level) {
    return (1L << level) - 1 + (leaf >>> (height - level));
  }

  /**
   * The deepest level at which the paths to leaves {@code a} and {@code b} still share a bucket
   * (L when a == b, 0 when they meet only at the root).
   */
  int commonDepth(int a, int b) {
    return height - (32 - Integer.numberOfLeadingZeros(a ^ b));
  }

  /** Labels of the path to {@code leaf}, root first. */
  List<byte[]> pathLabels(int leaf) {
    List<byte[]> labels = new ArrayList<>(pathLength());
    for (int level = 0; level <= height; level++) {
      labels.add(label(bucket(leaf, level)));
    }
    return labels;
  }

  static byte[] label(long bucket) {
    byte[] b = new byte[8];
    for (int i = 7; i >= 0; i--) {
      b[i] = (byte) bucket;
      bucket >>>= 8;
    }
    return b;
  }

  static long bucketOf(byte[] label) {
    if (label.length != 8) {
      throw new IllegalArgumentException("a bucket label has 8 bytes, got " + label.length);
    }
    long v = 0;
    for (byte x : label) {
      v = (v << 8) | (x & 0xff);
    }
    return v;
  }
}
