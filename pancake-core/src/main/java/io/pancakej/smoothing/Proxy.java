package io.pancakej.smoothing;

import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.StampedLock;
import java.util.function.UnaryOperator;
import java.util.random.RandomGenerator;

import io.pancakej.PancakeConfig;
import io.pancakej.ConfigException;
import io.pancakej.PancakeException;
import io.pancakej.PancakeStats;
import io.pancakej.crypto.Aead;
import io.pancakej.crypto.CtrDrbg;
import io.pancakej.crypto.EpochAead;
import io.pancakej.crypto.KeyPurposes;
import io.pancakej.crypto.MasterKey;
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
 * served. Writes reach the write-ahead log without the emitter waiting ({@link LogWriter}: by
 * default a copy into pages prepared ahead, on the serving thread); a write is acknowledged once
 * logged, and reaches replicas after that.
 *
 * <p>Ticks run under the read side of a phase lock; switching between a steady plan and a
 * replica-swapping {@link Transition} takes the write side, so no tick straddles two phases.
 */
final class Proxy implements Engine {
  private static final System.Logger LOG = System.getLogger("io.pancakej");
  final KvStore store;
  final StateDirectory stateDir;
  final MasterKey masterKey;
  private final Labels labels;
  /** Seals replicas: AES-256-GCM under counted key epochs (where they resume: {@code valueAead}). */
  final EpochAead aead;
  final ReplicaCodec codec;
  final KeyTable keys;
  final UpdateCache cache = new UpdateCache();
  final ConcurrentLinkedQueue<Request> queue = new ConcurrentLinkedQueue<>();
  final StampedLock phaseLock = new StampedLock();
  /** What takes the phase lock's write side: the emitter runs it between two ticks ({@link TickPauses}). */
  final TickPauses pauses;
  volatile Phase phase;
  final ThreadLocal<RandomGenerator> random;
  final int batchSize;
  final String storeDescription;
  final byte[] stateId;
  final AtomicLong versions = new AtomicLong();
  final LongAdder batchCount = new LongAdder();
  final LongAdder swapCount = new LongAdder();
  /**
   * The engine's one clock: the emitter's grid, the serving thread's busy time, the checkpoint
   * schedule and progress messages all read it. Package-private on purpose: when store calls
   * leave is what the store sees, so it is not the application's to set (tests simulate it).
   */
  final Clock clock;
  /** Set when a tick found the last pending swap already done (after recovery). */
  volatile boolean pendingFinish;
  private final AtomicBoolean open = new AtomicBoolean(true);
  final TickRunner runner;
  final Requests requests;
  final Emitter emitter;
  final LogWriter log;
  final Estimator estimator;
  final Transitions transitions;
  final WriteAheadLog wal;
  final Checkpointer checkpointer;

