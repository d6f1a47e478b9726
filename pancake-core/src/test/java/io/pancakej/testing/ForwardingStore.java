package io.pancakej.testing;

import java.util.List;

import io.pancakej.store.KvStore;

/**
 * A store that forwards every call to another; tests subclass it to observe or break some calls.
 * {@link #multiPutGet} is the interface's default, so it goes through this store's own
 * {@link #multiPut} and {@link #multiGet} (and what a subclass does there).
 */
public class ForwardingStore implements KvStore {
  private final KvStore delegate;

  public ForwardingStore(KvStore delegate) {
    this.delegate = delegate;
  }

  @Override
  public List<byte[]> multiGet(List<byte[]> keys) {
    return delegate.multiGet(keys);
  }

  @Override
  public void multiPut(List<byte[]> keys, List<byte[]> values) {
    delegate.multiPut(keys, values);
  }

  @Override
  public void multiDelete(List<byte[]> keys) {
    delegate.multiDelete(keys);
  }

  @Override
  public boolean isEmbedded() {
    return delegate.isEmbedded();
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
    delegate.close();
  }
}
