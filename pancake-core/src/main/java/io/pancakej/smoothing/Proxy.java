package io.pancakej.smoothing;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.StampedLock;
import java.util.function.UnaryOperator;
import java.util.random.RandomGenerator;

import io.pancakej.PancakeConfig;
import io.pancakej.PancakeException;
import io.pancakej.ValueTooLargeException;
import io.pancakej.crypto.Aead;
import io.pancakej.crypto.CtrDrbg;
import io.pancakej.crypto.EpochAead;
import io.pancakej.crypto.MasterKey;
import io.pancakej.crypto.Prf;
import io.pancakej.state.ProxyState;
import io.pancakej.state.StateDirectory;
import io.pancakej.state.WriteAheadLog;
import io.pancakej.store.KvStore;

/**
 * The PANCAKE engine behind {@link io.pancakej.PancakeClient}; not an API of its own.
 *
 * <p>Request path (paper Fig. 2, Batch): a request for key k joins the shared FIFO query queue and
 * waits. The {@link Emitter} sends ticks on the clock -- K batches of B accesses in one store call
 * ({@link TickRunner}) -- at a rate that follows the request rate over coarse windows
 * ({@link EmissionRate}); each access is real with probability delta (the queue head, or a
 * simulated real access when the queue is empty) or fake. When and how batches reach the store
 * therefore depends on the clock and on the windowed request count only, never on what a batch
 * served. Writes reach the write-ahead log on their own thread ({@link LogWriter}); a write is
 * acknowledged once logged, and reaches replicas after that.
 *
 * <p>Ticks run under the read side of a phase lock; switching between a steady plan and a
 * replica-swapping {@link Transition} takes the write side, so no tick straddles two phases.
 */
