package io.pancakej.smoothing;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.pancakej.IntegrityException;

/**
 * The work of one tick between its calls: opening what it read, serving the requests it dequeued
 * against the replicas and the UpdateCache, sealing its write-back, and giving the answers. The
 * {@link TickRunner} runs it on one thread at a time, tick after tick.
 */
final class TickServing {
  /** What a tick read: its accesses, their labels, and what each distinct replica held (absent: damaged). */
  record Owed(int[] replicas, List<byte[]> labels, Map<Integer, ReplicaCodec.View> views) {}

  /** The plaintext a replica gets on write-back, and what to record once it is stored. */
  record WriteBack(byte[] plaintext, long version, boolean swap) {}

  /** Tick {@code tick}'s write-back sealed under {@code phase}: one value per access, one plan entry per distinct replica. */
  record Prepared(long tick, Phase phase, Owed owed, List<byte[]> values, Map<Integer, WriteBack> plan) {}

  private final Proxy proxy;
  private final ReplicaOpener opener;
  /** Answers of the tick under way, given after its work ({@link #deliverAnswers}). */
  private final List<Runnable> answers = new ArrayList<>();

  TickServing(Proxy proxy) {
    this.proxy = proxy;
    this.opener = new ReplicaOpener(proxy);
  }

  ReplicaOpener opener() {
    return opener;
  }

  /** Drops the answers a failed tick had not given (serving thread: its requests are failed instead). */
  void dropAnswers() {
    answers.clear();
  }

  /** Fails the requests a failed tick dequeued (no effect on those already answered). */
  static void fail(Request[] served, Throwable e) {
    if (served == null) {
      return;
    }
    for (Request r : served) {
      if (r != null) {
        r.done.completeExceptionally(e); // no effect on a request already completed
      }
    }
  }

  /**
   * Opens what a tick read and serves the requests it dequeued. A replica in {@code written} (the
   * latest write-back of the ticks before it that its call did not carry, {@link UnsentWriteBacks})
   * is taken from there: the store still held an older ciphertext. Each other distinct replica is
   * decrypted once; one that fails authentication fails only its own key's requests, and the rest
   * of the tick goes on.
   */
  Owed readAndServe(Phase p, Transition transition, int[] replicas, List<byte[]> labels, List<byte[]> sealed,
      Request[] served, Map<Integer, WriteBack> written) {
    Map<Integer, ReplicaCodec.View> views = new HashMap<>();
    Map<Integer, IntegrityException> damaged = null; // made only when a replica fails (rare)
    Object[] opened = opener.decryptAll(replicas, labels, sealed, written);
    for (int i = 0; i < replicas.length; i++) {
      int r = replicas[i];
      if (!views.containsKey(r) && (damaged == null || !damaged.containsKey(r))) {
        ReplicaCodec.View view;
        try {
          WriteBack w = written.get(r);
          view = w != null ? opener.writtenView(labels.get(i), w) : opener.open(p, r, labels.get(i), sealed.get(i), opened[i]);
        } catch (IntegrityException e) {
          if (damaged == null) {
            damaged = new HashMap<>(4);
          }
          damaged.put(r, e);
          continue;
        }
        views.put(r, view);
        if (transition != null && !transition.isPending(r)) {
          int owner = p.target.ownerOf[r];
          if (owner != ReplicaPlan.DUMMY && transition.awaitsValue(owner) && proxy.cache.get(owner) == null) {
            transition.offerValue(owner, view.valueOrNull());
          }
        }
      }
    }
    for (int i = 0; i < replicas.length; i++) {
      Request req = served[i];
      if (req != null) {
        if (req.keySlot < 0) {
          answer(req, req.absentResult());
        } else {
          serve(p, req, views.get(replicas[i]), damaged == null ? null : damaged.get(replicas[i]));
        }
      }
    }
    return new Owed(replicas, labels, views);
  }

  /** Seals tick {@code tick}'s write-back under {@code p}, one value per access. */
  Prepared prepare(long tick, Phase p, Transition transition, Owed o) {
    Map<Integer, WriteBack> plan = new LinkedHashMap<>();
    int n = o.replicas().length;
    byte[][] plaintexts = new byte[n][];
    for (int i = 0; i < n; i++) {
      int r = o.replicas()[i];
      WriteBack wb = plan.get(r);
      if (wb == null) {
        wb = writeBack(p, transition, r, o.views().get(r)); // no view: the replica is damaged
        plan.put(r, wb);
      }
      plaintexts[i] = wb.plaintext();
    }
    byte[][] out = new byte[n][];
    ReplicaOpener.inParallel(n, i -> out[i] = proxy.aead.encrypt(plaintexts[i], o.labels().get(i)));
    return new Prepared(tick, p, o, Arrays.asList(out), plan);
  }

