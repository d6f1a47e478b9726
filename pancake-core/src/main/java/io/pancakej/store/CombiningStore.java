package io.pancakej.store;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

import io.pancakej.StoreException;

/**
 * Groups the concurrent multi-gets and multi-puts of many threads into one call on the underlying
 * store, {@link KvStore#multiPutGet}: all the writes, then all the reads, of the calls that
 * arrived while the previous group was in flight -- one round trip (one Redis pipeline of MSET and
 * MGET, one RocksDB write batch and multi-get) for many batches.
 *
 * <p>Writing a group's puts before its gets is safe for its callers: the proxy holds a replica's
 * lock from its read until its write-back returns, so no get of a group names a key a put of the
 * same group writes. Flat combining: a caller queues its call; whoever finds no leader becomes
 * the leader and executes queued calls in groups until its own is done, then hands over.
 * Followers wait until their call completes: first yielding the CPU for about one loopback round
 * trip, then parked (see {@link #SPIN_NANOS}). What the store sees per request is unchanged; only
 * arrival timing decides how calls are grouped. A failed group call fails every call of the group
 * with the store's error (nothing is retried here: against a hung server a retry would only double
 * the time to fail; a store retries what it can, as {@link RedisStore} does for reads).
 */
public final class CombiningStore extends ForwardingStore {
  /** Most keys sent in one grouped call. */
  public static final int DEFAULT_MAX_KEYS = 512;

  /**
   * How long a follower yields the CPU before it parks. A park and its unpark cost a futex system
   * call on each side (and an inter-processor wake-up); most groups return within a few hundred
   * microseconds, so polling with {@link Thread#yield} for that long is cheaper, and leaves the
   * CPU to runnable threads meanwhile. Measured on Redis, workload C, 8 threads: 7.3-7.9k requests/s
   * parking at once, 9.0-12.6k yielding first (docs/results/README.md).
   */
  static final long SPIN_NANOS = TimeUnit.MICROSECONDS.toNanos(250);

  private final int maxKeys;
  private final ConcurrentLinkedQueue<Call> pending = new ConcurrentLinkedQueue<>();
  private final AtomicBoolean leader = new AtomicBoolean();
  private final LongAdder parks = new LongAdder();

  /** Groups calls on {@code delegate}, at most {@value #DEFAULT_MAX_KEYS} keys per grouped call. */
  public CombiningStore(KvStore delegate) {
    this(delegate, DEFAULT_MAX_KEYS);
  }

  /** Groups calls on {@code delegate}, at most {@code maxKeys} keys per grouped call (a larger call goes alone). */
  public CombiningStore(KvStore delegate, int maxKeys) {
    super(delegate);
    if (maxKeys < 1) {
      throw new IllegalArgumentException("maxKeys must be positive, got " + maxKeys);
    }
    this.maxKeys = maxKeys;
  }

  @Override
  public List<byte[]> multiGet(List<byte[]> keys) {
    if (keys.isEmpty()) {
      return new ArrayList<>();
    }
    return call(new Call(keys, null)).result;
  }

  @Override
  public void multiPut(List<byte[]> keys, List<byte[]> values) {
    Stores.checkSameSize(keys, values);
    if (keys.isEmpty()) {
      return;
    }
    call(new Call(keys, values));
  }

  /** Its puts and its gets join groups as a {@link #multiPut} and a {@link #multiGet} would. */
  @Override
  public List<byte[]> multiPutGet(List<byte[]> putKeys, List<byte[]> putValues, List<byte[]> getKeys) {
    return standardMultiPutGet(putKeys, putValues, getKeys);
  }

  /** Joins a group as a one-element {@link #multiGet}. */
  @Override
  public byte[] get(byte[] key) {
    return standardGet(key);
  }

  /** Joins a group as a one-element {@link #multiPut}. */
  @Override
  public void put(byte[] key, byte[] value) {
    standardPut(key, value);
  }

  /** The wrapped store. */
  @Override
  public KvStore delegate() {
    return super.delegate();
  }

