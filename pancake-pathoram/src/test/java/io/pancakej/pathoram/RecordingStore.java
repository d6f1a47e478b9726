package io.pancakej.pathoram;

import java.util.ArrayList;
import java.util.List;

import io.pancakej.store.ForwardingStore;
import io.pancakej.store.KvStore;
import io.pancakej.store.MemoryStore;

/**
 * Test decorator (after facebook/oram's CountAccessesDatabase): records every server-visible
 * operation in order. Closing it leaves the wrapped store open, so a test can reopen a client on
 * the same data.
 */
final class RecordingStore extends ForwardingStore {
  enum Kind { GET, PUT, DELETE }

  /** One multi-operation as the store saw it. */
  record Op(Kind kind, List<byte[]> labels, List<byte[]> values) {}

  private final List<Op> ops = new ArrayList<>();
  private boolean recording = true;

  RecordingStore(KvStore delegate) {
    super(delegate);
  }

  RecordingStore() {
    this(new MemoryStore());
  }

  @Override
  protected KvStore delegate() {
    return super.delegate();
  }

  synchronized List<Op> ops() {
    return new ArrayList<>(ops);
  }

  synchronized void clear() {
    ops.clear();
  }

  synchronized void recording(boolean on) {
    recording = on;
  }

  private synchronized void record(Kind kind, List<byte[]> labels, List<byte[]> values) {
    if (recording) {
      List<byte[]> v = new ArrayList<>();
      if (values != null) {
        for (byte[] x : values) {
          v.add(x == null ? null : x.clone());
        }
      }
      List<byte[]> l = new ArrayList<>();
      for (byte[] x : labels) {
        l.add(x.clone());
      }
      ops.add(new Op(kind, l, v));
    }
  }

  @Override
  public List<byte[]> multiGet(List<byte[]> keys) {
    List<byte[]> values = delegate().multiGet(keys);
    record(Kind.GET, keys, values);
    return values;
  }

  @Override
  public void multiPut(List<byte[]> keys, List<byte[]> values) {
    delegate().multiPut(keys, values);
    record(Kind.PUT, keys, values);
  }

  @Override
  public void multiDelete(List<byte[]> keys) {
    delegate().multiDelete(keys);
    record(Kind.DELETE, keys, null);
  }

  // every operation is recorded as the multi-operation it is made of
  @Override
  public List<byte[]> multiPutGet(List<byte[]> putKeys, List<byte[]> putValues, List<byte[]> getKeys) {
    return standardMultiPutGet(putKeys, putValues, getKeys);
  }

  @Override
  public byte[] get(byte[] key) {
    return standardGet(key);
  }

  @Override
  public void put(byte[] key, byte[] value) {
    standardPut(key, value);
  }

  @Override
  public void close() {
    // the test owns the wrapped store
  }
}