  /** Records an acknowledged write-back; returns true if it completed a transition's last swap. */
  boolean record(Phase p, Transition transition, Map<Integer, WriteBack> plan) {
    boolean lastSwap = false;
    for (Map.Entry<Integer, WriteBack> e : plan.entrySet()) {
      int r = e.getKey();
      WriteBack wb = e.getValue();
      int owner = p.target.ownerOf[r];
      if (wb.version() >= 0 && proxy.cache.markWritten(owner, wb.version(), p.target.indexOf[r])) {
        // the cache marked it inside the slot's critical section; a put since then clears the mark
        proxy.log.free(owner);
      }
      if (wb.swap() && transition.isPending(r)) { // the next tick's write-back repeats a swap still pending then
        proxy.swapCount.increment();
        lastSwap |= transition.completeSwap(r);
      }
    }
    return lastSwap;
  }

  /**
   * What replica {@code r} gets on write-back: the owner's pending write if it has one and the log
   * holds it (which also repairs a damaged replica), a swap if one is due and its value is at
   * hand, else what it held, re-encrypted. {@code view} is null when the replica failed
   * authentication or was missing.
   */
  private WriteBack writeBack(Phase p, Transition transition, int r, ReplicaCodec.View view) {
    int owner = p.target.ownerOf[r];
    boolean pendingSlot = transition != null && transition.isPending(r);
    if (pendingSlot && !transition.isDurable()) {
      // the new plan is not saved yet: a crash would reopen the old one, so the slot keeps its old data
      return unchanged(p, r, view);
    }
    boolean swapDue = pendingSlot;
    ReplicaCodec codec = proxy.codec;
    if (owner == ReplicaPlan.DUMMY) {
      return swapDue ? new WriteBack(codec.encode(ReplicaCodec.DUMMY, r, ReplicaPlan.DUMMY, null, null), -1, true)
          : unchanged(p, r, view);
    }
    UpdateCache.Entry e = proxy.cache.get(owner); // read once: it may complete meanwhile
    if (e != null) {
      if (!e.ticket.isDurable()) {
        return unchanged(p, r, view); // not in the log yet: no replica may hold it before the log does
      }
      return new WriteBack(holding(r, owner, proxy.keys.keyOf(owner), e.value), e.version, swapDue);
    }
    if (!swapDue) {
      return unchanged(p, r, view);
    }
    byte[] key = proxy.keys.keyOf(owner);
    if (key == null) {
      return new WriteBack(codec.encode(ReplicaCodec.ABSENT, r, owner, null, null), -1, true);
    }
    byte[] cached = transition.cachedValue(owner);
    if (cached == null) {
      return unchanged(p, r, view); // value not seen yet: swap later
    }
    return new WriteBack(holding(r, owner, key, cached == Transition.NO_VALUE ? null : cached), -1, true);
  }

  /** The plaintext of replica {@code r} of {@code owner} holding {@code value} (null: absent). */
  private byte[] holding(int r, int owner, byte[] key, byte[] value) {
    return proxy.codec.encode(value == null ? ReplicaCodec.ABSENT : ReplicaCodec.PRESENT, r, owner, key, value);
  }

  /**
   * Replica {@code r} keeps what it holds, re-encrypted. A damaged one ({@code view} null) gets
   * what the proxy knows for sure of its holder: a dummy or an unbound slot holds nothing, a live
   * key's content is lost (a sealed "lost" marker: its key keeps failing, clearly, until a put or
   * delete repairs it). Always a fresh encryption: writing damaged bytes back would tell a store
   * that tampers with a label whether it belongs to a live key with nothing pending.
   */
  private WriteBack unchanged(Phase p, int r, ReplicaCodec.View view) {
    ReplicaCodec codec = proxy.codec;
    if (view != null) {
      return new WriteBack(view.plaintext, -1, false);
    }
    int holder = p.holderOf(r);
    if (holder == ReplicaPlan.DUMMY) {
      return new WriteBack(codec.encode(ReplicaCodec.DUMMY, r, ReplicaPlan.DUMMY, null, null), -1, false);
    }
    byte[] key = proxy.keys.keyOf(holder);
    return new WriteBack(codec.encode(key == null ? ReplicaCodec.ABSENT : ReplicaCodec.LOST, r, holder, key, null),
        -1, false);
  }

