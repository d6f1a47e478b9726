package io.pancakej.store;

import java.util.List;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counts the server-visible work done through a store (after facebook/oram's
 * {@code CountAccessesDatabase}): round trips, keys read, written and deleted, and bytes read and
 * written. Bandwidth figures and tests read the counts with {@link #snapshot()}.
 *
 * <p>What is counted, for each multi-operation that returns normally (a failed operation counts
 * nothing, an operation on an empty list is not a round trip and counts nothing):
 * <ul>
 *   <li>{@code roundTrips}: one per {@link #multiGet}, {@link #multiPut}, {@link #multiDelete} or
 *       {@link #multiPutGet} call (single-key {@link #get}/{@link #put} are one-element
 *       multi-operations). These are calls of this interface: one network round trip on Redis,
 *       one pipeline per master on a cluster, and a {@link #multiPutGet} on a store without a
 *       native one (RocksDB, memory) is two calls underneath;</li>
 *   <li>{@code keysRead}, {@code keysWritten}, {@code keysDeleted}: one per list position,
 *       duplicates included;</li>
 *   <li>{@code bytesRead}: key length plus returned value length for every key read (an absent
 *       value counts 0);</li>
 *   <li>{@code bytesWritten}: key length plus value length for every key written, and key length
 *       for every key deleted.</li>
 * </ul>
 * {@link #isEmpty()}, {@link #storage()} and {@link #describe()} are forwarded uncounted: checks
 * before a state is created and figures for reports, not data accesses.
 * Thread-safe: counters are {@link LongAdder}s, so a snapshot taken while other threads work is
 * not an atomic cut across counters.
 */
public final class CountingStore extends ForwardingStore {
  private final LongAdder roundTrips = new LongAdder();
  private final LongAdder keysRead = new LongAdder();
  private final LongAdder keysWritten = new LongAdder();
  private final LongAdder keysDeleted = new LongAdder();
  private final LongAdder bytesRead = new LongAdder();
  private final LongAdder bytesWritten = new LongAdder();

  public CountingStore(KvStore delegate) {
    super(delegate);
  }

  /** The counts so far. */
  public record Counts(long roundTrips, long keysRead, long keysWritten, long keysDeleted,
      long bytesRead, long bytesWritten) {

    /** Counts with every field zero. */
    public static final Counts ZERO = new Counts(0, 0, 0, 0, 0, 0);

    /** Field-by-field difference {@code this - earlier}: the work done between two snapshots. */
    public Counts minus(Counts earlier) {
      return new Counts(roundTrips - earlier.roundTrips, keysRead - earlier.keysRead,
          keysWritten - earlier.keysWritten, keysDeleted - earlier.keysDeleted,
          bytesRead - earlier.bytesRead, bytesWritten - earlier.bytesWritten);
    }
  }

  /** The current counts. */
  public Counts snapshot() {
    return new Counts(roundTrips.sum(), keysRead.sum(), keysWritten.sum(), keysDeleted.sum(),
        bytesRead.sum(), bytesWritten.sum());
  }

  /** Sets every counter back to zero. */
  public void reset() {
    roundTrips.reset();
    keysRead.reset();
    keysWritten.reset();
    keysDeleted.reset();
    bytesRead.reset();
    bytesWritten.reset();
  }

  /** The wrapped store. */
  @Override
  public KvStore delegate() {
    return super.delegate();
  }

  @Override
  public List<byte[]> multiGet(List<byte[]> keys) {
    List<byte[]> values = delegate().multiGet(keys);
    if (!keys.isEmpty()) {
      roundTrips.increment();
      keysRead.add(keys.size());
      bytesRead.add(bytes(keys, values));
    }
    return values;
  }

  @Override
  public void multiPut(List<byte[]> keys, List<byte[]> values) {
    delegate().multiPut(keys, values);
    if (!keys.isEmpty()) {
      roundTrips.increment();
      keysWritten.add(keys.size());
      bytesWritten.add(bytes(keys, values));
    }
  }

  @Override
  public List<byte[]> multiPutGet(List<byte[]> putKeys, List<byte[]> putValues, List<byte[]> getKeys) {
    List<byte[]> values = delegate().multiPutGet(putKeys, putValues, getKeys);
    countPutGet(putKeys, putValues, getKeys, values);
    return values;
  }

  /** Counted as a {@link #multiPutGet} once its reply is read (a failed call counts nothing). */
  @Override
  public PendingReply sendPutGet(List<byte[]> putKeys, List<byte[]> putValues, List<byte[]> getKeys) {
    PendingReply reply = delegate().sendPutGet(putKeys, putValues, getKeys);
    boolean[] counted = new boolean[1];
    return () -> {
      List<byte[]> values = reply.await();
      synchronized (counted) {
        if (!counted[0]) {
          counted[0] = true;
          countPutGet(putKeys, putValues, getKeys, values);
        }
      }
      return values;
    };
  }

  private void countPutGet(List<byte[]> putKeys, List<byte[]> putValues, List<byte[]> getKeys, List<byte[]> values) {
    if (!putKeys.isEmpty() || !getKeys.isEmpty()) {
      roundTrips.increment();
      keysWritten.add(putKeys.size());
      bytesWritten.add(bytes(putKeys, putValues));
      keysRead.add(getKeys.size());
      bytesRead.add(bytes(getKeys, values));
    }
  }

  private static long bytes(List<byte[]> keys, List<byte[]> values) {
    long bytes = 0;
    for (int i = 0; i < keys.size(); i++) {
      byte[] v = values.get(i);
      bytes += keys.get(i).length + (v == null ? 0 : v.length);
    }
    return bytes;
  }

  @Override
  public void multiDelete(List<byte[]> keys) {
    delegate().multiDelete(keys);
    if (!keys.isEmpty()) {
      long bytes = 0;
      for (byte[] k : keys) {
        bytes += k.length;
      }
      roundTrips.increment();
      keysDeleted.add(keys.size());
      bytesWritten.add(bytes);
    }
  }

  /** A one-element {@link #multiGet}, counted as one. */
  @Override
  public byte[] get(byte[] key) {
    return standardGet(key);
  }

  /** A one-element {@link #multiPut}, counted as one. */
  @Override
  public void put(byte[] key, byte[] value) {
    standardPut(key, value);
  }

  @Override
  public String toString() {
    return "CountingStore[" + describe() + ", " + snapshot() + "]";
  }
}
