package io.pancakej.smoothing;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.random.RandomGenerator;

import io.pancakej.smoothing.TickServing.Owed;
import io.pancakej.smoothing.TickServing.Prepared;
import io.pancakej.smoothing.TickServing.WriteBack;
import io.pancakej.store.KvStore;

/**
 * Runs ticks as a two-stage pipeline. A tick is K batches of B accesses, each real with
 * probability delta (the queue head, or a simulated real access when the queue is empty) or fake
 * (paper Fig. 2), built exactly as the paper's batches are; sending K of them in one round trip is
 * the grouping the paper's proxy does. Tick k's one store call writes back the accesses of tick
 * {@code k - L} ({@link #WRITE_BACK_LAG}) and reads tick k's (writes first): the call's content is
 * fixed by the tick numbers, whatever the ticks served. The emitter sends it
 * ({@link KvStore#sendPutGet}) and goes back to its clock; the serving thread ({@link TickServing})
 * reads its reply, opens it, serves the requests and seals tick k's write-back. So the store call
 * and the crypto overlap instead of taking turns, and on a store that pipelines calls (Redis) tick
 * k+1 leaves on its grid point even while tick k's reply is on its way. Tick k is sent only once
 * tick k-L's serving has ended (its write-back is sealed), so at most L calls are in flight.
 *
 * <p>A replica ticks k-L+1 .. k-1 accessed was read by tick k before their write-backs reached the
 * store: serving tick k takes it from the latest of their sealed write-backs instead
 * ({@link UnsentWriteBacks}), so every tick sees every earlier one. A tick's write-back is computed
 * only after the previous tick's, on one thread, and calls carry them in tick order, so writes
 * reach the store in the order they were decided.
 *
 * <p>A tick holds the read side of the phase lock from its build to the end of its serving (the
 * stamp passes from the emitter to the serving thread), so a plan change happens between the
 * serving of one tick and the build of the next: the write-backs owed then were sealed under the
 * old phase, and are sealed again, in order, under the new one. A transition's last swap is
 * finished by the thread that builds ticks, which holds no stamp when it does.
 */
final class TickRunner implements Ticks {
  private final Proxy proxy;
  final TickServing serving;
  /** The serving thread: one tick's serving at a time, in tick order. */
  private final ThreadPoolExecutor server;
  /** The serving thread's queue: the ticks handed over and not served yet. */
  private final LinkedBlockingQueue<Runnable> toServe = new LinkedBlockingQueue<>();
  private volatile Thread serverThread;
  /**
   * Ticks from a tick's read to the call that carries its write-back: tick k's call carries tick
   * {@code k - WRITE_BACK_LAG}'s. The emitter waits for that tick's serving before tick k's grid
   * point, so the serving thread may fall this many periods less one behind before a grid point is
   * lost: enough to ride out the milliseconds a JIT compilation or a collection holds its CPU at
   * the usual periods (results/timing/write-back-lag). With a lag of 2 those waits, which go with
   * an empty queue (the one caller is held up too), left a trace at one thread.
   */
  static final int WRITE_BACK_LAG = 32;
  /** Sealed write-backs not sent yet, in tick order (at most {@link #WRITE_BACK_LAG}). */
  private final ArrayDeque<Prepared> owed = new ArrayDeque<>();
  /** The write-backs the next tick's read cannot see (serving thread only, but for a plan change). */
  private final UnsentWriteBacks unsent = new UnsentWriteBacks(WRITE_BACK_LAG);
  /** The servings of the last ticks sent, oldest first (at most {@link #WRITE_BACK_LAG}). */
  private final ArrayDeque<CompletableFuture<Void>> servings = new ArrayDeque<>();
  /**
   * The requests of the ticks sent and not served yet, by tick number modulo its length (at most
   * {@link #WRITE_BACK_LAG} ticks are in flight): a store call that never returns leaves them
   * waiting, and {@link #abandon} fails them. Set by the sender, cleared by the serving; the same
   * work on every tick, whatever it served.
   */
  private final AtomicReferenceArray<Request[]> unanswered = new AtomicReferenceArray<>(2 * WRITE_BACK_LAG);
  /** The serving of the last tick sent. */
  private CompletableFuture<Void> previous = CompletableFuture.completedFuture(null);
  /** The next tick's number. */
  private long nextTick;
  /** Nanoseconds the serving thread spent on ticks (written by it alone). */
  private volatile long servingNanos;
  /** A tick recorded a transition's last swap: finish it before the next build. */
  private volatile boolean finishDue;
  /** {@link #nextTick} when a transition was last finished. */
  private long finishedAfterTick = -1;