  /** The error a request for a key with a damaged replica gets: it names the key, never a value. */
  private IntegrityException damaged(int slot, IntegrityException cause) {
    return new IntegrityException("store " + proxy.storeDescription + " returned a forged or corrupted value for key "
        + KeyNames.describe(proxy.keys.keyOf(slot)) + ": " + cause.getMessage() + ". Other keys are unaffected;"
        + " a put or delete of this key repairs it", cause);
  }

  /** A new latest value for {@code slot} (null: deleted), handed to the log inside the key's critical section. */
  private UpdateCache.Entry newValue(int slot, byte[] value, int replicas, UpdateCache.Entry replaced) {
    LogTicket ticket = new LogTicket(replaced);
    proxy.log.write(slot, value, ticket);
    return new UpdateCache.Entry(value, proxy.versions.incrementAndGet(), replicas, ticket);
  }

  /**
   * Applies one dequeued request against replica {@code view} and the UpdateCache. When the
   * replica failed authentication ({@code damage}), a request that needs the stored value fails
   * alone; a put, and a delete, replace the value and so repair every replica of the key. A
   * request completes once the value it returns or wrote is in the log.
   */
  private void serve(Phase p, Request req, ReplicaCodec.View view, IntegrityException damage) {
    int slot = req.keySlot;
    int replicas = p.target.replicaCount(slot);
    UpdateCache cache = proxy.cache;
    switch (req.op) {
      case GET: {
        UpdateCache.Entry e = cache.get(slot); // read once: it may complete meanwhile
        if (e == null && view == null) {
          Throwable failure = damaged(slot, damage);
          answers.add(() -> req.done.completeExceptionally(failure));
          return;
        }
        byte[] v = e != null ? e.value : view.valueOrNull();
        Object result = v == null ? Request.ABSENT : v.clone();
        if (e != null) {
          answers.add(() -> e.ticket.whenDurable(req.done, result)); // never answer with a value a crash could lose
        } else {
          answer(req, result);
        }
        return;
      }
      case PUT: {
        UpdateCache.Entry next = cache.compute(slot, (k, e) -> newValue(slot, req.value, replicas, e));
        answers.add(() -> next.ticket.whenDurable(req.done, Boolean.TRUE));
        return;
      }
      case DELETE: {
        boolean[] existed = new boolean[1];
        UpdateCache.Entry next = cache.compute(slot, (k, e) -> {
          // a damaged replica may have held a value: delete (and so repair) the key anyway
          byte[] current = e != null ? e.value : view != null ? view.valueOrNull() : new byte[0];
          if (current == null) {
            return e;
          }
          existed[0] = true;
          return newValue(slot, null, replicas, e);
        });
        complete(req, next, existed[0]);
        return;
      }
      case UPDATE: {
        boolean[] existed = new boolean[1];
        UpdateCache.Entry next;
        try {
          next = cache.compute(slot, (k, e) -> {
            if (e == null && view == null) {
              throw damaged(slot, damage);
            }
            byte[] current = e != null ? e.value : view.valueOrNull();
            if (current == null) {
              return e;
            }
            byte[] merged = req.merge.apply(current.clone());
            proxy.checkValue(merged);
            existed[0] = true;
            return newValue(slot, merged, replicas, e);
          });
        } catch (Throwable e) {
          // a failing merge (any throwable: it is the caller's code) fails its own request only
          answers.add(() -> req.done.completeExceptionally(e));
          return;
        }
        complete(req, next, existed[0]);
        return;
      }
      default:
        throw new IllegalStateException(String.valueOf(req.op));
    }
  }

  /** Completes a delete or update once the entry its answer rests on (if any) is in the log. */
  private void complete(Request req, UpdateCache.Entry entry, boolean result) {
    if (entry != null) {
      answers.add(() -> entry.ticket.whenDurable(req.done, result));
    } else {
      answer(req, result);
    }
  }

  private void answer(Request req, Object result) {
    answers.add(() -> req.done.complete(result));
  }

  /**
   * Answers are given once the tick has served them, before it seals its write-back: a caller
   * woken then can queue its next request before the next grid point (a closed loop that misses
   * it waits a whole period more). They are given here, on the serving thread: handing them to a
   * thread of their own cost the callers more in the hand-off than the serving thread spends
   * waking them (docs/results/timing.md, fifteenth pass). Completing a request's future only wakes
   * its caller or queues its callback ({@link Requests}): no application code runs here.
   */
  void deliverAnswers() {
    for (Runnable a : answers) {
      a.run();
    }
    answers.clear();
  }
}
