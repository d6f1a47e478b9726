package io.pancakej.pathoram;

import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Client-side bookkeeping of the ORAM, never sent to the store: which key is bound to which block
 * id, the position map (block id to leaf), each block's version, the free ids, and the stash
 * (block id to value). Not thread-safe; the client's lock guards it.
 *
 * <p>A block's version grows on every access of it and on its deletion; a copy read from the
 * store with another version is stale and dropped.
 */
final class BlockTable {
  final int capacity;
  final byte[][] keyOf;
  final int[] position;
  final int[] version;
  final Map<Integer, byte[]> stash = new LinkedHashMap<>();
  private final Map<ByteBuffer, Integer> idOf = new HashMap<>();
  private final int[] free;
  private int freeCount;

  BlockTable(int capacity) {
    this.capacity = capacity;
    this.keyOf = new byte[capacity][];
    this.position = new int[capacity];
    this.version = new int[capacity];
    this.free = new int[capacity];
    rebuildIndex();
  }

  /** Rebuilds the key index and the free list from {@link #keyOf} (after loading state). */
  void rebuildIndex() {
    idOf.clear();
    freeCount = 0;
    for (int id = capacity - 1; id >= 0; id--) {
      if (keyOf[id] == null) {
        free[freeCount++] = id;
      } else {
        idOf.put(ByteBuffer.wrap(keyOf[id]), id);
      }
    }
  }

  /** The block id bound to {@code key}, or -1. */
  int idOf(byte[] key) {
    Integer id = idOf.get(ByteBuffer.wrap(key));
    return id == null ? -1 : id;
  }

  /** Number of keys bound to blocks. */
  int size() {
    return capacity - freeCount;
  }

  boolean hasFreeId() {
    return freeCount > 0;
  }

  /** Binds {@code key} (copied) to a free block id. The caller checked {@link #hasFreeId()}. */
  int bind(byte[] key) {
    int id = free[--freeCount];
    keyOf[id] = key.clone();
    idOf.put(ByteBuffer.wrap(keyOf[id]), id);
    return id;
  }

  /** Frees {@code id}; its version moves on so that stale copies of it are recognised. */
  void unbind(int id) {
    idOf.remove(ByteBuffer.wrap(keyOf[id]));
    keyOf[id] = null;
    stash.remove(id);
    version[id]++;
    free[freeCount++] = id;
  }

  /** Whether a block read from the store is the live copy of a bound block. */
  boolean isLive(BucketCodec.Block b) {
    int id = b.id();
    return id >= 0 && id < capacity && keyOf[id] != null && version[id] == b.version();
  }
}