  TickRunner(Proxy proxy, ThreadFactory servingThread) {
    this.proxy = proxy;
    this.serving = new TickServing(proxy);
    this.server = new ThreadPoolExecutor(1, 1, 0L, TimeUnit.MILLISECONDS, toServe, r -> {
      Thread t = servingThread.newThread(r);
      serverThread = t;
      return t;
    });
  }

  /** Nanoseconds the serving thread has spent on ticks so far (the emission levels' load signal). */
  @Override
  public long servingNanos() {
    return servingNanos;
  }

  /**
   * Starts the serving thread now, on the opening thread: created by the executor at the emitter's
   * first tick instead, it would inherit the emitter's CPU ({@link CorePinning}).
   */
  void startServingThread() {
    server.prestartCoreThread();
  }

  /** The serving thread (null before the first tick). */
  Thread servingThread() {
    return serverThread;
  }

  /** True on the thread that serves requests (where a merge function runs). */
  boolean isServingThread() {
    return Thread.currentThread() == serverThread;
  }

  /**
   * Waits up to {@code nanos} for the serving of every tick sent (the emitter has stopped, so no
   * tick is under way), through interrupts (the flag is kept: an interrupted close still closes
   * cleanly); false if one is still waiting for its store call.
   */
  synchronized boolean awaitServed(long nanos) {
    try {
      Waits.get(previous, nanos);
    } catch (TimeoutException e) {
      return false;
    } catch (java.util.concurrent.ExecutionException | java.util.concurrent.CancellationException e) {
      // a failed serving failed its own requests
    }
    return true;
  }

  /**
   * A store call has not returned and the proxy closes without it ({@link Proxy#close}): the
   * requests of every tick sent (or being sent) and not served fail with {@code failure}, and the
   * serving thread ends once the servings handed to it have run (not waited for: one may be waiting
   * for the store; dropping them instead would leave their read stamps held for good). Takes no
   * monitor, which the thread in the store call may hold.
   */
  void abandon(RuntimeException failure) {
    for (int i = 0; i < unanswered.length(); i++) {
      TickServing.fail(unanswered.getAndSet(i, null), failure);
    }
    server.shutdown();
  }

