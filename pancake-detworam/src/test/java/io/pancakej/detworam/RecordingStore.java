package io.pancakej.detworam;

import java.util.ArrayList;
import java.util.List;

import io.pancakej.store.KvStore;
import io.pancakej.store.ForwardingStore;

/**
 * Test decorator on the project's forwarding base: records every server-visible multi-operation
 * in order, labels and values copied. Closing it leaves the wrapped store open, so a test can
 * reopen a client on the same data (or abandon one, as a crash would).
 */
class RecordingStore extends ForwardingStore {
  enum Kind { GET, PUT, DELETE }

  /** One multi-operation as the store saw it. */
  record Op(Kind kind, List<byte[]> labels, List<byte[]> values) {}

  private final KvStore delegate;
  private final List<Op> ops = new ArrayList<>();
  private boolean recording = true;

  RecordingStore(KvStore delegate) {
    super(delegate);
    this.delegate = delegate;
  }

  @Override
  protected KvStore delegate() {
    return delegate;
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
      List<byte[]> l = new ArrayList<>(labels.size());
      labels.forEach(x -> l.add(x.clone()));
      List<byte[]> v = new ArrayList<>();
      if (values != null) {
        values.forEach(x -> v.add(x == null ? null : x.clone()));
      }
      ops.add(new Op(kind, l, v));
    }
  }

  @Override
  public List<byte[]> multiGet(List<byte[]> keys) {
    List<byte[]> values = super.multiGet(keys);
    record(Kind.GET, keys, values);
    return values;
  }

  @Override
  public void multiPut(List<byte[]> keys, List<byte[]> values) {
    super.multiPut(keys, values);
    record(Kind.PUT, keys, values);
  }

  @Override
  public void multiDelete(List<byte[]> keys) {
    super.multiDelete(keys);
    record(Kind.DELETE, keys, null);
  }

  @Override
  public List<byte[]> multiPutGet(List<byte[]> putKeys, List<byte[]> putValues, List<byte[]> getKeys) {
    return standardMultiPutGet(putKeys, putValues, getKeys); // through multiPut and multiGet: recorded
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