public final class Proxy implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger("io.pancakej");
  final KvStore store;
  final StateDirectory stateDir;
  final MasterKey masterKey;
  private final Prf prf;
  /** Seals replicas and the canary: AES-256-GCM under counted key epochs (see {@link #valueAead}). */
  final EpochAead aead;
  final ReplicaCodec codec;
  final KeyTable keys;
  final UpdateCache cache = new UpdateCache();
  final ConcurrentLinkedQueue<Request> queue = new ConcurrentLinkedQueue<>();
  final StampedLock phaseLock = new StampedLock();
  volatile Phase phase;
  final ThreadLocal<RandomGenerator> random;
  final int batchSize;
  final String storeDescription;
  final byte[] stateId;
  final AtomicLong versions = new AtomicLong();
  private final LongAdder requestCount = new LongAdder();
  final LongAdder batchCount = new LongAdder();
  final LongAdder swapCount = new LongAdder();
  private final AtomicLong transitions = new AtomicLong();
  volatile long lastSwapMillis = -1;
  /** Set when a tick found the last pending swap already done (after recovery). */
  volatile boolean pendingFinish;
  /** Accesses the estimate in force was learned from; {@link Estimator#EXACT} declared, {@link Estimator#ASSUMED} no prior. */
  volatile long estimateSamples;
  /** Where the estimate in force came from, in words (printed by the YCSB binding, saved with the state). */
  volatile String estimateSource;
  private final AtomicBoolean open = new AtomicBoolean(true);
  final TickRunner runner = new TickRunner(this);
  private final Emitter emitter;
  final LogWriter log;
  private final Estimator estimator;
  private final boolean eagerSwapsForTests;
  final WriteAheadLog wal;
  final Checkpointer checkpointer;

  Proxy(PancakeConfig config, KvStore store, StateDirectory stateDir, MasterKey masterKey,
      ReplicaCodec codec, Phase phase, byte[][] keyOfSlot, int[] freeOrder, int nextFree, byte[] stateId,
      long walSequence, long estimateSamples, String estimateSource, ProxyState.KeyEpoch savedKeyEpoch,
      boolean eagerSwaps) {
    this.estimateSamples = estimateSamples;
    this.estimateSource = estimateSource;
    this.store = store;
    this.stateDir = stateDir;
    this.masterKey = masterKey;
    this.prf = labelPrf(masterKey);
    this.aead = valueAead(config, stateDir, masterKey, stateId, savedKeyEpoch);
    this.codec = codec;
    this.phase = phase;
    this.wal = WriteAheadLog.open(stateDir.path(), walKeys(masterKey, stateId), config.walSync(), walSequence);
    this.keys = new KeyTable(keyOfSlot, freeOrder, nextFree, new KeyTable.Listener() {
      @Override
      public void bound(int slot, byte[] key) {
        wal.append(WriteAheadLog.BIND, ByteBuffer.allocate(4 + key.length).putInt(slot).put(key).array());
      }

      @Override
      public void freed(int slot) {
        wal.append(WriteAheadLog.FREE, ByteBuffer.allocate(4).putInt(slot).array());
        cache.forgetDeleted(slot);
        freedSlots.add(slot);
      }
    });
    this.log = new LogWriter(wal, this::freeDeletedSlot,
        (ticket, slot) -> cache.compute(slot, (k, e) -> e != null && e.ticket == ticket ? reverted(slot, ticket) : e),
        daemon("pancake-log"));
    this.stateId = stateId;
    this.batchSize = config.batchSize();
    this.storeDescription = store.describe();
    this.eagerSwapsForTests = eagerSwaps;
    this.random = randomSource(config.seed());
    this.emitter = new Emitter(runner, new EmissionRate(config.pacerRate(), config.tickRateMax(),
        config.tickBatchesMax(), batchSize, Emitter.WINDOW_NANOS), requestCount::sum, daemon("pancake-emitter"));
    this.maxBatchesPerTick = Integer.highestOneBit(config.tickBatchesMax());
    this.estimator = config.adapt()
        ? new Estimator(phase.target.keySlots, config.firstWindow(), config.windowSize(), config.detectionConfidence(),
            phase.target.estimate, estimateSamples, this::onEstimate)
        : null;
    if (estimator != null && phase instanceof Transition) {
      estimator.pause(true);
    }
    this.checkpointer = new Checkpointer(this, config.checkpointInterval(), daemon("pancake-checkpoint"));
  }

  private final int maxBatchesPerTick;

  /**
   * What a key whose latest write the log failed goes back to: the last value that did reach the
   * log, as a fresh entry under the current plan (no replica known to hold it: every replica is
   * written again), or nothing if every replica already held it.
   */
  private UpdateCache.Entry reverted(int slot, LogTicket failed) {
    UpdateCache.Entry to = failed.revertTo();
    return to == null ? null
        : new UpdateCache.Entry(to.value, versions.incrementAndGet(), phase.target.replicaCount(slot), LogTicket.DURABLE);
  }

  private static java.util.concurrent.ThreadFactory daemon(String name) {
    return r -> {
      Thread t = new Thread(r, name);
      t.setDaemon(true);
      return t;
    };
  }

  /** The log writer frees a slot whose deletion reached every replica (its FREE record follows the WRITE). */
  private void freeDeletedSlot(int slot) {
    freeIfUnused(slot);
    dropFreedSlots();
  }

  /**
   * The value cipher. Epoch e's key is HKDF(master, "pancake-j value aead v2 <state id> epoch e"):
   * bound to the state, so a state re-created under the same key file never reuses a key. It
   * resumes from the later of the epoch file (the ledger, written before every reservation and
   * epoch change) and the checkpoint's record, counting reserved encryptions as used: after a crash
   * nothing sealed under an epoch goes uncounted (argument in {@link EpochAead}). A new state
   * ({@code saved == null}) starts at epoch 0; its first encryption writes the ledger.
   */
  private static EpochAead valueAead(PancakeConfig config, StateDirectory dir, MasterKey key, byte[] stateId,
      ProxyState.KeyEpoch saved) {
    ProxyState.KeyEpoch start = saved == null
        ? new ProxyState.KeyEpoch(0, 0)
        : ProxyState.KeyEpoch.max(saved, dir.loadKeyEpoch(key, stateId));
    String prefix = "pancake-j value aead v2 " + java.util.HexFormat.of().formatHex(stateId) + " epoch ";
    return new EpochAead(e -> key.derive(prefix + e), start.epoch(), start.used(), config.aeadEpochBudget(),
        (e, limit) -> dir.saveKeyEpoch(new ProxyState.KeyEpoch(e, limit), key, stateId));
  }

  /** Write-ahead log file s's key: one per file (bounded use), bound to the state. */
  static java.util.function.LongFunction<Aead> walKeys(MasterKey key, byte[] stateId) {
    String prefix = "pancake-j wal v2 " + java.util.HexFormat.of().formatHex(stateId) + " file ";
    return seq -> new Aead(key.derive(prefix + seq));
  }

  static ThreadLocal<RandomGenerator> randomSource(Long seed) {
    if (seed == null) {
      return ThreadLocal.withInitial(CtrDrbg::new);
    }
    SplittableRandom root = new SplittableRandom(seed);
    return ThreadLocal.withInitial(() -> {
      synchronized (root) {
        return root.split();
      }
    });
  }

  // ---------------------------------------------------------------- open / create / close

  /** Opens the state in the configured directory (creating it if allowed) and the store. */
  public static Proxy open(PancakeConfig config) {
    return ProxyOpener.open(config, false);
  }

  /** Test hook: with {@code eagerSwaps}, a transition writes all its swaps at once (insecure). */
  static Proxy open(PancakeConfig config, boolean eagerSwaps) {
    return ProxyOpener.open(config, eagerSwaps);
  }

  /** Starts what {@link #close} stops: the log writer, pending swaps, the clock, the estimator, checkpoints. */
  void start() {
    log.start();
    finishSwapBeforeServing();
    emitter.start();
    if (estimator != null) {
      estimator.start();
    }
    checkpointer.start();
  }


  /**
   * A swap that is under way when the proxy opens -- towards a declared distribution that differs
   * from the saved estimate, or saved by an earlier process -- is finished before the first
   * request: while it runs real accesses are rare (delta' = 1/(2n alpha')), so requests would crawl
   * (measured: 4 requests/s for 75 s on YCSB C at 10^4 records). Ticks of the largest size, built
   * exactly as request ticks are (every slot still read with probability 1/(2n)), run back to back
   * before the clock starts. The store sees a burst of ticks at open, which says that a swap is
   * running. Bounded: a swap that cannot finish (a damaged replica whose value never comes) is left
   * to the ordinary ticks.
   */
  private void finishSwapBeforeServing() {
    if (!(phase instanceof Transition)) {
      return;
    }
    if (!((Transition) phase).isDurable()) {
      checkpoint(); // no swap reaches the store before the plan it serves is saved
    }
    int total = ((Transition) phase).remainingSwaps();
    long started = System.nanoTime();
    // every slot is touched about once per 2n/B batches: a swap that made no progress for ten times
    // that is waiting for something batches cannot bring (a damaged replica's value)
    long stall = 10L * phase.target.replicaSlots / ((long) batchSize * maxBatchesPerTick) + 1_000;
    long ticks = 0;
    long lastProgress = 0;
    int lastRemaining = total;
    int reported = 0;
    long lastReport = started;
    RuntimeException failure = null;
    while (phase instanceof Transition t) {
      int left = t.remainingSwaps();
      if (left != lastRemaining) {
        lastRemaining = left;
        lastProgress = ticks;
      } else if (ticks - lastProgress > stall) {
        break;
      }
      try {
        runner.tick(maxBatchesPerTick);
      } catch (RuntimeException e) {
        failure = e;
        break;
      }
      ticks++;
      long now = System.nanoTime();
      int percent = total == 0 ? 100 : (int) ((total - left) * 100L / total);
      if (percent / 10 > reported / 10 && now - lastReport > 2_000_000_000L) {
        reported = percent;
        lastReport = now;
        LOG.log(System.Logger.Level.INFO, String.format("swapping replicas to the declared distribution before"
            + " the first request: %d of %d swaps (%.1f s)", total - left, total, (now - started) / 1e9));
      }
    }
    runner.flush();
    double seconds = (System.nanoTime() - started) / 1e9;
    if (phase instanceof Transition t) {
      LOG.log(System.Logger.Level.WARNING, String.format("%d of %d replica swaps done at open in %.1f s; the rest"
          + " continue with the requests%s", total - t.remainingSwaps(), total, seconds,
          failure == null ? "" : " (" + failure.getMessage() + ")"));
    } else if (seconds >= 1) {
      LOG.log(System.Logger.Level.INFO, String.format("%d replica swaps done at open in %.1f s (%d ticks)", total,
          seconds, ticks));
    }
  }


  byte[] label(int replicaSlot) {
    return label(prf, replicaSlot);
  }

  byte[] canaryLabel() {
    return canaryLabel(prf);
  }

  static Prf labelPrf(MasterKey key) {
    return new Prf(key.derive("pancake-j label prf v1"), 16);
  }

  static byte[] label(Prf prf, int replicaSlot) {
    return prf.compute(ByteBuffer.allocate(9).put((byte) 1).putLong(replicaSlot).array());
  }

  static byte[] canaryLabel(Prf prf) {
    return prf.compute("\u0002pancake-j canary".getBytes(StandardCharsets.US_ASCII));
  }

  /** False once {@link #close} began. */
  boolean isOpen() {
    return open.get();
  }

  /** Persists the proxy state now (it is also saved at close and on a fixed schedule). */
  public void checkpoint() {
    checkpointer.checkpoint();
  }

  @Override
  public void close() {
    if (!open.compareAndSet(true, false)) {
      return;
    }
    PancakeException failure = null;
    try {
      emitter.close();
      if (estimator != null) {
        estimator.close();
      }
      failQueued();
      try {
        runner.flush(); // the last tick's write-back
      } catch (PancakeException e) {
        failure = e;
      }
      log.close();
      checkpointer.close();
    } catch (PancakeException e) {
      if (failure == null) {
        failure = e;
      } else {
        failure.addSuppressed(e);
      }
    } finally {
      aead.close(); // no new key reservation once the state directory is about to be released
      try {
        store.close();
      } finally {
        try {
          wal.close();
        } finally {
          stateDir.close();
        }
      }
    }
    if (failure != null) {
      throw failure;
    }
  }

  private void failQueued() {
    Request r;
    while ((r = queue.poll()) != null) {
      r.done.completeExceptionally(new PancakeException("the PANCAKE client was closed before this request was served"));
    }
  }

  // ---------------------------------------------------------------- requests

  /** Binds and frees run under the phase read lock so that a checkpoint never splits one from its log record. */
  private int acquire(byte[] key, boolean bind) {
    long stamp = phaseLock.readLock();
    try {
      return keys.acquire(key, bind);
    } finally {
      phaseLock.unlockRead(stamp);
    }
  }

  void freeIfUnused(int slot) {
    long stamp = phaseLock.readLock();
    try {
      keys.freeIfUnused(slot, this::deletedEverywhere);
    } finally {
      phaseLock.unlockRead(stamp);
    }
  }

  public Optional<byte[]> get(byte[] key) {
    checkKey(key);
    return present(await(submit(Request.Op.GET, acquire(key, false), null, null)));
  }

  public void put(byte[] key, byte[] value) {
    checkKey(key);
    checkValue(value);
    await(submit(Request.Op.PUT, acquire(key, true), value.clone(), null));
  }

  public boolean update(byte[] key, UnaryOperator<byte[]> merge) {
    checkKey(key);
    checkMerge(merge);
    return (Boolean) await(submit(Request.Op.UPDATE, acquire(key, false), null, merge));
  }

  public boolean delete(byte[] key) {
    checkKey(key);
    return (Boolean) await(submit(Request.Op.DELETE, acquire(key, false), null, null));
  }

  /**
   * Queues a get; bad input and a closed client throw at once, store and log failures complete the
   * future. The future completes on the common fork-join pool, never on the emitter's thread (a
   * slow or blocking callback must not hold up the ticks).
   */
  public CompletableFuture<Optional<byte[]>> getAsync(byte[] key) {
    checkKey(key);
    return async(submit(Request.Op.GET, acquire(key, false), null, null)).thenApply(Proxy::present);
  }

  public CompletableFuture<Void> putAsync(byte[] key, byte[] value) {
    checkKey(key);
    checkValue(value);
    return async(submit(Request.Op.PUT, acquire(key, true), value.clone(), null)).thenApply(r -> null);
  }

  public CompletableFuture<Boolean> updateAsync(byte[] key, UnaryOperator<byte[]> merge) {
    checkKey(key);
    checkMerge(merge);
    return async(submit(Request.Op.UPDATE, acquire(key, false), null, merge)).thenApply(r -> (Boolean) r);
  }

  public CompletableFuture<Boolean> deleteAsync(byte[] key) {
    checkKey(key);
    return async(submit(Request.Op.DELETE, acquire(key, false), null, null)).thenApply(r -> (Boolean) r);
  }

  private static void checkMerge(UnaryOperator<byte[]> merge) {
    if (merge == null) {
      throw new IllegalArgumentException("merge must not be null");
    }
  }

  private static Optional<byte[]> present(Object result) {
    return result == Request.ABSENT ? Optional.empty() : Optional.of((byte[]) result);
  }

  /** Waits for a request on the caller's thread, then gives its key slot back. */
  private Object await(Request request) {
    try {
      return join(request.done);
    } finally {
      finishRequest(request.keySlot);
    }
  }

  /** A request's answer, delivered (and its key slot given back) on the common pool. */
  private CompletableFuture<Object> async(Request request) {
    return request.done.whenCompleteAsync((r, e) -> finishRequest(request.keySlot));
  }

  /** The future's value, or its failure unwrapped (the exception the request failed with). */
  private static <T> T join(CompletableFuture<T> future) {
    try {
      return future.join();
    } catch (CompletionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof RuntimeException re) {
        throw re;
      }
      if (cause instanceof Error err) {
        throw err;
      }
      throw new PancakeException("request failed", cause);
    }
  }

  private void checkKey(byte[] key) {
    if (key == null || key.length == 0) {
      throw new IllegalArgumentException("key must be non-empty");
    }
    if (key.length > codec.keySize) {
      throw new ValueTooLargeException("key of " + key.length + " bytes exceeds pancake.key.size = " + codec.keySize);
    }
  }

  void checkValue(byte[] value) {
    if (value == null) {
      throw new IllegalArgumentException("value must not be null");
    }
    if (value.length > codec.valueSize) {
      throw new ValueTooLargeException("value of " + value.length + " bytes exceeds pancake.value.size = "
          + codec.valueSize + "; raise pancake.value.size (fixed when the state is created)");
    }
  }

  /**
   * Queues one request for the emitter's next ticks; nothing is sent for it. A key without a slot
   * is queued too (slot -1): it takes a real access like any other and is answered "absent".
   */
  private Request submit(Request.Op op, int keySlot, byte[] value, UnaryOperator<byte[]> merge) {
    if (!open.get()) {
      if (keySlot >= 0) {
        keys.release(keySlot);
      }
      throw new PancakeException("the PANCAKE client is closed");
    }
    if (emitter.isEmitterThread()) {
      if (keySlot >= 0) {
        keys.release(keySlot);
      }
      throw new IllegalStateException("a merge function must not call the client: it runs on the thread that"
          + " serves requests, which would wait for itself");
    }
    requestCount.increment();
    if (keySlot >= 0 && estimator != null) {
      estimator.record(keySlot);
    }
    Request request = new Request(op, keySlot, value, merge);
    queue.add(request);
    if (!open.get()) {
      failQueued(); // close drained the queue before this request joined it
    }
    return request;
  }

  private void finishRequest(int keySlot) {
    if (keySlot < 0) {
      return;
    }
    keys.release(keySlot);
    // a key deleted everywhere gives its slot back once nobody refers to it
    if (cache.isDeletedEverywhere(keySlot)) {
      try {
        freeIfUnused(keySlot);
        dropFreedSlots();
      } catch (RuntimeException e) {
        // the request itself succeeded; the slot stays bound and the next open frees it
        LOG.log(System.Logger.Level.WARNING, "freeing a deleted key's slot failed: " + e.getMessage());
      }
    }
  }

  /** True if no pending write remains and the key's stable replicas say it is absent. */
  private boolean deletedEverywhere(int keySlot) {
    return cache.isDeletedEverywhere(keySlot);
  }
  // ---------------------------------------------------------------- distribution changes

  /** The estimator's new estimate: a detected change, or a refinement of a learned estimate. */
  private void onEstimate(double[] newEstimate, long samples, boolean detected) {
    if (open.get()) {
      startTransition(newEstimate, samples, detected
          ? "learned: a change was detected, estimate from the last " + samples + " accesses"
          : "learned from " + samples + " accesses");
    }
  }

  /** An estimate that waits for the transition under way to finish. */
  private record NextEstimate(double[] estimate, long samples, String source) {}

  private NextEstimate afterTransition;
  /** Key slots freed since the estimate last dropped them (their real probability goes elsewhere). */
  final ConcurrentLinkedQueue<Integer> freedSlots = new ConcurrentLinkedQueue<>();
  private final AtomicBoolean reweighting = new AtomicBoolean();

  /**
   * A freed slot's key is gone, so the real accesses the estimate gives it now go to the other
   * keys: without a new plan its replicas would go quiet together (a deleted hot key's R(k)
   * labels at once). The estimate drops freed slots and is renormalized; when every key still has
   * enough replicas this is a new plan on the same layout at once, otherwise a swapping
   * transition. During a transition it waits until the transition finishes.
   */
  private void dropFreedSlots() {
    if (freedSlots.isEmpty() || !(phase instanceof Phase.Steady) || !reweighting.compareAndSet(false, true)) {
      return; // during a transition the slots wait (finishTransition calls this again)
    }
    NextEstimate needsSwaps = null;
    List<Integer> polled = new ArrayList<>();
    ReplicaPlan installed = null;
    try {
      Phase seen = phase;
      if (!(seen instanceof Phase.Steady) || !open.get()) {
        return;
      }
      // the new plan is built outside the phase lock (O(n)); installing it is a pointer swap
      double[] estimate = seen.target.estimate.clone();
      double dropped = 0;
      Integer slot;
      while ((slot = freedSlots.poll()) != null) {
        polled.add(slot);
        if (keys.keyOf(slot) == null && estimate[slot] > 0) {
          dropped += estimate[slot];
          estimate[slot] = 0;
        }
      }
      if (dropped == 0 || dropped >= 1 - 1e-12) {
        return; // nothing changed, or no key is left to carry the accesses (any plan is uniform then)
      }
      String source = estimateSource.endsWith(", minus deleted keys") ? estimateSource
          : estimateSource + ", minus deleted keys";
      ReplicaPlan same = seen.target.reweighted(estimate);
      if (same == null) {
        needsSwaps = new NextEstimate(estimate, estimateSamples, source);
      } else {
        long stamp = phaseLock.writeLock();
        try {
          if (phase != seen) {
            freedSlots.addAll(polled); // a plan change came first: the slots wait for the next call
            return;
          }
          phase = new Phase.Steady(same);
          estimateSource = source;
          installed = same;
        } finally {
          phaseLock.unlockWrite(stamp);
        }
      }
    } finally {
      reweighting.set(false);
    }
    if (installed != null && estimator != null) {
      estimator.reweight(installed.estimate); // the window under way goes on
    }
    if (needsSwaps != null) {
      startTransition(needsSwaps.estimate(), needsSwaps.samples(), needsSwaps.source());
    }
  }


  /**
   * Moves to a plan for {@code newEstimate} (paper section 5.1), learned from {@code samples}
   * accesses ({@link Estimator#EXACT}: declared) and described by {@code source}: at once if no
   * replica changes hands, else by starting a swapping transition. During a transition the
   * estimate waits until it finishes. Returns true if a transition started.
   */
  boolean startTransition(double[] newEstimate, long samples, String source) {
    while (true) {
      Phase seen = phase;
      if (seen instanceof Transition) {
        long stamp = phaseLock.writeLock();
        try {
          if (phase instanceof Transition) {
            afterTransition = new NextEstimate(newEstimate, samples, source);
            return false;
          }
        } finally {
          phaseLock.unlockWrite(stamp);
        }
        continue;
      }
      // the successor plan is built outside the phase lock (O(n)): the ticks pause only while it
      // is installed and the UpdateCache re-expressed in its indices
      double[] estimate = newEstimate;
      if (samples > 0) {
        // a learned estimate counts accesses to keys deleted since: their slots carry nothing now
        double[] live = newEstimate.clone();
        double left = 0;
        for (int s = 0; s < live.length; s++) {
          if (keys.keyOf(s) == null) {
            live[s] = 0;
          }
          left += live[s];
        }
        if (left > 0) {
          estimate = live;
        }
      }
      ReplicaPlan current = seen.target;
      ReplicaPlan.Successor next = current.successor(estimate, random.get());
      Transition t = next.swaps().length == 0 ? null : new Transition(current, next.plan(), next.swaps());
      List<Integer> deleted = List.of();
      long stamp = phaseLock.writeLock();
      try {
        if (phase != seen) {
          continue; // the plan changed meanwhile: build again from the new one
        }
        estimateSamples = samples;
        estimateSource = source;
        if (t == null) {
          phase = new Phase.Steady(next.plan());
        } else {
          deleted = cache.retarget(t);
          phase = t;
          transitions.incrementAndGet();
        }
      } finally {
        phaseLock.unlockWrite(stamp);
      }
      if (estimator != null) {
        estimator.adopt(next.plan().estimate, samples);
        estimator.pause(t != null);
      }
      if (t == null) {
        return false;
      }
      // the new plan must be durable before any swap reaches the store: none does (writeBack)
      // until a checkpoint saved it; the checkpoint thread takes one now (its snapshot is a short
      // pause between two ticks, at the time of the change)
      checkpointer.soon();
      for (int slot : deleted) {
        freeIfUnused(slot);
      }
      if (eagerSwapsForTests) {
        checkpoint();
        Transition started = t;
        runner.exclusive(() -> swapEagerly(started));
      }
      return true;
    }
  }


  /**
   * The insecure alternative the paper warns against, for the uniformity test's teeth: every swap
   * written at once, with no tick in flight.
   */
  private void swapEagerly(Transition t) {
    for (int r : t.pendingSlots()) {
      boolean last;
      long stamp = phaseLock.readLock();
      try {
        if (!t.isPending(r)) {
          continue; // a tick swapped it meanwhile
        }
        int owner = t.target.ownerOf[r];
        byte[] key = owner == ReplicaPlan.DUMMY ? null : keys.keyOf(owner);
        byte[] value = null;
        if (key != null) {
          ReplicaCodec.View stable = readDirect(t, t.replicaFor(owner, random.get()));
          UpdateCache.Entry e = cache.get(owner);
          value = e != null ? e.value : stable.valueOrNull();
        }
        byte kind = owner == ReplicaPlan.DUMMY ? ReplicaCodec.DUMMY : value == null ? ReplicaCodec.ABSENT : ReplicaCodec.PRESENT;
        byte[] label = label(r);
        store.put(label, aead.encrypt(codec.encode(kind, r, owner, key, value), label));
        last = t.completeSwap(r);
      } finally {
        phaseLock.unlockRead(stamp);
      }
      if (last) {
        finishTransition();
      }
    }
  }

  private ReplicaCodec.View readDirect(Phase p, int r) {
    byte[] label = label(r);
    return runner.open(p, r, label, store.get(label));
  }

  void finishTransition() {
    NextEstimate waiting = null;
    long stamp = phaseLock.writeLock();
    try {
      if (phase instanceof Transition && ((Transition) phase).remainingSwaps() == 0) {
        phase = new Phase.Steady(phase.target);
        waiting = afterTransition;
        afterTransition = null;
        if (estimator != null && waiting == null) {
          estimator.pause(false);
        }
      }
    } finally {
      phaseLock.unlockWrite(stamp);
    }
    if (waiting != null) {
      startTransition(waiting.estimate(), waiting.samples(), waiting.source());
    }
    dropFreedSlots();
  }

  // ---------------------------------------------------------------- introspection

  /** Counters for benchmarks and tests. */
  public Stats stats() {
    Phase p = phase;
    Transition t = p instanceof Transition ? (Transition) p : null;
    return new Stats(requestCount.sum(), batchCount.sum(), emitter.ticks(), emitter.lateTicks(),
        emitter.batchesPerSecond(), cache.size(),
        cache.valueBytes(), queue.size(), keys.boundKeys(), p.target.keySlots, p.target.realReplicas,
        transitions.get(), t == null ? 0 : t.remainingSwaps(), swapCount.sum(),
        t == null ? 0 : t.cachedValues(), t == null ? 0 : t.cachedValueBytes(),
        estimator == null ? Double.NaN : estimator.lastPValue(), estimateSamples, estimateSource);
  }

  /**
   * A snapshot of the engine's counters: batches sent (B accesses each), clock ticks and the ticks
   * that started after their grid point, and the current emission level in batches/s.
   */
  public record Stats(long requests, long batches, long ticks, long lateTicks, double batchesPerSecond,
      int updateCacheEntries,
      long updateCacheBytes, int queued, int keys, int capacity, int realReplicas,
      long transitions, int pendingSwaps, long swapsDone, int swapCacheEntries, long swapCacheBytes,
      double lastChangeTestP, long estimateSamples, String estimateSource) {}

  Phase phase() {
    return phase;
  }

  /** The value cipher (tests: epochs and counts). */
  EpochAead valueAead() {
    return aead;
  }

  ReplicaPlan plan() {
    return phase.target;
  }

  KvStore store() {
    return store;
  }

  Estimator estimator() {
    return estimator;
  }

  /** Decrypts replica {@code r} straight from the store (tests: check replicas after quiescence). */
  byte[] readReplicaValue(int r) {
    return readDirect(phase, r).valueOrNull();
  }

  int slotOf(byte[] key) {
    return keys.peek(key);
  }

  /** Runs one tick of one batch now, on the caller's thread (tests). */
  void idleBatch() {
    runner.tick(1);
  }
}
