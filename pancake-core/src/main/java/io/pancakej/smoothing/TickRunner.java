package io.pancakej.smoothing;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.random.RandomGenerator;

import io.pancakej.IntegrityException;

/**
 * Runs ticks: one store call per tick that writes back the previous tick's accesses and reads
 * this tick's, then serves the requests this tick dequeued. A tick is K batches of B accesses,
 * each real with probability delta (the queue head, or a simulated real access when the queue is
 * empty) or fake (paper Fig. 2), built exactly as the paper's batches are; sending K of them in one
 * round trip is the grouping the paper's proxy does. Writing a tick back in the next tick's call
 * (writes first, then reads: a label read again sees its write) makes the call's time the tick's
 * time, whatever the tick served: the work between two calls -- serving, sealing, logging -- moves
 * no call.
 *
 * <p>Only one tick runs at a time (this object's monitor), so no replica is read twice before its
 * write-back is computed: the one write-back owed is always computed first, under the phase in
 * force then. Ticks run under the read side of the phase lock; plan changes take the write side
 * between ticks.
 */
final class TickRunner {
  private final Proxy proxy;
  /** Answers of the tick under way, given after its work ({@link #deliverAnswers}). */
  private final List<Runnable> answers = new ArrayList<>();
  /** The write-back the last tick owes, sealed at its end (off the next call's path), or null. */
  private Prepared prepared;
  /** What a tick read: its accesses, their labels, and what each distinct replica held (absent: damaged). */
  private record Owed(int[] replicas, List<byte[]> labels, Map<Integer, ReplicaCodec.View> views) {}

  /** The plaintext a replica gets on write-back, and what to record once it is stored. */
  private record WriteBack(byte[] plaintext, long version, boolean swap) {}

  /** A write-back sealed under {@code phase}: one value per access, one plan entry per distinct replica. */
  private record Prepared(Phase phase, Owed owed, List<byte[]> values, Map<Integer, WriteBack> plan) {}

  /** Gives a large tick's answers (waking callers costs a system call each), off the emitter's thread. */
  private final java.util.concurrent.ExecutorService delivery;

  TickRunner(Proxy proxy, java.util.concurrent.ThreadFactory deliveryThread) {
    this.proxy = proxy;
    this.delivery = java.util.concurrent.Executors.newSingleThreadExecutor(deliveryThread);
  }

