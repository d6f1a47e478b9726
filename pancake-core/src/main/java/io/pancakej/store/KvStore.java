package io.pancakej.store;

import java.util.List;
import java.util.Optional;

/**
 * The batch-first key-value store SPI every scheme (PANCAKE, Path ORAM, encrypted, insecure)
 * sits on. Keys and values are opaque byte arrays. Each multi-operation is one round trip to
 * the store (one per node on a cluster), which is what makes PANCAKE's B reads + B writes cheap.
 *
 * <p>Implementations are thread-safe. Lists may hold the same key more than once: a multi-get
 * returns one entry per requested position, and a multi-put applies puts in list order (the last
 * write of a key wins). Failures raise {@link io.pancakej.StoreException} with the cause kept.
 * {@link #close()} is idempotent.
 */
public interface KvStore extends AutoCloseable {

  /** Reads every key; the result has one entry per key, {@code null} where the key is absent. */
  List<byte[]> multiGet(List<byte[]> keys);

  /** Writes every (key, value) pair, in order, as one round trip. */
  void multiPut(List<byte[]> keys, List<byte[]> values);

  /**
   * Writes {@code putKeys} as {@link #multiPut} would, then reads {@code getKeys} as
   * {@link #multiGet} would, and returns the values read. The default makes the two calls; a store
   * that can send both in one round trip (Redis: one pipeline) overrides it. Either list may be
   * empty.
   */
  default List<byte[]> multiPutGet(List<byte[]> putKeys, List<byte[]> putValues, List<byte[]> getKeys) {
    multiPut(putKeys, putValues);
    return multiGet(getKeys);
  }

  /**
   * Sends {@link #multiPutGet}'s call and returns at once, with the handle that reads its reply:
   * the caller may send the next call before this one's reply is back (Redis pipelines the calls on
   * one connection, and executes them in the order they were sent). Replies are read in that order,
   * whichever handle is awaited first. A call made through the other methods may overtake a call
   * sent here whose reply has not been awaited yet. A failure to send is thrown here, the call's
   * own failure by {@link PendingReply#await}. The default makes the call at once, through this
   * store's {@link #multiPutGet}.
   */
  default PendingReply sendPutGet(List<byte[]> putKeys, List<byte[]> putValues, List<byte[]> getKeys) {
    List<byte[]> values = multiPutGet(putKeys, putValues, getKeys);
    return () -> values;
  }

  /** The reply of a call {@link #sendPutGet} sent. */
  @FunctionalInterface
  interface PendingReply {
    /**
     * Waits for the reply and returns the values read, as {@link #multiPutGet} would (each call
     * returns the same values, or throws the same failure).
     */
    List<byte[]> await();
  }

  /**
   * True if the store runs inside this process (RocksDB, memory): calls cost CPU here rather than
   * a round trip, so grouping them gains nothing. The default is false.
   */
  default boolean isEmbedded() {
    return false;
  }

  /** Removes every key (absent keys are ignored). */
  void multiDelete(List<byte[]> keys);

  /** Single-key read; the default is a one-element {@link #multiGet}. */
  default byte[] get(byte[] key) {
    return multiGet(List.of(key)).get(0);
  }

  /** Single-key write; the default is a one-element {@link #multiPut}. */
  default void put(byte[] key, byte[] value) {
    multiPut(List.of(key), List.of(value));
  }

  /**
   * A stable, human-readable identity of the data this store holds (for example
   * {@code rocksdb:/abs/dir} or {@code redis:127.0.0.1:6380/0}); proxy state records it so that
   * reopening the state against a different store fails clearly.
   */
  String describe();

  /**
   * True if the store holds no key at all (in the part it describes: one Redis logical database,
   * every master of a cluster). Creating a PANCAKE or Path ORAM state writes over whatever the
   * store holds, so the schemes check this first and refuse a store that holds data: it may be
   * the data of a state whose state file was lost, or of another proxy (one proxy per store).
   * Exact, not an estimate; cheap (one seek or one command per node).
   */
  boolean isEmpty();

  /**
   * What the store holds, as far as the backend knows cheaply: entries and bytes (an estimate on
   * RocksDB, used memory on Redis). Empty when the backend cannot tell; the default.
   */
  default Optional<Storage> storage() {
    return Optional.empty();
  }

  /** Server storage: number of entries and bytes held (how bytes are measured depends on the backend). */
  record Storage(long entries, long bytes) {}

  @Override
  void close();
}
