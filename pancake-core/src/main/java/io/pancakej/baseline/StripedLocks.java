package io.pancakej.baseline;

import java.util.Arrays;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A fixed array of locks indexed by a hash of the key: operations on one key are serialized
 * inside this JVM, operations on different keys mostly run in parallel. It does not coordinate
 * separate processes sharing one store.
 */
final class StripedLocks {
  private final ReentrantLock[] locks;
  private final int mask;

  /** {@code stripes} is rounded up to a power of two. */
  StripedLocks(int stripes) {
    int n = Integer.highestOneBit(Math.max(1, stripes - 1)) << 1;
    locks = new ReentrantLock[n];
    for (int i = 0; i < n; i++) {
      locks[i] = new ReentrantLock();
    }
    mask = n - 1;
  }

  /** The lock guarding {@code key}. */
  ReentrantLock forKey(byte[] key) {
    int h = Arrays.hashCode(key);
    h ^= h >>> 16;
    h *= 0x45d9f3b;
    h ^= h >>> 16;
    return locks[h & mask];
  }
}
