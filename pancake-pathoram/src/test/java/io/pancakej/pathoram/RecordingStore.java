package io.pancakej.pathoram;

import java.util.ArrayList;
import java.util.List;

import io.pancakej.store.KvStore;
import io.pancakej.store.MemoryStore;

/**
 * Test decorator (after facebook/oram's CountAccessesDatabase): records every server-visible
 * operation in order. Closing it leaves the wrapped store open, so a test can reopen a client on
 * the same data.
 */
final class RecordingStore implements KvStore {
  enum Kind { GET, PUT, DELETE }

  /** One multi-operation as the store saw it. */
  record Op(Kind kind, List<byte[]> labels, List<byte[]> values) {}

  private final KvStore delegate;
  private final List<Op> ops = new ArrayList<>();
  private boolean recording = true;

  RecordingStore(KvStore delegate) {
    this.delegate = delegate;
  }

  RecordingStore() {
    this(new MemoryStore());
  }

  KvStore delegate() {
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
    List<byte[]> values = delegate.multiGet(keys);
    record(Kind.GET, keys, values);
    return values;
  }

  @Override
  public void multiPut(List<byte[]> keys, List<byte[]> values) {
    delegate.multiPut(keys, values);
    record(Kind.PUT, keys, values);
  }

  @Override
  public void multiDelete(List<byte[]> keys) {
    delegate.multiDelete(keys);
    record(Kind.DELETE, keys, null);
  }

  @Override
  public boolean isEmpty() {
    return delegate.isEmpty();
  }

  @Override
  public String describe() {
    return delegate.describe();
  }

  @Override
  public void close() {
    // the test owns the wrapped store
  }
}
