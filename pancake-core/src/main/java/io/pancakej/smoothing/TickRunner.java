package io.pancakej.smoothing;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.random.RandomGenerator;

import io.pancakej.smoothing.TickServing.Owed;
import io.pancakej.store.KvStore;
import io.pancakej.smoothing.TickServing.Prepared;
import io.pancakej.smoothing.TickServing.WriteBack;

/**
 * Runs ticks as a pipeline. A tick is K batches of B accesses, each real with probability delta
 * (the queue head, or a simulated real access when the queue is empty) or fake (paper Fig. 2),
 * built exactly as the paper's batches are; sending K of them in one round trip is the grouping the
 * paper's proxy does. Tick k's one store call writes back tick k-L's accesses (L, the lag: 2, or 4
 * on a store that keeps calls in flight) and reads
 * tick k's (writes first): the call's content is fixed by the tick numbers, whatever the ticks
 * served. The emitter sends it and returns ({@link io.pancakej.store.KvStore#sendPutGet}: on Redis
 * the call stays in flight while the next ticks are sent); the serving thread ({@link TickServing})
 * awaits its answer, opens it, serves the requests and seals tick k's write-back. So calls, crypto
 * and the next ticks overlap instead of taking turns, and a tick can go out before the previous
 * one's answer is back.
 *
 * <p>A replica ticks k-L+1 .. k-1 accessed was read by tick k before their write-backs
 * reached the store (they go out with the next ticks): serving tick k takes it from the newest of
 * those sealed write-backs instead, so every tick sees every earlier one. A tick's write-back is
 * computed only after the previous tick's, on one thread, and calls take effect in the order sent,
 * so writes reach the store in the order they were decided.
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
  private final ExecutorService server;
  private volatile Thread serverThread;
  /**
   * Tick k's call carries the write-backs of ticks up to k - lag: tick k-lag's serving (which seals
   * it) has to end before tick k is sent, so up to lag - 1 earlier ticks can be in flight then. On a
   * store whose calls stay in flight (Redis) the tick rate is at most lag calls per round trip; a
   * store in this process answers at once, so more lag would only hold write-backs longer.
   */
  static final int EMBEDDED_LAG = 2;
  static final int REMOTE_LAG = 4;
  final int lag;
  /** Sealed write-backs not sent yet, in tick order (at most lag). */
  private final ArrayDeque<Prepared> owed = new ArrayDeque<>();
  /** The last lag - 1 ticks' sealed write-backs, oldest first, read by the next ticks' serving. */
  private final ArrayDeque<Prepared> recent = new ArrayDeque<>();
  /** Serving of the last ticks sent (at most lag - 1 once a tick is sent), oldest first (the emitter's). */
  private final ArrayDeque<CompletableFuture<Void>> inFlight = new ArrayDeque<>();
  /** The next tick's number. */
  private long nextTick;
  /** Nanoseconds the serving thread spent on ticks (written by it alone). */
  private volatile long servingNanos;
  /** A tick recorded a transition's last swap: finish it before the next build. */
  private volatile boolean finishDue;

  TickRunner(Proxy proxy, ThreadFactory servingThread, ThreadFactory deliveryThread) {
    this.proxy = proxy;
    this.lag = proxy.store.isEmbedded() ? EMBEDDED_LAG : REMOTE_LAG;
    this.serving = new TickServing(proxy, deliveryThread);
    this.server = Executors.newSingleThreadExecutor(r -> {
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

  /** True on the thread that serves requests (where a merge function runs). */
  boolean isServingThread() {
    return Thread.currentThread() == serverThread;
  }

  /** Waits for the ticks sent, gives their answers and stops the threads (after the last flush). */
  void close() {
    server.shutdown();
    try {
      server.awaitTermination(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    serving.close();
  }

  /**
   * Sends a tick of {@code batches} batches and hands its serving over (the emitter: it returns
   * once the call is back). Anything thrown fails the requests of this tick (and is rethrown); the
   * write-back its call carried is then dropped, which loses nothing (the UpdateCache still holds
   * every value not known to be stored).
   */
  @Override
  public synchronized void send(int batches) {
    run(batches);
  }

  /** Runs a tick of {@code batches} batches to its end, serving included (swaps before the clock starts). */
  synchronized void tick(int batches) {
    await(run(batches), true);
    finishIfDue();
  }

  private CompletableFuture<Void> run(int batches) {
    finishIfDue();
    while (inFlight.size() > lag - 1) {
      await(inFlight.pollFirst(), false); // tick k-lag's write-back is sealed: this call carries it
    }
    long tick = nextTick++;
    Request[] served = null;
    boolean handedOver = false;
    long stamp = proxy.phaseLock.readLock();
    try {
      Phase p = proxy.phase;
      Transition transition = p instanceof Transition t ? t : null;
      List<Prepared> out = takeOwed(p, transition, tick);
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
      List<byte[]> writeLabels = new ArrayList<>();
      List<byte[]> writeValues = new ArrayList<>();
      for (Prepared w : out) {
        writeLabels.addAll(w.owed().labels());
        writeValues.addAll(w.values());
      }
      KvStore.Pending call = proxy.store.sendPutGet(writeLabels, writeValues, labels);
      Request[] dequeued = served;
      CompletableFuture<Void> serve = CompletableFuture.runAsync(
          () -> serve(tick, stamp, p, transition, out, replicas, labels, call, dequeued), server);
      handedOver = true;
      inFlight.addLast(serve);
      return serve;
    } catch (Throwable e) {
      TickServing.fail(served, e); // a request dequeued by a failed tick never hangs
      throw e;
    } finally {
      if (!handedOver) {
        proxy.phaseLock.unlockRead(stamp);
      }
    }
  }

  /**
   * The serving of tick {@code tick} (serving thread): await its call's answer, record what the call
   * wrote, serve, seal.
   */
  private void serve(long tick, long stamp, Phase p, Transition transition, List<Prepared> written, int[] replicas,
      List<byte[]> labels, KvStore.Pending call, Request[] served) {
    boolean lastSwap = false;
    long start = 0;
    try {
      List<byte[]> sealed = call.await();
      start = proxy.clock.nanoTime(); // the serving thread's load: its work, not the wait for the store
      for (Prepared w : written) {
        lastSwap |= serving.record(p, transition, w.plan());
      }
      Map<Integer, WriteBack> newer;
      synchronized (owed) {
        newer = newerPlans(recent, tick, lag);
      }
      Owed read = serving.readAndServe(p, transition, replicas, labels, sealed, served, newer);
      serving.deliverAnswers(); // callers wake while the write-back is sealed: their next requests catch the next tick
      Prepared mine = serving.prepare(tick, p, transition, read);
      synchronized (owed) {
        owed.addLast(mine);
        recent.addLast(mine);
        while (recent.size() > lag - 1) {
          recent.pollFirst();
        }
      }
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
   * What the write-backs of ticks {@code tick - lag + 1 .. tick - 1} among {@code sealed} (oldest
   * first) give each replica they write, the newest winning: tick {@code tick}'s call read those
   * replicas before these write-backs reached the store.
   */
  private static Map<Integer, WriteBack> newerPlans(Iterable<Prepared> sealed, long tick, int lag) {
    Map<Integer, WriteBack> newer = Map.of();
    boolean merged = false;
    for (Prepared w : sealed) {
      if (w.tick() < tick && w.tick() > tick - lag) {
        if (newer.isEmpty()) {
          newer = w.plan(); // one tick's plan (always so at a lag of 2): read as it is
        } else {
          if (!merged) {
            newer = new HashMap<>(newer);
            merged = true;
          }
          newer.putAll(w.plan());
        }
      }
    }
    return newer;
  }

  /**
   * Takes the write-backs tick {@code tick}'s call carries (those of ticks up to {@code tick - lag}),
   * first sealing every owed write-back again, in tick order, if the phase changed since it was
   * sealed (a plan change between two ticks).
   */
  private List<Prepared> takeOwed(Phase p, Transition transition, long tick) {
    synchronized (owed) {
      boolean stale = false;
      for (Prepared w : owed) {
        stale |= w.phase() != p;
      }
      if (stale) {
        // a plan change waited for every tick's serving to end: the serving thread is idle
        List<Prepared> again = new ArrayList<>(owed.size());
        for (Prepared w : owed) {
          Map<Integer, WriteBack> newer = newerPlans(again, w.tick(), lag);
          Owed o = newer.isEmpty() ? w.owed() : rebased(w.owed(), newer);
          again.add(serving.prepare(w.tick(), p, transition, o));
        }
        owed.clear();
        owed.addAll(again);
        List<Prepared> kept = new ArrayList<>(recent);
        recent.clear();
        for (Prepared w : kept) {
          Prepared resealed = w;
          for (Prepared a : again) {
            if (a.tick() == w.tick()) {
              resealed = a;
            }
          }
          recent.addLast(resealed);
        }
      }
      List<Prepared> out = new ArrayList<>(lag);
      while (!owed.isEmpty() && owed.peekFirst().tick() <= tick - lag) {
        out.add(owed.pollFirst());
      }
      return out;
    }
  }

  /**
   * What tick {@code o} read, with the replicas the ticks just before it write taken from their
   * write-backs as sealed again ({@code newer}): they were served from them.
   */
  private Owed rebased(Owed o, Map<Integer, WriteBack> newer) {
    Map<Integer, ReplicaCodec.View> views = new HashMap<>(o.views());
    for (int i = 0; i < o.replicas().length; i++) {
      int r = o.replicas()[i];
      WriteBack w = newer.get(r);
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
    while (!inFlight.isEmpty()) {
      await(inFlight.pollFirst(), false); // every tick's serving ended: nothing more gets owed
    }
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
      proxy.finishTransition();
    }
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