  Proxy(PancakeConfig config, Clock clock, KvStore store, StateDirectory stateDir, MasterKey masterKey,
      ReplicaCodec codec, Phase phase, byte[][] keyOfSlot, int[] freeOrder, int nextFree, byte[] stateId,
      long walSequence, long estimateSamples, String estimateSource, ProxyState.KeyEpoch savedKeyEpoch) {
    this.clock = clock;
    this.pauses = new TickPauses(phaseLock, clock, config.checkpointInterval().toNanos(),
        this::runsATick, this::sealOwedAgain);
    this.requests = new Requests(this, threads(config, "pancake-callbacks"));
    this.store = store;
    this.stateDir = stateDir;
    this.masterKey = masterKey;
    this.labels = new Labels(masterKey);
    this.aead = valueAead(config, stateDir, masterKey, stateId, savedKeyEpoch);
    this.codec = codec;
    this.phase = phase;
    this.wal = WriteAheadLog.open(stateDir.path(), walKeys(masterKey, stateId), config.walSync(), walSequence);
    this.keys = new KeyTable(keyOfSlot, freeOrder, nextFree, new KeyTable.Listener() {
      @Override
      public void bound(int slot, byte[] key) {
        wal.append(new LogRecord.Bind(slot, key));
      }

      @Override
      public void freed(int slot) {
        wal.append(new LogRecord.Free(slot));
        cache.forgetDeleted(slot);
        transitions.freed(slot);
      }
    });
    this.log = new LogWriter(wal, this::freeDeletedSlot,
        (ticket, slot) -> cache.compute(slot, (k, e) -> e != null && e.ticket == ticket ? reverted(slot, ticket) : e),
        threads(config, "pancake-log"));
    this.stateId = stateId;
    this.batchSize = config.batchSize();
    this.runner = new TickRunner(this, threads(config, "pancake-serving"));
    this.storeDescription = store.describe();
    this.random = randomSource(config.seed());
    this.emitter = new Emitter(runner, new EmissionRate(config.pacerRate(), config.tickRateMax(),
        config.tickBatchesMax(), batchSize, Emitter.WINDOW_NANOS), requests.count::sum, threads(config, "pancake-emitter"),
        clock, config.emitterCpu(), pauses,
        // the phase in force (the field), not the one the proxy opened with (the parameter)
        () -> this.phase instanceof Transition t && t.crawls(this.clock.nanoTime()));
    this.transitions = new Transitions(this, Integer.highestOneBit(config.tickBatchesMax()), estimateSamples,
        estimateSource, threads(config, "pancake-planner"));
    this.estimator = config.adapt()
        ? new Estimator(phase.target.keySlots, config.firstWindow(), config.windowSize(), config.detectionConfidence(),
            phase.target.estimate, estimateSamples, transitions::onEstimate, threads(config, "pancake-estimator"))
        : null;
    if (estimator != null && phase instanceof Transition) {
      estimator.pause(true);
    }
    this.checkpointer = new Checkpointer(this, config.checkpointInterval(), threads(config, "pancake-checkpoint"),
        threads(config, "pancake-checkpoint-save"));
  }

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

  /**
   * Asks the configured thread factory for one thread (never started) before an open creates
   * anything: a factory that returns none fails the open with nothing left half made.
   */
  static void checkThreadFactory(PancakeConfig config) {
    if (config.threadFactory() != null && config.threadFactory().newThread(() -> {}) == null) {
      throw new ConfigException("the configured thread factory returned no thread (PancakeConfig.Builder.threadFactory)");
    }
  }

  /** Threads named {@code name} from the configured factory, or daemon threads by that name. */
  static java.util.concurrent.ThreadFactory threads(PancakeConfig config, String name) {
    java.util.concurrent.ThreadFactory custom = config.threadFactory();
    return r -> {
      Thread t;
      if (custom != null) {
        t = custom.newThread(r);
        if (t == null) {
          throw new PancakeException("the configured thread factory returned no thread for " + name);
        }
      } else {
        t = new Thread(r, name);
        t.setDaemon(true);
      }
      return t;
    };
  }

  /** The log writer frees a slot whose deletion reached every replica (its FREE record follows the WRITE). */
  private void freeDeletedSlot(int slot) {
    freeIfUnused(slot);
    transitions.dropFreedSlots();
  }

