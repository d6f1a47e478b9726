package io.pancakej.store;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

import io.pancakej.StoreException;

/**
 * Groups concurrent multi-gets (and, separately, concurrent multi-puts) of many threads into one
 * call on the underlying store: one round trip (one MGET, one MSET, one RocksDB multi-get or
 * write batch) for all the batches that arrived while the previous group was in flight.
 *
 * <p>Flat combining: a caller queues its call; whoever finds no leader becomes the leader and
 * executes queued calls in groups until its own is done, then hands over. Followers park until
 * their call completes. What the store sees per request is unchanged; only arrival timing decides
 * how calls are grouped. A failure of the group call fails every call in the group.
 */
public final class CombiningStore implements KvStore {
  /** Most keys sent in one grouped call. */
  public static final int DEFAULT_MAX_KEYS = 512;

  private final KvStore delegate;
  private final Combiner gets;
  private final Combiner puts;

  public CombiningStore(KvStore delegate) {
    this(delegate, DEFAULT_MAX_KEYS);
  }

  public CombiningStore(KvStore delegate, int maxKeys) {
    if (maxKeys < 1) {
      throw new IllegalArgumentException("maxKeys must be positive");
    }
    this.delegate = delegate;
    this.gets = new Combiner(maxKeys, true);
    this.puts = new Combiner(maxKeys, false);
  }

  @Override
  public List<byte[]> multiGet(List<byte[]> keys) {
    if (keys.isEmpty()) {
      return new ArrayList<>();
    }
    return gets.call(new Call(keys, null)).result;
  }

  @Override
  public void multiPut(List<byte[]> keys, List<byte[]> values) {
    Stores.checkSameSize(keys, values);
    if (keys.isEmpty()) {
      return;
    }
    puts.call(new Call(keys, values));
  }

  @Override
  public void multiDelete(List<byte[]> keys) {
    delegate.multiDelete(keys);
  }

  @Override
  public String describe() {
    return delegate.describe();
  }

  @Override
  public void close() {
    delegate.close();
  }

  /** The wrapped store. */
  public KvStore delegate() {
    return delegate;
  }

  private static final class Call {
    final List<byte[]> keys;
    final List<byte[]> values;
    final Thread waiter = Thread.currentThread();
    volatile boolean done;
    List<byte[]> result;
    RuntimeException failure;

    Call(List<byte[]> keys, List<byte[]> values) {
      this.keys = keys;
      this.values = values;
    }
  }

  private final class Combiner {
    private final ConcurrentLinkedQueue<Call> pending = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean leader = new AtomicBoolean();
    private final int maxKeys;
    private final boolean read;

    Combiner(int maxKeys, boolean read) {
      this.maxKeys = maxKeys;
      this.read = read;
    }

    Call call(Call c) {
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
          }
          // a call queued while we led may be parked waiting for a leader: wake it
          Call next = pending.peek();
          if (next != null) {
            LockSupport.unpark(next.waiter);
          }
        } else {
          LockSupport.park(this);
        }
      }
      if (c.failure != null) {
        throw c.failure;
      }
      return c;
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
      try {
        if (group.size() == 1) {
          Call only = group.get(0);
          if (read) {
            only.result = delegate.multiGet(only.keys);
          } else {
            delegate.multiPut(only.keys, only.values);
          }
        } else {
          List<byte[]> keys = new ArrayList<>();
          List<byte[]> values = read ? null : new ArrayList<>();
          for (Call c : group) {
            keys.addAll(c.keys);
            if (!read) {
              values.addAll(c.values);
            }
          }
          if (read) {
            List<byte[]> all = delegate.multiGet(keys);
            int offset = 0;
            for (Call c : group) {
              c.result = new ArrayList<>(all.subList(offset, offset + c.keys.size()));
              offset += c.keys.size();
            }
          } else {
            delegate.multiPut(keys, values);
          }
        }
      } catch (RuntimeException e) {
        RuntimeException failure = e instanceof StoreException ? e : new StoreException("store call failed: " + e, e);
        for (Call c : group) {
          c.failure = failure;
        }
      }
      for (Call c : group) {
        c.done = true;
        LockSupport.unpark(c.waiter);
      }
    }
  }
}
