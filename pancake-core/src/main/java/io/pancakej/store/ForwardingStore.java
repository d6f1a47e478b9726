package io.pancakej.store;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A store that forwards every call of the {@link KvStore} SPI to another store, after Guava's
 * {@code ForwardingObject} family: a decorator extends it and overrides only what it changes, and a
 * new SPI method is added here once rather than in every decorator.
 *
 * <p>Every method forwards, the ones {@link KvStore} gives a default included: {@link #multiPutGet},
 * {@link #get}, {@link #put}, {@link #isEmbedded} and {@link #storage} reach the delegate's own
 * implementation (Redis sends a put-and-get as one pipeline), never this class's other methods. So
 * a decorator that overrides {@link #multiGet} to observe reads sees only the reads made through
 * {@code multiGet}; to see every read and write it also overrides {@link #multiPutGet},
 * {@link #get} and {@link #put}, typically with the {@code standard} methods below, which express
 * them through this store's own {@link #multiGet} and {@link #multiPut} (Guava's
 * {@code standardXxx} idiom).
 *
 * <p>That includes {@link #sendPutGet}, the call the PANCAKE proxy's ticks use: a decorator that
 * overrides {@link #multiPutGet} to see ticks overrides it too, either keeping the delegate's
 * pipelining ({@link TracingStore}, {@link CountingStore}) or with {@link #standardSendPutGet},
 * which makes the call at once through this store's own {@code multiPutGet}.
 *
 * <p>Thread-safe when the delegate is; {@link #close()} closes the delegate (idempotent when the
 * delegate's close is).
 */
public abstract class ForwardingStore implements KvStore {
  private final KvStore delegate;

  /** Forwards to {@code delegate}, which this store then owns (its {@link #close()} closes it). */
  protected ForwardingStore(KvStore delegate) {
    this.delegate = Objects.requireNonNull(delegate, "delegate");
  }

  /** The wrapped store. */
  protected KvStore delegate() {
    return delegate;
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
  public List<byte[]> multiPutGet(List<byte[]> putKeys, List<byte[]> putValues, List<byte[]> getKeys) {
    return delegate.multiPutGet(putKeys, putValues, getKeys);
  }

  @Override
  public PendingReply sendPutGet(List<byte[]> putKeys, List<byte[]> putValues, List<byte[]> getKeys) {
    return delegate.sendPutGet(putKeys, putValues, getKeys);
  }

  @Override
  public boolean isEmbedded() {
    return delegate.isEmbedded();
  }

  @Override
  public void multiDelete(List<byte[]> keys) {
    delegate.multiDelete(keys);
  }

  @Override
  public byte[] get(byte[] key) {
    return delegate.get(key);
  }

  @Override
  public void put(byte[] key, byte[] value) {
    delegate.put(key, value);
  }

  @Override
  public String describe() {
    return delegate.describe();
  }

  @Override
  public boolean isEmpty() {
    return delegate.isEmpty();
  }

  @Override
  public Optional<Storage> storage() {
    return delegate.storage();
  }

  @Override
  public void close() {
    delegate.close();
  }

  /**
   * {@link #multiPutGet} as this store's {@link #multiPut} followed by its {@link #multiGet} (two
   * calls on the delegate): for a decorator that overrides those two and wants put-and-get calls
   * to go through them.
   */
  protected final List<byte[]> standardMultiPutGet(List<byte[]> putKeys, List<byte[]> putValues,
      List<byte[]> getKeys) {
    multiPut(putKeys, putValues);
    return multiGet(getKeys);
  }

  /**
   * {@link #sendPutGet} as a call of this store's {@link #multiPutGet}, made at once (its reply is
   * ready when this returns): for a decorator that observes or changes {@code multiPutGet}.
   */
  protected final PendingReply standardSendPutGet(List<byte[]> putKeys, List<byte[]> putValues,
      List<byte[]> getKeys) {
    List<byte[]> values = multiPutGet(putKeys, putValues, getKeys);
    return () -> values;
  }

  /** {@link #get} as a one-element call of this store's {@link #multiGet}. */
  protected final byte[] standardGet(byte[] key) {
    return multiGet(List.of(key)).get(0);
  }

  /** {@link #put} as a one-element call of this store's {@link #multiPut}. */
  protected final void standardPut(byte[] key, byte[] value) {
    multiPut(List.of(key), List.of(value));
  }
}
