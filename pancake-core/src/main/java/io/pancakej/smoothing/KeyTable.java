package io.pancakej.smoothing;

import java.nio.ByteBuffer;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;

import io.pancakej.CapacityException;

/**
 * Which key owns which key slot. New keys take the next slot of a secret random order, so a key's
 * slot (and hence its replicas' labels) is unrelated to when or in what order keys arrive.
 */
final class KeyTable {
  private final ConcurrentHashMap<ByteBuffer, Integer> slotOf = new ConcurrentHashMap<>();
  private final AtomicReferenceArray<byte[]> keyOf;
  private final int[] freeOrder;
  private final AtomicInteger nextFree;

  KeyTable(byte[][] keyOfSlot, int[] freeOrder, int nextFree) {
    this.keyOf = new AtomicReferenceArray<>(keyOfSlot.length);
    for (int s = 0; s < keyOfSlot.length; s++) {
      if (keyOfSlot[s] != null) {
        keyOf.set(s, keyOfSlot[s]);
        slotOf.put(ByteBuffer.wrap(keyOfSlot[s]), s);
      }
    }
    this.freeOrder = freeOrder;
    this.nextFree = new AtomicInteger(nextFree);
  }

  /** The slot of {@code key}, or -1 if it has none. */
  int slotOf(byte[] key) {
    Integer s = slotOf.get(ByteBuffer.wrap(key));
    return s == null ? -1 : s;
  }

  /** The slot of {@code key}, binding the next free slot if it has none. */
  int bind(byte[] key) {
    Integer s = slotOf.get(ByteBuffer.wrap(key));
    if (s != null) {
      return s;
    }
    byte[] copy = key.clone();
    return slotOf.computeIfAbsent(ByteBuffer.wrap(copy), k -> {
      int i = nextFree.getAndUpdate(x -> x < freeOrder.length ? x + 1 : x);
      if (i >= freeOrder.length) {
        throw new CapacityException("all " + keyOf.length() + " key slots are taken; raise pancake.capacity"
            + " (it is fixed when the state is created)");
      }
      int slot = freeOrder[i];
      keyOf.set(slot, copy);
      return slot;
    });
  }

  /** The key bound to {@code slot}, or null. */
  byte[] keyOf(int slot) {
    return keyOf.get(slot);
  }

  int boundKeys() {
    return slotOf.size();
  }

  byte[][] snapshotKeys() {
    byte[][] out = new byte[keyOf.length()][];
    for (int s = 0; s < out.length; s++) {
      out[s] = keyOf.get(s);
    }
    return out;
  }

  int[] freeOrder() {
    return freeOrder.clone();
  }

  int nextFree() {
    return nextFree.get();
  }
}