  /** Waits for the ticks sent to be served (their answers given) and stops the serving thread (after the last flush). */
  void close() {
    server.shutdown();
    try {
      server.awaitTermination(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * Sends a tick of {@code batches} batches and hands its serving over (the emitter: it returns
   * once the call is sent; the serving thread reads its reply). Anything thrown fails the requests
   * of this tick (and is rethrown here if the call could not be sent); the write-back its call
   * carried is then dropped, which loses nothing (the UpdateCache still holds every value not
   * known to be stored).
   */
  @Override
  public synchronized void send(int batches) {
    run(batches);
  }

  /**
   * Waits for the serving of tick {@code k - WRITE_BACK_LAG} to end (its write-back sealed), which
   * tick k's call carries (emitter thread, before its grid point): a serving that ends past the
   * point then costs the point, as a long tick does, instead of a call sent late by however long
   * the serving took. A serving is late when other threads hold its CPU (the callers it has just
   * woken, the JIT, a checkpoint), and a wait said a little about the ticks before it
   * (results/timing/serving-wait: on the default path, with a lag of 2, a tick that found the queue
   * empty, its caller held up too, had to wait about 7 times as often as one that served a
   * request). The lag leaves the serving thread that many periods to catch up first.
   */
  @Override
  public synchronized void awaitSendable() {
    awaitCarriedServings(false); // a failed serving failed its own requests: the next tick goes on
    // before the grid point: a transition's finish (its write lock waits for every serving under
    // way, up to WRITE_BACK_LAG of them) and sealing the owed write-backs again under a new plan
    // (up to WRITE_BACK_LAG ticks of them). Here a long one costs grid points; in the tick it sent
    // the call late. Every plan is installed by the emitter before this ({@link TickPauses}), so
    // none comes between here and the grid point.
    finishIfDue();
    if (owedSealedUnder(proxy.phase)) {
      return; // every tick but the first after a plan change: no stamp taken
    }
    long stamp = proxy.phaseLock.readLock();
    try {
      Phase p = proxy.phase;
      synchronized (owed) {
        if (sealAgainIfStale(p, p instanceof Transition t ? t : null)) {
          resealedBeforePoint++;
        }
      }
    } finally {
      proxy.phaseLock.unlockRead(stamp);
    }
  }

  /**
   * Seals every owed write-back again under the phase in force, whether or not it changed (the
   * emitter, in every slot, after its pauses: a slot that installed a plan needs it, and doing it
   * in every slot gives the installs no work of their own). No serving is under way: the slot's
   * write lock waited for them, and no tick was built since.
   */
  synchronized void sealOwedAgain() {
    long stamp = proxy.phaseLock.readLock();
    try {
      Phase p = proxy.phase;
      synchronized (owed) {
        boolean stale = !owedSealedUnder(p);
        sealAgain(p, p instanceof Transition t ? t : null);
        if (stale) {
          resealedBeforePoint++;
        }
      }
    } finally {
      proxy.phaseLock.unlockRead(stamp);
    }
  }

  /**
   * Plan changes whose owed write-backs were sealed again before the grid point, and inside a
   * tick, after it (tests).
   */
  volatile long resealedBeforePoint;
  volatile long resealedInTick;

  /** True if every write-back owed was sealed under {@code p}. */
  boolean owedSealedUnder(Phase p) {
    synchronized (owed) {
      for (Prepared w : owed) {
        if (w.phase() != p) {
          return false;
        }
      }
      return true;
    }
  }

  /**
   * True if the serving of a tick two or more before the next one is still under way (emitter
   * thread, before its call): the levels count it as a missed point, as they did while the lag was
   * 2 and such a serving cost the point (measured at 8 threads, it did not change the levels'
   * requests per batch, 1.26-1.28 with the lag of 32 either way; results/timing/write-back-lag).
   */
  @Override
  public synchronized boolean servingBehind() {
    int newest = 0;
    for (Iterator<CompletableFuture<Void>> it = servings.descendingIterator(); it.hasNext(); ) {
      CompletableFuture<Void> s = it.next();
      if (newest++ >= 1 && !s.isDone()) {
        return true;
      }
    }
    return false;
  }

  /** Waits for the servings the next tick's call depends on: those of ticks up to {@code nextTick - WRITE_BACK_LAG}. */
  private void awaitCarriedServings(boolean rethrow) {
    // servings holds the last ticks sent, up to nextTick - 1: those beyond the newest LAG - 1 are carried
    while (servings.size() > WRITE_BACK_LAG - 1) {
      CompletableFuture<Void> oldest = servings.peekFirst();
      await(oldest, rethrow);
      servings.pollFirst();
    }
  }

  /** Runs a tick of {@code batches} batches to its end, serving included (swaps before the clock starts). */
  synchronized void tick(int batches) {
    await(run(batches), true);
    finishIfDue();
  }

  /**
   * Sends a tick that accesses exactly {@code replicas}, in that order, and serves no request (the
   * sweep at open, {@link Transitions#finishBeforeServing}); it returns once the call's reply is
   * back, and throws if the call failed (so a failed sweep ends the sweeps), and {@link #flush}
   * waits for the rest.
   */
  synchronized void sweep(int[] replicas) {
    run(0, replicas);
  }

  private CompletableFuture<Void> run(int batches) {
    return run(batches, null);
  }

  /**
   * How long after a tick starts its call leaves, whatever the tick's build took: the build (coins,
   * queue polls, replica draws, labels) is longer the more of its slots are real, and a call sent
   * when the build ends left about 220 ns later per real access, enough for a store with a fine
   * clock to tell real from fake accesses (results/timing/wake-contention/review). A build of a few
   * microseconds then waits, spinning, for the rest; a build that outlasts it (a stall, a
   * collection) leaves when it ends. Measured on the default path: the
   * per-real-access effect went from +281 ns (z 11.3) to -14 ns (z -0.7).
   */
  static final long RELEASE_NANOS = TimeUnit.MICROSECONDS.toNanos(20);
  /** How long the last tick waited for its release (the emitter does not count it as busy; emitter thread only). */
  private long releaseWait;
  /** The shortest time from a tick's start to its call so far, sweeps aside (tests). */
  volatile long shortestIssueDelay = Long.MAX_VALUE;

  @Override
  public long lastReleaseWaitNanos() {
    return releaseWait;
  }

  /** A tick of {@code batches} batches drawn as the paper's are, or of the accesses {@code given} (no request). */
  private CompletableFuture<Void> run(int batches, int[] given) {
    long start = System.nanoTime(); // real time: the release is a spin on the core, whatever the proxy's clock
    // no transition is finished here, after the grid point: the emitter finishes one before its
    // point (awaitSendable), tick() after its tick, a sweep after its last (flush); a plan change
    // here would send the call late by the install's length
    // tick k-LAG's write-back is sealed: this call carries it (a sweep stops on a failed one, which
    // left labels it read unwritten)
    awaitCarriedServings(given != null);
    long tick = nextTick++;
    Request[] served = null;
    boolean handedOver = false;
    long stamp = proxy.phaseLock.readLock();
    try {
      Phase p = proxy.phase;
      Transition transition = p instanceof Transition t ? t : null;
      List<Prepared> out = takeOwed(p, transition, tick);
      int n = given != null ? given.length : batches * proxy.batchSize;
      int[] replicas = given != null ? given : new int[n];
      served = new Request[n];
      RandomGenerator rnd = proxy.random.get();
      Phase drawn = p.sampling(); // one phase for the whole tick
      double delta = drawn.delta();
      for (int i = 0; given == null && i < n; i++) {
        if (rnd.nextDouble() < delta) {
          Request r = proxy.queue.poll();
          served[i] = r;
          replicas[i] = realAccess(drawn, r, rnd);
        } else {
          replicas[i] = drawn.sampleFake(rnd);
        }
      }
      List<byte[]> labels = new ArrayList<>(n);
      for (int r : replicas) {
        labels.add(proxy.label(r));
      }
      proxy.batchCount.add(given != null ? (n + proxy.batchSize - 1) / proxy.batchSize : batches);
      List<byte[]> writeLabels = new ArrayList<>();
      List<byte[]> writeValues = new ArrayList<>();
      for (Prepared w : out) {
        writeLabels.addAll(w.owed().labels());
        writeValues.addAll(w.values());
      }
      // before the call, which may never return: close then fails these requests (the same work on
      // every tick, inside the release's spin)
      int inFlight = (int) (tick % unanswered.length());
      unanswered.set(inFlight, served);
      long wait = 0;
      if (given == null) {
        long built = System.nanoTime();
        long now = built;
        while (now - start < RELEASE_NANOS) {
          Thread.onSpinWait();
          now = System.nanoTime();
        }
        wait = now - built;
        shortestIssueDelay = Math.min(shortestIssueDelay, now - start);
      }
      releaseWait = wait;
      // sent now, its reply read by the serving thread: the next tick may leave before it is back
      KvStore.PendingReply reply = proxy.store.sendPutGet(writeLabels, writeValues, labels);
      Request[] dequeued = served;
      CompletableFuture<Void> serve = new CompletableFuture<>();
      server.execute(() -> {
        try {
          List<byte[]> sealed = awaitReply(reply, stamp, dequeued);
          serve(tick, stamp, p, transition, out, replicas, labels, sealed, dequeued);
          serve.complete(null);
        } catch (Throwable e) {
          serve.completeExceptionally(e);
        } finally {
          unanswered.compareAndSet(inFlight, dequeued, null);
        }
        // then the thread parks in its executor's queue until the next tick is handed over: a
        // serving thread that waited on its core instead (yielding, 2026-11-26 to 11-28) kept both
        // cores busy, so the callers it had just woken took the emitter's core at its next grid
        // point, and the silence after a call followed how many requests the call answered
        // (results/timing/serving-parks: at 8 threads on RocksDB z 13-15 with the wait, 3-5 without)
      });
      handedOver = true;
      servings.addLast(serve);
      previous = serve;
      if (given != null) {
        reply.await(); // the serving thread reads the same reply (read once), and fails on it too
      }
      return serve;
    } catch (Throwable e) {
      TickServing.fail(served, e); // a request dequeued by a failed tick never hangs
      throw e;
    } finally {
      if (!handedOver) {
        unanswered.compareAndSet((int) (tick % unanswered.length()), served, null);
        proxy.phaseLock.unlockRead(stamp);
        // a tick that never reached the serving thread still takes its place: servings counts ticks
        servings.addLast(CompletableFuture.completedFuture(null));
      }
    }
  }

  /**
   * A tick's reply (serving thread). If the call failed, its requests fail and the tick ends there,
   * as it does when the call cannot be sent: the write-back it carried is dropped, which loses
   * nothing (the UpdateCache still holds every value not known to be stored).
   */
  private List<byte[]> awaitReply(KvStore.PendingReply reply, long stamp, Request[] served) {
    try {
      return reply.await();
    } catch (Throwable e) {
      proxy.phaseLock.unlockRead(stamp);
      TickServing.fail(served, e);
      throw e;
    }
  }

  /**
   * The replica a real access reads. A get, update or delete needs its key's stored value: one of
   * its key's replicas (paper Fig. 2). A put needs none: its value waits in the UpdateCache for
   * its key's replicas' next accesses, real or fake, and its access goes to a replica drawn from
   * the estimate, as an empty queue's does. The estimate is learned from the requests that read
   * their own key ({@link Requests}), so every real access, redirected or not, follows it, however
   * puts are spread over keys; a load, which inserts each key once, would otherwise read each
   * key's label at its insert, where a store that knows the insert order finds it
   * (docs/security.md, "the load"). The cost: a put's value waits in the UpdateCache until every
   * replica of its key has been accessed (with the log on, the paper's put mostly waited too: its
   * value reaches the log after its tick's write-back is sealed).
   */
  private static int realAccess(Phase p, Request r, RandomGenerator rnd) {
    if (r == null || r.keySlot < 0 || r.op == Request.Op.PUT) {
      return p.sampleReal(rnd);
    }
    return p.replicaFor(r.keySlot, rnd);
  }

  /** The serving of tick {@code tick} (serving thread): record what its call wrote, serve, seal. */
  private void serve(long tick, long stamp, Phase p, Transition transition, List<Prepared> written, int[] replicas,
      List<byte[]> labels, List<byte[]> sealed, Request[] served) {
    boolean lastSwap = false;
    long start = proxy.clock.nanoTime();
    try {
      for (Prepared w : written) {
        lastSwap |= serving.record(p, transition, w.plan());
      }
      Owed read = serving.readAndServe(p, transition, replicas, labels, sealed, served, unsent.unseenBy(tick, replicas));
      serving.deliverAnswers(); // callers wake before the write-back is sealed: their next requests catch the next tick
      Prepared mine = serving.prepare(tick, p, transition, read);
      synchronized (owed) {
        owed.addLast(mine);
      }
      unsent.add(mine);
    } catch (Throwable e) {
      serving.dropAnswers();
      TickServing.fail(served, e);
      throw e;
    } finally {
      proxy.phaseLock.unlockRead(stamp);
    }
    serving.deliverAnswers();
    servingNanos += proxy.clock.nanoTime() - start; // one writer: the serving thread
    if (lastSwap || proxy.pendingFinish) {
      finishDue = true;
    }
  }

  /**
   * Takes the write-backs tick {@code tick}'s call carries (those of ticks up to
   * {@code tick - WRITE_BACK_LAG}), first sealing every owed write-back again, in tick order, if the
   * phase changed since it was sealed (a plan change between two ticks).
   */
  private List<Prepared> takeOwed(Phase p, Transition transition, long tick) {
    synchronized (owed) {
      if (sealAgainIfStale(p, transition)) {
        resealedInTick++;
      }
      List<Prepared> out = new ArrayList<>(2);
      while (!owed.isEmpty() && owed.peekFirst().tick() <= tick - WRITE_BACK_LAG) {
        out.add(owed.pollFirst());
      }
      return out;
    }
  }

  /**
   * Seals every owed write-back again under {@code p}, in tick order, if the phase changed since it
   * was sealed (holding the owed monitor); true if it did. A plan change waited for every tick's
   * serving to end, and no tick was built since: the serving thread is idle.
   */
  private boolean sealAgainIfStale(Phase p, Transition transition) {
    if (owedSealedUnder(p)) {
      return false;
    }
    sealAgain(p, transition);
    return true;
  }

  /** Seals every owed write-back again under {@code p}, in tick order (holding the owed monitor). */
  private void sealAgain(Phase p, Transition transition) {
    // every tick the next one cannot see is owed (unsent): they replace what the serving kept
    List<Prepared> again = new ArrayList<>(owed.size());
    UnsentWriteBacks sealedAgain = new UnsentWriteBacks(WRITE_BACK_LAG);
    for (Prepared w : owed) {
      Owed o = rebased(w.owed(), sealedAgain.unseenBy(w.tick(), w.owed().replicas()));
      Prepared resealed = serving.prepare(w.tick(), p, transition, o);
      sealedAgain.add(resealed);
      again.add(resealed);
    }
    owed.clear();
    owed.addAll(again);
    unsent.replaceAll(again);
  }

  /**
   * What tick {@code o} read, with the replicas the owed ticks before it write taken from their
   * write-backs as sealed again ({@code unseen}): they were served from them.
   */
  private Owed rebased(Owed o, Map<Integer, WriteBack> unseen) {
    if (unseen.isEmpty()) {
      return o;
    }
    Map<Integer, ReplicaCodec.View> views = new HashMap<>(o.views());
    for (int i = 0; i < o.replicas().length; i++) {
      int r = o.replicas()[i];
      WriteBack w = unseen.get(r);
      if (w != null) {
        try {
          views.put(r, serving.opener().writtenView(o.labels().get(i), w));
        } catch (io.pancakej.IntegrityException lost) {
          views.remove(r);
        }
      }
    }
    return new Owed(o.replicas(), o.labels(), views);
  }

  /** Sends every write-back owed, alone and in order (at close, and before a plan's swaps finish at open). */
  synchronized void flush() {
    await(previous, false); // every tick's serving ended: nothing more gets owed
    long stamp = proxy.phaseLock.readLock();
    try {
      Phase p = proxy.phase;
      Transition transition = p instanceof Transition t ? t : null;
      boolean lastSwap = false;
      for (Prepared w : takeOwed(p, transition, Long.MAX_VALUE)) {
        proxy.store.multiPut(w.owed().labels(), w.values());
        lastSwap |= serving.record(p, transition, w.plan());
      }
      if (lastSwap) {
        finishDue = true;
      }
      // every write-back is stored: the next tick reads what the store holds (serving it the last
      // ticks' write-backs instead would hide damage done since, and write the good value over it)
      unsent.clear();
    } finally {
      proxy.phaseLock.unlockRead(stamp);
    }
    finishIfDue();
  }

  /** Finishes a transition whose last swap a tick recorded (holding no stamp: it takes the write side). */
  private void finishIfDue() {
    if (finishDue || proxy.pendingFinish) {
      finishDue = false;
      proxy.pendingFinish = false;
      finishedAfterTick = nextTick;
      proxy.finishTransition();
    }
  }

  /** Ticks built before the last transition was finished (the sweeps at open finish theirs after their last). */
  long finishedAfterTick() {
    return finishedAfterTick;
  }

  /** Waits for a tick's serving; its failure is rethrown only if {@code rethrow} (its requests have it already). */
  private static void await(CompletableFuture<Void> serving, boolean rethrow) {
    try {
      serving.join();
    } catch (CompletionException | java.util.concurrent.CancellationException e) {
      if (rethrow && e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      if (rethrow && e.getCause() instanceof Error err) {
        throw err;
      }
      if (rethrow) {
        throw e;
      }
    }
  }
}
