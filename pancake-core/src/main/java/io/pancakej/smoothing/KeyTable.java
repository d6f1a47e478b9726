package io.pancakej.smoothing;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReferenceArray;

import io.pancakej.CapacityException;

/**
 * Which key owns which key slot. New keys take a free slot in a secret random order, so a key's
 * slot (and hence its replicas' labels) is unrelated to when or in what order keys arrive. A
 * deleted key gives its slot back once the deletion reached every replica and no request still
 * refers to it; the slot is then handed to a later new key. All changes to one key's binding run
 * inside {@link ConcurrentHashMap#compute} on that key, so binding, reference counting and
 * freeing never race.
 */
final class KeyTable {
  private final ConcurrentHashMap<ByteBuffer, Integer> slotOf;
  private final AtomicReferenceArray<byte[]> keyOf;
  private final AtomicIntegerArray references;
  private final int[] neverUsed;
  private final AtomicInteger nextNeverUsed;
  private final ConcurrentLinkedQueue<Integer> recycled = new ConcurrentLinkedQueue<>();
  private final Listener listener;

  /** Hears every binding change inside its critical section (the write-ahead log). */
  interface Listener {
    void bound(int slot, byte[] key);

    void freed(int slot);
  }

  KeyTable(byte[][] keyOfSlot, int[] freeOrder, int nextFree, Listener listener) {
    this.listener = listener;
    this.keyOf = new AtomicReferenceArray<>(keyOfSlot.length);
    this.references = new AtomicIntegerArray(keyOfSlot.length);
    this.slotOf = new ConcurrentHashMap<>(keyOfSlot.length); // no rehashing while a proxy opens
    for (int s = 0; s < keyOfSlot.length; s++) {
      if (keyOfSlot[s] != null) {
        keyOf.set(s, keyOfSlot[s]);
        slotOf.put(ByteBuffer.wrap(keyOfSlot[s]), s);
      }
    }
    // free slots other than the never-used tail were recycled; keep their order
    this.neverUsed = freeOrder;
    this.nextNeverUsed = new AtomicInteger(nextFree);
  }

  /**
   * The slot of {@code key}, taking a reference on it that {@link #release} gives back; with
   * {@code bind}, a key without a slot gets a free one. Returns -1 (no reference) for an unbound
   * key when not binding.
   */
  int acquire(byte[] key, boolean bind) {
    int[] out = {-1};
    ByteBuffer k = ByteBuffer.wrap(bind ? key.clone() : key);
    slotOf.compute(k, (kk, s) -> {
      if (s == null) {
        if (!bind) {
          return null;
        }
        s = takeFree();
        listener.bound(s, kk.array());
        keyOf.set(s, kk.array());
      }
      references.incrementAndGet(s);
      out[0] = s;
      return s;
    });
    return out[0];
  }

  private int takeFree() {
    Integer r = recycled.poll();
    if (r != null) {
      return r;
    }
    int i = nextNeverUsed.getAndUpdate(x -> x < neverUsed.length ? x + 1 : x);
    if (i >= neverUsed.length) {
      throw new CapacityException("all " + keyOf.length() + " key slots hold live keys; raise pancake.capacity"
          + " (fixed when the state is created) or delete keys");
    }
    return neverUsed[i];
  }

  /** Gives back a reference taken by {@link #acquire}. */
  void release(int slot) {
    references.decrementAndGet(slot);
  }

  /**
   * Frees {@code slot} if its key is still bound to it, no request refers to it, and
   * {@code stillDeleted} confirms (inside the key's critical section) that the deletion is
   * complete. Returns true if freed.
   */
  boolean freeIfUnused(int slot, java.util.function.IntPredicate stillDeleted) {
    byte[] key = keyOf.get(slot);
    if (key == null) {
      return false;
    }
    boolean[] freed = {false};
    slotOf.computeIfPresent(ByteBuffer.wrap(key), (k, s) -> {
      if (s != slot || references.get(slot) != 0 || !stillDeleted.test(slot)) {
        return s;
      }
      listener.freed(slot);
      keyOf.set(slot, null);
      recycled.add(slot);
      freed[0] = true;
      return null;
    });
    return freed[0];
  }

  /** The key bound to {@code slot}, or null. */
  byte[] keyOf(int slot) {
    return keyOf.get(slot);
  }

  /** The slot bound to {@code key} without taking a reference, or -1. */
  int peek(byte[] key) {
    Integer s = slotOf.get(ByteBuffer.wrap(key));
    return s == null ? -1 : s;
  }

  /** Binds {@code key} without a reference (warm start from a distribution file). */
  int bindQuietly(byte[] key) {
    int s = acquire(key, true);
    release(s);
    return s;
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

  /** Free slots in the order they will be handed out: recycled ones first, then never used. */
  int[] freeOrder() {
    List<Integer> free = new ArrayList<>(recycled);
    for (int i = nextNeverUsed.get(); i < neverUsed.length; i++) {
      free.add(neverUsed[i]);
    }
    return free.stream().mapToInt(Integer::intValue).toArray();
  }
}