  /** Gives the answers handed over so far and stops the delivery thread (after the last tick). */
  void close() {
    delivery.shutdown();
    try {
      delivery.awaitTermination(30, java.util.concurrent.TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * Runs one tick of {@code batches} batches: the sealed write-back of the previous tick and this
   * tick's reads in one call, then serving, then sealing this tick's write-back for the next call
   * (so the work between a grid point and its call does not depend on what was served). Anything
   * thrown fails the requests of this tick (and is rethrown); the write-back owed then is dropped,
   * which loses nothing (the UpdateCache still holds every value not known to be stored).
   */
  synchronized void tick(int batches) {
    boolean lastSwap;
    Request[] served = null;
    long stamp = proxy.phaseLock.readLock();
    try {
      Phase p = proxy.phase;
      Transition transition = p instanceof Transition t ? t : null;
      Prepared out = current(p, transition);
      int n = batches * proxy.batchSize;
      int[] replicas = new int[n];
      served = new Request[n];
      RandomGenerator rnd = proxy.random.get();
      double delta = p.delta();
      for (int i = 0; i < n; i++) {
        if (rnd.nextDouble() < delta) {
          Request r = proxy.queue.poll();
          served[i] = r;
          replicas[i] = r == null || r.keySlot < 0 ? p.sampleReal(rnd) : p.replicaFor(r.keySlot, rnd);
        } else {
          replicas[i] = p.sampleFake(rnd);
        }
      }
      List<byte[]> labels = new ArrayList<>(n);
      for (int r : replicas) {
        labels.add(proxy.label(r));
      }
      proxy.batchCount.add(batches);
      List<byte[]> sealed = proxy.store.multiPutGet(out == null ? List.of() : out.owed().labels(),
          out == null ? List.of() : out.values(), labels);
      lastSwap = out != null && record(p, transition, out.plan());
      Owed owed = readAndServe(p, transition, replicas, labels, sealed, served);
      deliverAnswers(); // callers wake while the write-back is sealed: their next requests catch the next tick
      prepared = prepare(p, transition, owed);
    } catch (Throwable e) {
      answers.clear();
      fail(served, e); // a request dequeued by a failed tick never hangs
      throw e;
    } finally {
      proxy.phaseLock.unlockRead(stamp);
    }
    deliverAnswers();
    if (lastSwap || proxy.pendingFinish) {
      proxy.pendingFinish = false;
      proxy.finishTransition();
    }
  }

  /**
   * The write-back owed, as sealed at the end of the last tick; sealed again if the phase changed
   * since (a plan change between two ticks), and taken: a failed call drops it.
   */
  private Prepared current(Phase p, Transition transition) {
    Prepared out = prepared;
    prepared = null;
    if (out != null && out.phase() != p) {
      out = prepare(p, transition, out.owed());
    }
    return out;
  }

  /** Sends the write-back owed, alone (at close, and before exclusive work). */
  synchronized void flush() {
    if (prepared == null) {
      return;
    }
    boolean lastSwap;
    long stamp = proxy.phaseLock.readLock();
    try {
      Phase p = proxy.phase;
      Transition transition = p instanceof Transition t ? t : null;
      Prepared out = current(p, transition);
      proxy.store.multiPut(out.owed().labels(), out.values());
      lastSwap = record(p, transition, out.plan());
    } finally {
      proxy.phaseLock.unlockRead(stamp);
    }
    if (lastSwap) {
      proxy.finishTransition();
    }
  }

  /** Runs {@code work} with no tick in flight and nothing owed (tests: eager swaps). */
  synchronized void exclusive(Runnable work) {
    flush();
    work.run();
  }

  private static void fail(Request[] served, Throwable e) {
    if (served == null) {
      return;
    }
    for (Request r : served) {
      if (r != null) {
        r.done.completeExceptionally(e); // no effect on a request already completed
      }
    }
  }

  /** Seals the owed write-back under {@code p}, one value per access. */
  private Prepared prepare(Phase p, Transition transition, Owed o) {
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
    inParallel(n, i -> out[i] = proxy.aead.encrypt(plaintexts[i], o.labels().get(i)));
    return new Prepared(p, o, Arrays.asList(out), plan);
  }

  /** Records an acknowledged write-back; returns true if it completed a transition's last swap. */
  private boolean record(Phase p, Transition transition, Map<Integer, WriteBack> plan) {
    boolean lastSwap = false;
    for (Map.Entry<Integer, WriteBack> e : plan.entrySet()) {
      int r = e.getKey();
      WriteBack wb = e.getValue();
      int owner = p.target.ownerOf[r];
      if (wb.version() >= 0 && proxy.cache.markWritten(owner, wb.version(), p.target.indexOf[r])) {
        // the cache marked it inside the slot's critical section; a put since then clears the mark
        proxy.log.free(owner);
      }
      if (wb.swap()) {
        proxy.swapCount.increment();
        proxy.lastSwapMillis = System.currentTimeMillis();
        lastSwap |= transition.completeSwap(r);
      }
    }
    return lastSwap;
  }

  private Owed readAndServe(Phase p, Transition transition, int[] replicas, List<byte[]> labels,
      List<byte[]> sealed, Request[] served) {
    // decrypt each distinct replica once; one that fails authentication fails only its own key's
    // requests (below), and the rest of the tick goes on
    Map<Integer, ReplicaCodec.View> views = new HashMap<>();
    Map<Integer, IntegrityException> damaged = null; // made only when a replica fails (rare)
    Object[] opened = decryptAll(replicas, labels, sealed);
    for (int i = 0; i < replicas.length; i++) {
      int r = replicas[i];
      if (!views.containsKey(r) && (damaged == null || !damaged.containsKey(r))) {
        ReplicaCodec.View view;
        try {
          view = open(p, r, labels.get(i), sealed.get(i), opened[i]);
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

  /** Decrypts replica {@code r} and checks that it holds what the phase says it holds. */
  ReplicaCodec.View open(Phase p, int r, byte[] label, byte[] sealed) {
    return open(p, r, label, sealed, sealed == null ? null : decrypted(sealed, label));
  }

  /**
   * Decrypts every distinct replica a tick read, in parallel when the tick is large: element i is
   * the plaintext, the {@link IntegrityException} its authentication failed with, or null (missing,
   * or not the replica's first access in the tick).
   */
  private Object[] decryptAll(int[] replicas, List<byte[]> labels, List<byte[]> sealed) {
    // a replica read twice in one tick is opened once: only its first access is decrypted
    java.util.Set<Integer> seen = new java.util.HashSet<>(replicas.length * 2);
    boolean[] first = new boolean[replicas.length];
    for (int i = 0; i < replicas.length; i++) {
      first[i] = seen.add(replicas[i]);
    }
    Object[] out = new Object[labels.size()];
    inParallel(out.length, i -> out[i] = !first[i] || sealed.get(i) == null ? null : decrypted(sealed.get(i), labels.get(i)));
    return out;
  }

  private Object decrypted(byte[] sealed, byte[] label) {
    try {
      return proxy.aead.decrypt(sealed, label);
    } catch (IntegrityException e) {
      return e;
    }
  }

  /**
   * Runs {@code work} for 0..n-1; a large tick's share of it on the common pool as well, so that
   * sealing and opening use both cores (the work is the same for every tick of its size).
   */
  private static void inParallel(int n, java.util.function.IntConsumer work) {
    if (n < PARALLEL_FROM) {
      for (int i = 0; i < n; i++) {
        work.accept(i);
      }
    } else {
      java.util.stream.IntStream.range(0, n).parallel().forEach(work);
    }
  }

  /** Accesses in a tick from which its crypto is split over threads (below, the hand-off costs more). */
  static final int PARALLEL_FROM = 24;

  /** Checks a decrypted replica ({@code opened}: plaintext, failure, or null if missing). */
  private ReplicaCodec.View open(Phase p, int r, byte[] label, byte[] sealed, Object opened) {
    if (sealed == null) {
      throw new IntegrityException("the store has lost replica label " + java.util.HexFormat.of().formatHex(label)
          + " (was it wiped, restarted without its data, or is it not the one this state was created on?)");
    }
    ReplicaCodec.View view;
    try {
      if (opened instanceof IntegrityException e) {
        throw e;
      }
      view = proxy.codec.view((byte[]) opened);
    } catch (IntegrityException e) {
      throw new IntegrityException("replica label " + java.util.HexFormat.of().formatHex(label) + " failed authentication", e);
    }
    int holder = p.holderOf(r);
    if (p instanceof Transition t && t.isPending(r) && view.replicaSlot() == r
        && view.keySlot() == p.target.ownerOf[r] && view.keySlot() != holder) {
      // the swap reached the store before a crash kept it from being recorded: it is done
      if (t.completeSwap(r)) {
        proxy.pendingFinish = true;
      }
      holder = p.target.ownerOf[r];
    }
    if (view.replicaSlot() != r || view.keySlot() != holder
        || (holder == ReplicaPlan.DUMMY) != (view.kind() == ReplicaCodec.DUMMY)) {
      throw new IntegrityException("replica label " + java.util.HexFormat.of().formatHex(label)
          + " holds another replica's data (an old or moved ciphertext: its identity does not match the plan)");
    }
    if (view.kind() == ReplicaCodec.LOST) {
      throw new IntegrityException("replica label " + java.util.HexFormat.of().formatHex(label)
          + " was found forged, corrupted or lost earlier (its content is gone)");
    }
    boolean stale = holder != p.target.ownerOf[r]; // a pending swap slot: old data, never served
    if (!stale && view.kind() == ReplicaCodec.PRESENT && !Arrays.equals(view.key(), proxy.keys.keyOf(holder))) {
      throw new IntegrityException("replica label " + java.util.HexFormat.of().formatHex(label) + " holds another key's value");
    }
    return view;
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
   * it waits a whole period more). More than a couple go to the delivery thread, so the tick does
   * not wait for the wake-ups, nor lose its core to the woken callers.
   */
  private void deliverAnswers() {
    if (answers.size() > DELIVER_INLINE) {
      Runnable[] batch = answers.toArray(new Runnable[0]);
      answers.clear();
      try {
        delivery.execute(() -> {
          for (Runnable a : batch) {
            a.run();
          }
        });
        return;
      } catch (java.util.concurrent.RejectedExecutionException closing) {
        answers.addAll(Arrays.asList(batch));
      }
    }
    for (Runnable a : answers) {
      a.run();
    }
    answers.clear();
  }

  /** Up to this many answers are given on the tick's own thread (one wake-up costs what a hand-off does). */
  static final int DELIVER_INLINE = 2;
}