  /**
   * The value cipher. Epoch e's key is derived for {@link KeyPurposes#pancakeValues}(state id, e):
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
    return new EpochAead(e -> key.derive(KeyPurposes.pancakeValues(stateId, e)), start.epoch(), start.used(), config.aeadEpochBudget(),
        (e, limit) -> dir.saveKeyEpoch(new ProxyState.KeyEpoch(e, limit), key, stateId));
  }

  /** Write-ahead log file s's key: one per file (bounded use), bound to the state. */
  static java.util.function.LongFunction<Aead> walKeys(MasterKey key, byte[] stateId) {
    return seq -> new Aead(key.derive(KeyPurposes.pancakeLogFile(stateId, seq)));
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
  static Proxy open(PancakeConfig config) {
    return ProxyOpener.open(config);
  }


  /**
   * Starts what {@link #close} stops: the log writer, pending swaps, the estimator, checkpoints,
   * the clock (last: once ticks run, nothing here can fail). A start that fails stops what it had
   * started ({@link #stopStarted}).
   */
  void start() {
    emitter.takeCpu(); // first: every thread started after it stays off the emitter's CPU
    boolean checkpoints = false;
    try {
      log.start();
      transitions.finishBeforeServing();
      runner.startServingThread();
      if (emitter.cpu() >= 0) {
        requests.startCallbackThread();
      }
      if (estimator != null) {
        estimator.start();
      }
      checkpointer.start();
      checkpoints = true;
      // a checkpoint's path once before the clock starts: the first save loads classes and
      // bootstraps call sites under the JVM's class and compile locks, and at nice 19 on a busy
      // CPU it held them for tens of ms; an emitter that needed one meanwhile (a compile request)
      // stalled with it: 30-270-ms silences after a run's first checkpoint
      // (results/timing/off-slot-silences)
      checkpointer.rehearse();
      transitions.startPlanner();
      transitions.rehearse(); // the same for a plan change, on the planner's thread
      emitter.start();
    } catch (RuntimeException | Error e) {
      stopStarted(e, checkpoints);
      throw e;
    }
  }

  /**
   * After a failed {@link #start}: stops the threads it started and closes the log files, so a
   * failed open leaves no thread behind (with a thread factory that makes non-daemon threads, one
   * would keep the JVM alive). The opener closes the store and the state directory.
   */
  private void stopStarted(Throwable failure, boolean checkpoints) {
    try {
      emitter.close(); // its thread ends, and the other threads get the CPU back
      transitions.closePlanner();
      if (estimator != null) {
        estimator.close();
      }
      runner.close();
      requests.closeCallbacks();
      log.close();
      if (checkpoints) {
        checkpointer.close(); // nothing was served: its checkpoint is the state as opened
      } else {
        checkpointer.abandon();
      }
    } catch (RuntimeException e) {
      failure.addSuppressed(e);
    } finally {
      aead.close();
      try {
        wal.close();
      } catch (RuntimeException e) {
        failure.addSuppressed(e);
      }
    }
  }

  /** What every slot does after its pauses ({@link TickPauses}): the owed write-backs sealed again. */
  private void sealOwedAgain() {
    runner.sealOwedAgain();
  }

  /** True on a thread that holds the runner's monitor, which every tick's send takes ({@link TickPauses}). */
  private boolean runsATick() {
    return Thread.holdsLock(runner);
  }

  /** The store label of replica slot {@code replicaSlot}. */
  byte[] label(int replicaSlot) {
    return labels.replica(replicaSlot);
  }


  /** False once {@link #close} began. */
  boolean isOpen() {
    return open.get();
  }

  /** Persists the proxy state now (it is also saved at close and on a fixed schedule). */
  @Override
  public void checkpoint() {
    checkpointer.checkpoint();
  }

  @Override
  public void close() {
    if (!open.compareAndSet(true, false)) {
      return;
    }
    if (requests.isCallbackThread()) {
      closeHere(); // an asynchronous request's callback closes: the wait for the callbacks skips its own
      return;
    }
    // on a thread of its own, which the caller waits for through interrupts (keeping the flag):
    // an interrupt would close the file channels of the last checkpoint's log rotation and save
    // (ClosedByInterruptException) and cut short the waits for the proxy's threads
    CompletableFuture<Void> closed = new CompletableFuture<>();
    try {
      Waits.startDaemon("pancake-closing", this::closeOpen, closed);
    } catch (OutOfMemoryError | RuntimeException noThread) {
      closeHere(); // no thread to be had
      return;
    }
    try {
      Waits.get(closed, Waits.FOREVER);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      if (e.getCause() instanceof Error err) {
        throw err;
      }
      throw new PancakeException("close failed: " + e.getCause(), e.getCause());
    } catch (TimeoutException never) {
      throw new AssertionError(never);
    }
  }

  /**
   * {@link #closeOpen} on the calling thread, with its interrupt flag cleared meanwhile and kept
   * (the file channels of the last checkpoint; the waits, which go on through interrupts).
   */
  private void closeHere() {
    boolean interrupted = Thread.interrupted();
    try {
      closeOpen();
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** The minimum time the last write-backs get at close, whatever the emitter's stop took. */
  private static final long FLUSH_WAIT_MIN_NANOS = TimeUnit.SECONDS.toNanos(5);

  private void closeOpen() {
    closeStartNanos = System.nanoTime();
    long deadline = closeStartNanos + emitter.stopWaitNanos();
    emitter.close(); // the pauses waiting for a slot run as it stops
    if (!emitter.stopped() || !runner.awaitServed(Math.max(0, deadline - System.nanoTime()))) {
      throw closeWithoutTheStore(null);
    }
    PancakeException failure = null;
    boolean release = true;
    try {
      transitions.closePlanner(); // the plan changes asked for so far are done
      if (estimator != null) {
        estimator.close();
      }
      requests.failQueued();
      // the last ticks' write-backs, on a thread of its own: their store calls may not return either
      CompletableFuture<Void> flushed = new CompletableFuture<>();
      Thread flusher = Waits.startDaemon("pancake-flush", runner::flush, flushed);
      try {
        failure = awaitFlush(flushed, Math.max(FLUSH_WAIT_MIN_NANOS, deadline - System.nanoTime()));
      } catch (TimeoutException e) {
        release = false; // the stuck flush holds the runner and a read stamp: as a stuck tick does
        throw closeWithoutTheStore(flusher);
      } finally {
        if (release) {
          runner.close(); // the last answers given
          requests.closeCallbacks(); // and the callbacks of the asynchronous ones run
        }
      }
      log.close();
      checkpointer.close();
    } catch (PancakeException e) {
      if (!release) {
        throw e;
      }
      if (failure == null) {
        failure = e;
      } else {
        failure.addSuppressed(e);
      }
    } finally {
      if (release) {
        aead.close(); // no new key reservation once the state directory is about to be released
        closeStoreLogAndDirectory();
      }
    }
    if (failure != null) {
      throw failure;
    }
  }

  /**
   * Closes while a store call has not returned, and returns the failure to throw: the emitter or
   * the serving thread waits in it (an application's own store that hangs, a Redis client without
   * a timeout), holding the runner and the phase lock that a flush and a checkpoint need, so close
   * cannot wait for it (or the last flush does, {@code flusher}). What waits fails (the queued
   * requests, those of the ticks sent, the pauses asked for); nothing is flushed and no last
   * checkpoint is taken, so a reopen recovers as after a crash, from the last checkpoint and the
   * log, which hold every acknowledged write. The store, the
   * log files and the state directory are closed only once every thread that may still use them
   * has ended: until then a reopen fails with the directory in use, so a call that returns late
   * cannot land under a new proxy.
   */
  private PancakeException closeWithoutTheStore(Thread flusher) {
    PancakeException failure = new PancakeException(String.format(
        "a store call has not returned within %d s of close (%s). Closed without"
            + " the last checkpoint: a reopen recovers every acknowledged write from the state file and the"
            + " log. Requests in flight failed, and may still take effect if the call returns; the state"
            + " directory stays locked until it does",
        TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - closeStartNanos), store.describe()));
    // each step on its own: one that fails must not leave the next one's waiters hanging
    step(failure, () -> pauses.abandon(failure)); // the planner's and the checkpoints' waits for a slot end
    step(failure, () -> runner.abandon(failure)); // the requests of the ticks sent fail
    step(failure, requests::failQueued);
    step(failure, transitions::closePlanner);
    if (estimator != null) {
      step(failure, estimator::close);
    }
    step(failure, requests::closeCallbacks);
    step(failure, log::close);
    step(failure, checkpointer::closeWithoutCheckpoint);
    step(failure, aead::close);
    Thread emitterThread = emitter.thread();
    Thread servingThread = runner.servingThread();
    Thread closer = new Thread(() -> {
      try {
        // every thread that may still write to the store, the log or the state directory
        emitterThread.join();
        if (flusher != null) {
          flusher.join();
        }
        if (servingThread != null) {
          servingThread.join();
        }
        transitions.awaitPlannerStopped();
        log.awaitStopped();
        checkpointer.awaitStopped();
        closeStoreLogAndDirectory();
        LOG.log(System.Logger.Level.INFO, "the store call returned: the state directory " + stateDir.path()
            + " is released");
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } catch (RuntimeException e) {
        LOG.log(System.Logger.Level.WARNING, "closing after a store call that returned late failed: "
            + e.getMessage());
      }
    }, "pancake-close"); // a daemon, not the application's factory's: it must not keep the JVM alive
    closer.setDaemon(true);
    closer.start();
    return failure;
  }

  /** When close began (the closing thread's). */
  private long closeStartNanos;

  /**
   * Waits up to {@code nanos} for the last flush, through interrupts (kept: a close inline on the
   * callback thread may carry one); its failure, or null.
   */
  private static PancakeException awaitFlush(CompletableFuture<Void> flushed, long nanos)
      throws TimeoutException {
    try {
      Waits.get(flushed, nanos);
      return null;
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof Error err) {
        throw err;
      }
      return cause instanceof PancakeException pe ? pe
          : new PancakeException("the last flush failed: " + cause, cause);
    }
  }

  /** The last of a close: the store, the log files, then the state directory (released). */
  private void closeStoreLogAndDirectory() {
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

  private static void step(PancakeException failure, Runnable step) {
    try {
      step.run();
    } catch (RuntimeException e) {
      failure.addSuppressed(e);
    }
  }

  // ---------------------------------------------------------------- requests

  /** The latest value of {@code key}, if any. */
  @Override
  public Optional<byte[]> get(byte[] key) {
    return requests.get(key);
  }

  /** Stores {@code value} under {@code key}; returns once the write is logged. */
  @Override
  public void put(byte[] key, byte[] value) {
    requests.put(key, value);
  }

  /** Replaces a present key's value with {@code merge} of it; false if the key is absent. */
  @Override
  public boolean update(byte[] key, UnaryOperator<byte[]> merge) {
    return requests.update(key, merge);
  }

  /** Deletes {@code key}; false if it was absent. */
  @Override
  public boolean delete(byte[] key) {
    return requests.delete(key);
  }

  /** {@link #get}, completing on the client's callback thread (see {@link Requests#getAsync}). */
  @Override
  public CompletableFuture<Optional<byte[]>> getAsync(byte[] key) {
    return requests.getAsync(key);
  }

  /** {@link #put}, completing on the client's callback thread. */
  @Override
  public CompletableFuture<Void> putAsync(byte[] key, byte[] value) {
    return requests.putAsync(key, value);
  }

  /** {@link #update}, completing on the client's callback thread. */
  @Override
  public CompletableFuture<Boolean> updateAsync(byte[] key, UnaryOperator<byte[]> merge) {
    return requests.updateAsync(key, merge);
  }

  /** {@link #delete}, completing on the client's callback thread. */
  @Override
  public CompletableFuture<Boolean> deleteAsync(byte[] key) {
    return requests.deleteAsync(key);
  }

  /** Rejects a value larger than {@code pancake.value.size} (also checked on a merge's result). */
  void checkValue(byte[] value) {
    requests.checkValue(value);
  }

  /** Frees a key slot that is deleted everywhere and that no request holds (under the phase read lock, as binds are). */
  void freeIfUnused(int slot) {
    long stamp = phaseLock.readLock();
    try {
      keys.freeIfUnused(slot, cache::isDeletedEverywhere);
    } finally {
      phaseLock.unlockRead(stamp);
    }
  }

  /** The last swap of a transition is done (called by the tick that did it): steady on the new plan. */
  void finishTransition() {
    transitions.finish();
  }

  // ---------------------------------------------------------------- introspection

  /** Counters for benchmarks, monitoring and tests. */
  @Override
  public PancakeStats stats() {
    Phase p = phase;
    Transition t = p instanceof Transition ? (Transition) p : null;
    return new PancakeStats(requests.count.sum(), batchCount.sum(), emitter.ticks(), emitter.lateTicks(),
        emitter.batchesPerSecond(), cache.size(),
        cache.valueBytes(), queue.size(), keys.boundKeys(), p.target.keySlots, p.target.realReplicas,
        transitions.count(), t == null ? 0 : t.remainingSwaps(), swapCount.sum(),
        t == null ? 0 : t.cachedValues(), t == null ? 0 : t.cachedValueBytes(),
        estimator == null ? Double.NaN : estimator.lastPValue(), transitions.estimateSamples,
        transitions.estimateSource);
  }
}
