package io.pancakej.store;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

import io.pancakej.StoreException;

/**
 * An in-process store on a concurrent hash map: for tests and for measuring the proxy alone. Its
 * data lives in this JVM only. {@code pancake.store=memory} opens a new, empty one each time, so
 * it serves one process: a state directory an earlier process left is refused at open
 * ({@link Stores#open(java.util.Properties, java.nio.file.Path, boolean)}) rather than reopened over data that is gone.
 */
public final class MemoryStore implements KvStore {
  private final ConcurrentHashMap<ByteBuffer, byte[]> map;
  private final AtomicBoolean open = new AtomicBoolean(true);
  private final String name;

  public MemoryStore() {
    this("memory");
  }

  public MemoryStore(String name) {
    this(name, new ConcurrentHashMap<>());
  }

  private MemoryStore(String name, ConcurrentHashMap<ByteBuffer, byte[]> map) {
    this.name = Objects.requireNonNull(name, "name");
    this.map = map;
  }

  /**
   * A new open store over the same contents (a closed one included): simulates a server that
   * outlives its client, for tests of state carried across client sessions.
   */
  public MemoryStore reopen() {
    return new MemoryStore(name, map);
  }

  @Override
  public List<byte[]> multiGet(List<byte[]> keys) {
    checkOpen();
    List<byte[]> out = new ArrayList<>(keys.size());
    for (byte[] k : keys) {
      out.add(map.get(ByteBuffer.wrap(k)));
    }
    return out;
  }

  @Override
  public void multiPut(List<byte[]> keys, List<byte[]> values) {
    checkOpen();
    Stores.checkSameSize(keys, values);
    for (int i = 0; i < keys.size(); i++) {
      map.put(ByteBuffer.wrap(keys.get(i).clone()), values.get(i).clone());
    }
  }

  @Override
  public void multiDelete(List<byte[]> keys) {
    checkOpen();
    for (byte[] k : keys) {
      map.remove(ByteBuffer.wrap(k));
    }
  }

  /** Number of entries held: the server storage figure for tests. */
  public int size() {
    return map.size();
  }

  @Override
  public boolean isEmpty() {
    checkOpen();
    return map.isEmpty();
  }

  @Override
  public boolean isEmbedded() {
    return true;
  }

  @Override
  public String describe() {
    return name;
  }

  /** Entries, and the bytes of their keys and values. */
  @Override
  public Optional<Storage> storage() {
    long bytes = 0;
    for (Map.Entry<ByteBuffer, byte[]> e : map.entrySet()) {
      bytes += e.getKey().remaining() + e.getValue().length;
    }
    return Optional.of(new Storage(map.size(), bytes));
  }

  private void checkOpen() {
    if (!open.get()) {
      throw new StoreException("memory store is closed");
    }
  }

  @Override
  public void close() {
    open.set(false);
  }
}