  /** A queued multi-get ({@code values == null}) or multi-put. */
  private static final class Call {
    final List<byte[]> keys;
    final List<byte[]> values;
    final Thread waiter = Thread.currentThread();
    volatile boolean done;
    /** Set while the waiter is (about to be) parked: only then does it need an unpark. */
    volatile boolean parked;
    List<byte[]> result;
    StoreException failure;

    Call(List<byte[]> keys, List<byte[]> values) {
      this.keys = keys;
      this.values = values;
    }

    boolean isRead() {
      return values == null;
    }
  }

  private Call call(Call c) {
    pending.add(c);
    while (!c.done) {
      if (leader.compareAndSet(false, true)) {
        try {
          while (!c.done) {
            List<Call> group = drain();
            if (group.isEmpty()) {
              break;
            }
            execute(group);
          }
        } finally {
          leader.set(false);
          // a call queued while we led may be parked waiting for a leader: wake it
          Call next = pending.peek();
          if (next != null && next.parked) {
            LockSupport.unpark(next.waiter);
          }
        }
      } else {
        awaitTurn(c);
      }
    }
    if (c.failure != null) {
      throw c.failure;
    }
    return c;
  }

  /**
   * Returns once {@code c} is done or there may be no leader. The flags pair up Dekker-style: the
   * waiter sets {@code parked} and then reads {@code done} and {@code leader}; a completer sets
   * {@code done} (a leader clears {@code leader}) and then reads {@code parked}. So either the
   * waiter sees the change and does not park, or the other side sees {@code parked} and unparks it.
   */
  private void awaitTurn(Call c) {
    long start = System.nanoTime();
    while (!c.done && leader.get() && System.nanoTime() - start < SPIN_NANOS) {
      Thread.yield();
    }
    if (c.done || !leader.get()) {
      return;
    }
    c.parked = true;
    if (!c.done && leader.get()) {
      parks.increment();
      LockSupport.park(this);
    }
    c.parked = false;
  }

  /** How many times a follower parked (for tests). */
  long parks() {
    return parks.sum();
  }

  /** Calls waiting for a leader (for tests). */
  int queuedCalls() {
    return pending.size();
  }

  private List<Call> drain() {
    List<Call> group = new ArrayList<>();
    int keys = 0;
    Call c;
    while ((c = pending.peek()) != null && (group.isEmpty() || keys + c.keys.size() <= maxKeys)) {
      pending.poll();
      group.add(c);
      keys += c.keys.size();
    }
    return group;
  }

  private void execute(List<Call> group) {
    List<byte[]> putKeys = new ArrayList<>();
    List<byte[]> putValues = new ArrayList<>();
    List<byte[]> getKeys = new ArrayList<>();
    for (Call c : group) {
      if (c.isRead()) {
        getKeys.addAll(c.keys);
      } else {
        putKeys.addAll(c.keys);
        putValues.addAll(c.values);
      }
    }
    try {
      List<byte[]> read = Stores.oneSided(delegate(), putKeys, putValues, getKeys);
      if (read == null) {
        read = delegate().multiPutGet(putKeys, putValues, getKeys);
      }
      int offset = 0;
      for (Call c : group) {
        if (c.isRead() && !c.done) {
          c.result = new ArrayList<>(read.subList(offset, offset + c.keys.size()));
          offset += c.keys.size();
        }
      }
    } catch (RuntimeException | Error e) {
      fail(group, e);
      if (e instanceof Error) {
        throw (Error) e;
      }
    } finally {
      for (Call c : group) {
        complete(c);
      }
    }
  }

  /** Records {@code e} as the failure of every call of the group not completed yet, and completes them. */
  private static void fail(List<Call> group, Throwable e) {
    StoreException failure = e instanceof StoreException ? (StoreException) e
        : new StoreException("store call failed: " + e, e);
    for (Call c : group) {
      if (!c.done) {
        c.failure = failure;
        complete(c);
      }
    }
  }

  private static void complete(Call c) {
    if (!c.done) {
      c.done = true;
      if (c.parked) {
        LockSupport.unpark(c.waiter);
      }
    }
  }
}
