package io.pancakej.detworam;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * Client-side bookkeeping, never sent to the store: which key is bound to which logical block,
 * the free block ids, and the position map -- for each logical block, whether its newest copy is
 * in the main area (at its own index) or in a holding slot, and for each holding slot the block
 * whose newest copy it holds. Not thread-safe; the client's lock guards it.
 *
 * <p>A deleted block stays in the position map until the refresh empties its main position: its
 * newest copy is the delete's tombstone.
 */
final class PositionMap {
  /** {@link #where} of a block whose newest copy is at its main-area position. */
  static final int MAIN = -1;
  /** {@link #holder} of a holding slot that holds no block's newest copy. */
  static final int NONE = -1;

  final int capacity;
  final byte[][] keyOf;
  final int[] where;
  final int[] holder;
  private final Map<ByteBuffer, Integer> idOf = new HashMap<>();
  private final int[] free;
  private int freeCount;

  PositionMap(int capacity, int holdingSlots) {
    this.capacity = capacity;
    this.keyOf = new byte[capacity][];
    this.where = new int[capacity];
    this.holder = new int[holdingSlots];
    this.free = new int[capacity];
    Arrays.fill(where, MAIN);
    rebuild();
  }

  /** Rebuilds the key index, the free list and the holding-slot owners from {@link #keyOf} and {@link #where}. */
  void rebuild() {
    idOf.clear();
    freeCount = 0;
    Arrays.fill(holder, NONE);
    for (int id = capacity - 1; id >= 0; id--) {
      if (keyOf[id] == null) {
        free[freeCount++] = id;
      } else {
        idOf.put(ByteBuffer.wrap(keyOf[id]), id);
      }
      if (where[id] != MAIN) {
        if (where[id] < 0 || where[id] >= holder.length || holder[where[id]] != NONE) {
          throw new IllegalStateException("position map: block " + id + " at holding slot " + where[id]);
        }
        holder[where[id]] = id;
      }
    }
  }

  /** The block bound to {@code key}, or -1. */
  int idOf(byte[] key) {
    Integer id = idOf.get(ByteBuffer.wrap(key));
    return id == null ? -1 : id;
  }

  int size() {
    return capacity - freeCount;
  }

  boolean hasFreeId() {
    return freeCount > 0;
  }

  /** The id {@link #bind} would use next; the caller checked {@link #hasFreeId()}. */
  int nextFreeId() {
    return free[freeCount - 1];
  }

  /** Binds {@code key} (copied) to {@code id}, which must be free. */
  void bind(byte[] key, int id) {
    if (keyOf[id] != null) {
      throw new IllegalStateException("block " + id + " is already bound");
    }
    int at = -1;
    for (int i = freeCount - 1; i >= 0; i--) {
      if (free[i] == id) {
        at = i;
        break;
      }
    }
    if (at < 0) {
      throw new IllegalStateException("block " + id + " is not free");
    }
    free[at] = free[--freeCount];
    keyOf[id] = key.clone();
    idOf.put(ByteBuffer.wrap(keyOf[id]), id);
  }

  /** Unbinds the key of {@code id}; its position stays until the refresh. */
  void unbind(int id) {
    idOf.remove(ByteBuffer.wrap(keyOf[id]));
    keyOf[id] = null;
    free[freeCount++] = id;
  }

  /** The newest copy of {@code id} is now in holding slot {@code slot}, which held no newest copy. */
  void moveToHolding(int id, int slot) {
    if (holder[slot] != NONE) {
      throw new IllegalStateException("DetWoORAM invariant broken: holding slot " + slot
          + " still holds the only current copy of block " + holder[slot]);
    }
    if (where[id] != MAIN) {
      holder[where[id]] = NONE;
    }
    where[id] = slot;
    holder[slot] = id;
  }

  /** The newest copy of {@code id} is now at its main position. */
  void moveToMain(int id) {
    if (where[id] != MAIN) {
      holder[where[id]] = NONE;
      where[id] = MAIN;
    }
  }
}
