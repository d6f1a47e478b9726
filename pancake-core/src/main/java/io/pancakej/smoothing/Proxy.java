package io.pancakej.smoothing;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.StampedLock;
import java.util.function.UnaryOperator;
import java.util.random.RandomGenerator;

import io.pancakej.ConfigException;
import io.pancakej.IntegrityException;
import io.pancakej.PancakeConfig;
import io.pancakej.PancakeException;
import io.pancakej.StateException;
import io.pancakej.ValueTooLargeException;
import io.pancakej.crypto.Aead;
import io.pancakej.crypto.CtrDrbg;
import io.pancakej.crypto.EpochAead;
import io.pancakej.crypto.MasterKey;
import io.pancakej.crypto.Prf;
import io.pancakej.distribution.DistributionFile;
import io.pancakej.state.ProxyState;
import io.pancakej.state.StateDirectory;
import io.pancakej.state.WriteAheadLog;
import io.pancakej.store.KvStore;
import io.pancakej.store.Stores;

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
  private final StateDirectory stateDir;
  private final MasterKey masterKey;
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
  private final byte[] stateId;
  final AtomicLong versions = new AtomicLong();
  private final LongAdder requestCount = new LongAdder();
  final LongAdder batchCount = new LongAdder();
  final LongAdder swapCount = new LongAdder();
  private final AtomicLong transitions = new AtomicLong();
  volatile long lastSwapMillis = -1;
  /** Set when a tick found the last pending swap already done (after recovery). */
  volatile boolean pendingFinish;
  /** Accesses the estimate in force was learned from; {@link Estimator#EXACT} declared, {@link Estimator#ASSUMED} no prior. */
  private volatile long estimateSamples;
  /** Where the estimate in force came from, in words (printed by the YCSB binding, saved with the state). */
  private volatile String estimateSource;
  private final AtomicBoolean open = new AtomicBoolean(true);
  final TickRunner runner = new TickRunner(this, daemon("pancake-answers"));
  private final Emitter emitter;
  final LogWriter log;
  private final Estimator estimator;
  private final boolean eagerSwapsForTests;
  final WriteAheadLog wal;
  private final Thread checkpointer;
  private final long checkpointNanos;
  final LongAdder checkpoints = new LongAdder();
  /** Set when a new plan waits to be saved: the checkpoint thread saves it at once. */
  private volatile boolean checkpointSoon;
  /** One checkpoint at a time: a snapshot is saved before the next one is taken. */
  private final ReentrantLock checkpointLock = new ReentrantLock();
  /** The phase the state file holds (set by every checkpoint, and by a reopen that found it current). */
  private volatile Phase checkpointedPhase;

  private Proxy(PancakeConfig config, KvStore store, StateDirectory stateDir, MasterKey masterKey,
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
    this.checkpointNanos = config.checkpointInterval().toNanos();
    this.estimator = config.adapt()
        ? new Estimator(phase.target.keySlots, config.firstWindow(), config.windowSize(), config.detectionConfidence(),
            phase.target.estimate, estimateSamples, this::onEstimate)
        : null;
    if (estimator != null && phase instanceof Transition) {
      estimator.pause(true);
    }
    this.checkpointer = daemon("pancake-checkpoint").newThread(this::checkpointLoop);
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
  private static java.util.function.LongFunction<Aead> walKeys(MasterKey key, byte[] stateId) {
    String prefix = "pancake-j wal v2 " + java.util.HexFormat.of().formatHex(stateId) + " file ";
    return seq -> new Aead(key.derive(prefix + seq));
  }

  private static ThreadLocal<RandomGenerator> randomSource(Long seed) {
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
    return open(config, false);
  }

  /** Test hook: with {@code eagerSwaps}, a transition writes all its swaps at once (insecure). */
  static Proxy open(PancakeConfig config, boolean eagerSwaps) {
    boolean exists = StateDirectory.exists(config.stateDir());
    if (!exists && !config.createIfMissing()) {
      throw new StateException("no PANCAKE state in " + config.stateDir().toAbsolutePath()
          + "; load the data first (bin/ycsb load pancake ...) with the same pancake.state.dir");
    }
    if (!exists && config.capacity() < 1) {
      throw new ConfigException("a new PANCAKE state needs a capacity: set pancake.capacity"
          + " (or YCSB's recordcount)");
    }
    // everything that can reject a new state's configuration is checked before anything is
    // created: the state directory, the key file, the store (RocksDB creates its directory)
    Initial initial = exists ? null : Initial.prepare(config);
    Leftovers leftovers = exists ? null : Leftovers.before(config.stateDir());
    StateDirectory dir = StateDirectory.lock(config.stateDir());
    KvStore store = null;
    CompletableFuture<ProxyState> saved = null;
    boolean creating = false;
    try {
      MasterKey key;
      if (exists) {
        if (!Files.isRegularFile(config.keyFile())) {
          throw new StateException("the master key file " + config.keyFile() + " of state "
              + dir.path() + " is missing");
        }
        key = MasterKey.load(config.keyFile());
        // decrypting a saved state of several MB (in code the JIT has not compiled yet) is the
        // longest step of an open: it runs while the store connects or opens
        saved = loadInBackground(dir, key);
      } else {
        // an existing key file is used; a new one is written only once the store proved empty
        key = Files.isRegularFile(config.keyFile()) ? MasterKey.load(config.keyFile()) : null;
      }
      store = config.openStore();
      if (!exists) {
        checkStoreIsNew(config, dir, key, store);
        if (key == null) {
          key = MasterKey.loadOrCreate(config.keyFile());
        }
        creating = true; // from here on what this create made stays: the store may hold data under the key
      }
      Proxy proxy = exists
          ? reopen(config, dir, key, store, awaitLoad(saved), eagerSwaps)
          : create(config, dir, key, store, initial, eagerSwaps);
      proxy.log.start();
      proxy.finishSwapBeforeServing();
      proxy.emitter.start();
      if (proxy.estimator != null) {
        proxy.estimator.start();
      }
      proxy.checkpointer.start();
      return proxy;
    } catch (RuntimeException e) {
      if (saved != null) {
        // the state directory stays locked until the background load has stopped reading it
        try {
          awaitLoad(saved);
        } catch (RuntimeException suppressed) {
          if (suppressed != e) {
            e.addSuppressed(suppressed);
          }
        }
      }
      if (store != null) {
        try {
          store.close();
        } catch (RuntimeException suppressed) {
          e.addSuppressed(suppressed);
        }
      }
      dir.close();
      if (leftovers != null && !creating) {
        leftovers.remove(); // a rejected create leaves the state directory as it found it
      }
      throw e;
    }
  }

  /**
   * What a new state is initialized from, read and checked before anything is created: the
   * capacity, and the declared distribution's weights (each key within pancake.key.size, no more
   * keys than the capacity) with the estimate they give.
   */
  private static final class Initial {
    final int capacity;
    final List<byte[]> listedKeys = new ArrayList<>();
    double[] inOrder;
    String source;

    private Initial(int capacity) {
      this.capacity = capacity;
    }

    static Initial prepare(PancakeConfig config) {
      int n = config.capacity();
      if (n > (1 << 29)) {
        throw new ConfigException("pancake.capacity " + n + " is too large (at most 2^29 key slots)");
      }
      Initial init = new Initial(n);
      PancakeConfig.Declared declared = config.declaredDistribution();
      if (declared != null) {
        Map<String, Double> weights = declared.weights();
        for (String k : weights.keySet()) {
          init.listedKeys.add(checkedFileKey(declared, config, k));
        }
        init.inOrder = DistributionFile.estimate(DistributionFile.weightsInOrder(weights), n);
        init.source = declared.source();
      }
      return init;
    }
  }

  /**
   * The parts of a state directory that locking it creates (the directory, its lock file), noted
   * before: a create that is rejected removes those it created and nothing else.
   */
  private static final class Leftovers {
    final Path dir;
    final boolean dirExisted;
    final boolean lockExisted;

    private Leftovers(Path dir) {
      this.dir = dir.toAbsolutePath().normalize();
      this.dirExisted = Files.exists(this.dir);
      this.lockExisted = Files.exists(this.dir.resolve(StateDirectory.LOCK_FILE));
    }

    static Leftovers before(Path dir) {
      return new Leftovers(dir);
    }

    void remove() {
      try {
        if (!lockExisted) {
          Files.deleteIfExists(dir.resolve(StateDirectory.LOCK_FILE));
        }
        if (!dirExisted) {
          Files.deleteIfExists(dir); // only if empty: anything else in it is not ours to delete
        }
      } catch (IOException ignored) {
        // best effort: the error being thrown is the one that matters
      }
    }
  }

  /**
   * Creating a state writes 2n replicas and a canary over whatever the store holds, so a store
   * that holds anything is refused, never overwritten: it may be this state's own data after its
   * state file was lost (a restored state file reads it again), or another proxy's store (one
   * proxy per store). Where the key is known, the canary and the first replica label say which.
   */
  private static void checkStoreIsNew(PancakeConfig config, StateDirectory dir, MasterKey key, KvStore store) {
    if (store.isEmpty()) {
      return;
    }
    String desc = store.describe();
    String found = null;
    if (key != null) {
      Prf prf = labelPrf(key);
      List<byte[]> got = store.multiGet(List.of(canaryLabel(prf), label(prf, 0)));
      if (got.get(0) != null) {
        found = "a PANCAKE store created with this master key (" + config.keyFile().toAbsolutePath().normalize()
            + "): the data of another state directory that uses the same key, or of this state directory"
            + " before its state file was lost";
      } else if (got.get(1) != null) {
        found = "PANCAKE replicas sealed under this master key (" + config.keyFile().toAbsolutePath().normalize()
            + ") but no canary: a creation of a state with this key that did not finish";
      }
    }
    if (found == null) {
      String count = store.storage().filter(s -> s.entries() > 0)
          .map(s -> (desc.startsWith("rocksdb:") ? "about " : "") + s.entries() + " entries").orElse("data");
      found = count + " (another application's or scheme's data, or a PANCAKE store under another master key)";
    }
    throw new StateException("cannot create a PANCAKE state in " + dir.path() + " over store " + desc
        + ": the store is not empty: it holds " + found + ". Nothing was written. A new state needs an empty"
        + " store: one proxy per store. To go on, either restore the state directory that belongs to"
        + " this store (state.bin and its wal.* files, with the same master key) into " + dir.path()
        + ", or, if its data is not needed, " + Stores.howToEmpty(desc) + " and open again, or configure another"
        + " store");
  }

  private static CompletableFuture<ProxyState> loadInBackground(StateDirectory dir, MasterKey key) {
    CompletableFuture<ProxyState> result = new CompletableFuture<>();
    Thread loader = new Thread(() -> {
      try {
        result.complete(dir.load(key));
      } catch (Throwable t) {
        result.completeExceptionally(t);
      }
    }, "pancake-state-load");
    loader.setDaemon(true);
    loader.start();
    return result;
  }

  /** The loaded state, or the load's own exception (not wrapped). */
  private static ProxyState awaitLoad(CompletableFuture<ProxyState> saved) {
    try {
      return saved.join();
    } catch (CompletionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof RuntimeException) {
        throw (RuntimeException) cause;
      }
      if (cause instanceof Error) {
        throw (Error) cause;
      }
      throw new StateException("loading the proxy state failed: " + cause, cause);
    }
  }

  private static int[] shuffledSlots(int n, RandomGenerator rnd) {
    int[] order = new int[n];
    for (int i = 0; i < n; i++) {
      order[i] = i;
    }
    for (int i = n - 1; i > 0; i--) {
      int j = rnd.nextInt(i + 1);
      int t = order[i];
      order[i] = order[j];
      order[j] = t;
    }
    return order;
  }

  private static Proxy create(PancakeConfig config, StateDirectory dir, MasterKey key, KvStore store, Initial initial,
      boolean eager) {
    int n = initial.capacity;
    RandomGenerator rnd = randomSource(config.seed()).get();
    int[] order = shuffledSlots(n, rnd);
    byte[][] keyOfSlot = new byte[n][];
    double[] estimate = new double[n];
    int bound = 0;
    String source;
    if (initial.inOrder != null) {
      for (byte[] k : initial.listedKeys) {
        keyOfSlot[order[bound++]] = k;
      }
      for (int i = 0; i < n; i++) {
        estimate[order[i]] = initial.inOrder[i];
      }
      source = initial.source;
    } else {
      Arrays.fill(estimate, 1.0 / n);
      source = "none declared: uniform over the " + n + " key slots until the detector learns the workload";
    }
    ReplicaPlan plan = ReplicaPlan.build(estimate, rnd);
    byte[] stateId = new byte[16];
    new SecureRandom().nextBytes(stateId);
    ReplicaCodec codec = new ReplicaCodec(config.keySize(), config.valueSize());
    WriteAheadLog.deleteBefore(dir.path(), Long.MAX_VALUE); // leftovers of an earlier, unfinished state
    Proxy proxy = new Proxy(config, store, dir, key, codec, new Phase.Steady(plan), keyOfSlot, order, bound,
        stateId, 1, initial.inOrder != null ? Estimator.EXACT : Estimator.ASSUMED, source, null, eager);
    proxy.writeInitialReplicas(plan);
    proxy.checkpoint();
    return proxy;
  }

  private static byte[] checkedFileKey(PancakeConfig.Declared declared, PancakeConfig config, String k) {
    byte[] kb = k.getBytes(StandardCharsets.UTF_8);
    if (kb.length > config.keySize()) {
      throw new ValueTooLargeException("a key in the " + declared.source() + " is " + kb.length
          + " bytes, more than pancake.key.size = " + config.keySize());
    }
    return kb;
  }

  private static Proxy reopen(PancakeConfig config, StateDirectory dir, MasterKey key, KvStore store, ProxyState s,
      boolean eager) {
    if (!s.storeDescription().equals(store.describe())) {
      throw new StateException("state " + dir.path() + " belongs to store " + s.storeDescription()
          + ", not to the configured store " + store.describe());
    }
    if (config.capacityExplicit() && config.capacity() != s.capacity()) {
      throw new ConfigException("state " + dir.path() + " was created with pancake.capacity=" + s.capacity()
          + "; the configuration asks for pancake.capacity=" + config.capacity() + " (the capacity is fixed"
          + " when a state is created: leave pancake.capacity unset or set it to " + s.capacity()
          + ", or load the data into a new state and an empty store)");
    }
    if (s.valueSize() != config.valueSize() || s.keySize() != config.keySize()) {
      throw new ConfigException("state " + dir.path() + " was created with pancake.value.size="
          + s.valueSize() + " and pancake.key.size=" + s.keySize() + "; the configuration asks for "
          + config.valueSize() + " and " + config.keySize());
    }
    Phase phase;
    try {
      ReplicaPlan plan = ReplicaPlan.restore(s.estimate(), s.ownerOf(), s.indexOf());
      if (s.transition() != null) {
        ProxyState.TransitionState t = s.transition();
        ReplicaPlan from = ReplicaPlan.restore(t.fromEstimate(), t.fromOwnerOf(), t.fromIndexOf());
        Transition saved = new Transition(from, plan, t.pendingSwaps());
        saved.markDurable(); // it comes from the state file
        phase = saved;
      } else {
        phase = new Phase.Steady(plan);
      }
    } catch (RuntimeException e) {
      throw new StateException("state " + dir.path() + " holds an inconsistent replica plan", e);
    }
    ReplicaCodec codec = new ReplicaCodec(s.keySize(), s.valueSize());
    Recovered r = recover(dir, key, s);
    Proxy proxy = new Proxy(config, store, dir, key, codec, phase, r.keyOfSlot, r.freeOrder, 0, s.stateId(),
        r.nextSequence, s.estimateSamples(), s.estimateSource(), s.keyEpoch(), eager);
    proxy.cache.restore(r.pending, phase.target, proxy.versions.incrementAndGet());
    proxy.checkCanary();
    proxy.freeDeleted(r.deletedSlots);
    if (proxy.estimateSamples != Estimator.ASSUMED) {
      // slots freed after the last checkpoint: their drop from the estimate was not saved
      double[] estimate = phase.target.estimate;
      for (int slot = 0; slot < estimate.length; slot++) {
        if (estimate[slot] > 0 && proxy.keys.keyOf(slot) == null) {
          proxy.freedSlots.add(slot);
        }
      }
    }
    proxy.checkpointedPhase = phase;
    if (!r.logWasEmpty) {
      // make what the log replayed part of a checkpoint, and start a fresh log. With every log
      // file empty the saved state is current, and those files plus the fresh one this proxy
      // writes still replay on top of it (no torn tail can be left behind in an older file):
      // re-sealing a state of several MB would only delay the first request.
      proxy.checkpoint();
    }
    PancakeConfig.Declared declared = config.declaredDistribution();
    if (declared != null) {
      // a declared distribution wins over the saved estimate: swap towards it if it differs
      proxy.warmStartFrom(declared, config);
    }
    return proxy;
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

  /** A state checkpoint with its write-ahead log replayed on top. */
  private static final class Recovered {
    byte[][] keyOfSlot;
    int[] freeOrder;
    List<ProxyState.PendingEntry> pending;
    long nextSequence;
    boolean logWasEmpty;
    int[] deletedSlots;
  }

  private static Recovered recover(StateDirectory dir, MasterKey key, ProxyState s) {
    byte[][] keyOfSlot = s.keyOfSlot().clone();
    Map<Integer, ProxyState.PendingEntry> pending = new LinkedHashMap<>();
    for (ProxyState.PendingEntry e : s.pending()) {
      pending.put(e.keySlot(), e);
    }
    boolean logWasEmpty = WriteAheadLog.isEmpty(dir.path(), s.walSequence());
    java.util.Set<Integer> rebound = new java.util.HashSet<>();
    long last = WriteAheadLog.replay(dir.path(), walKeys(key, s.stateId()), s.walSequence(), rec -> {
      ByteBuffer b = rec.payload();
      int slot = b.getInt();
      if (slot < 0 || slot >= keyOfSlot.length) {
        throw new StateException("write-ahead log names key slot " + slot + ", outside the capacity");
      }
      switch (rec.type()) {
        case WriteAheadLog.BIND: {
          byte[] k = new byte[b.remaining()];
          b.get(k);
          keyOfSlot[slot] = k;
          rebound.add(slot);
          break;
        }
        case WriteAheadLog.WRITE: {
          boolean present = b.get() == 1;
          byte[] v = new byte[b.remaining()];
          b.get(v);
          // no replica is known to hold it: every replica gets it again
          pending.put(slot, new ProxyState.PendingEntry(slot, present ? v : null, new long[0]));
          break;
        }
        case WriteAheadLog.FREE:
          keyOfSlot[slot] = null;
          pending.remove(slot);
          break;
        default:
          throw new StateException("write-ahead log holds an unknown record type " + rec.type());
      }
    });
    Recovered r = new Recovered();
    r.keyOfSlot = keyOfSlot;
    java.util.LinkedHashSet<Integer> free = new java.util.LinkedHashSet<>();
    int[] saved = s.freeOrder();
    for (int i = s.nextFree(); i < saved.length; i++) {
      if (keyOfSlot[saved[i]] == null) {
        free.add(saved[i]);
      }
    }
    for (int slot = 0; slot < keyOfSlot.length; slot++) {
      if (keyOfSlot[slot] == null) {
        free.add(slot); // freed after the checkpoint
      }
    }
    r.freeOrder = free.stream().mapToInt(Integer::intValue).toArray();
    r.pending = new ArrayList<>(pending.values());
    r.nextSequence = Math.max(last, s.walSequence()) + 1;
    r.logWasEmpty = logWasEmpty;
    // a slot rebound or written since the checkpoint is no longer deleted everywhere
    r.deletedSlots = java.util.Arrays.stream(s.deletedSlots())
        .filter(slot -> slot >= 0 && slot < keyOfSlot.length && keyOfSlot[slot] != null && !pending.containsKey(slot)
            && !rebound.contains(slot))
        .toArray();
    if (logWasEmpty) {
      // nothing to keep: without this every read-only session would leave one empty file behind
      WriteAheadLog.deleteBefore(dir.path(), r.nextSequence);
    }
    return r;
  }

  /** Frees the slots a checkpoint saved as deleted everywhere but still in use (no request holds them now). */
  private void freeDeleted(int[] slots) {
    for (int slot : slots) {
      cache.markDeletedEverywhere(slot);
      freeIfUnused(slot);
    }
  }

  private void warmStartFrom(PancakeConfig.Declared declared, PancakeConfig config) {
    Map<String, Double> weights = declared.weights();
    int n = phase.target.keySlots;
    double[] inOrder = DistributionFile.estimate(DistributionFile.weightsInOrder(weights), n);
    double[] estimate = new double[n]; // slots of unlisted keys, and free ones, get none
    int i = 0;
    for (String k : weights.keySet()) {
      int slot = keys.bindQuietly(checkedFileKey(declared, config, k));
      estimate[slot] = inOrder[i++];
    }
    double[] current = phase.target.estimate;
    double distance = 0;
    for (int s = 0; s < n; s++) {
      distance += Math.abs(estimate[s] - current[s]);
    }
    if (distance < 1e-9 && estimateSamples == Estimator.EXACT) {
      return; // the state already holds this estimate
    }
    startTransition(estimate, Estimator.EXACT, declared.source() + " (replicas swapped to it at open)");
  }

  /** Paper Init: every replica slot gets a sealed value; dummies and unbound slots hold none. */
  private void writeInitialReplicas(ReplicaPlan plan) {
    int m = plan.replicaSlots;
    int chunk = 512;
    long started = System.nanoTime();
    int reported = 0;
    List<byte[]> labels = new ArrayList<>(chunk);
    List<byte[]> values = new ArrayList<>(chunk);
    for (int r = 0; r < m; r++) {
      int owner = plan.ownerOf[r];
      byte[] plaintext = owner == ReplicaPlan.DUMMY
          ? codec.encode(ReplicaCodec.DUMMY, r, ReplicaPlan.DUMMY, null, null)
          : codec.encode(ReplicaCodec.ABSENT, r, owner, keys.keyOf(owner), null);
      byte[] label = label(r);
      labels.add(label);
      values.add(aead.encrypt(plaintext, label));
      if (labels.size() == chunk || r == m - 1) {
        store.multiPut(labels, values);
        labels.clear();
        values.clear();
        int percent = (int) ((r + 1L) * 100 / m);
        if (m >= 100_000 && percent / 10 > reported / 10) {
          reported = percent;
          LOG.log(System.Logger.Level.INFO, String.format("initializing %d replicas: %d%% (%.1f s)", m, percent,
              (System.nanoTime() - started) / 1e9));
        }
      }
    }
    byte[] canary = canaryLabel();
    store.put(canary, aead.encrypt(stateId, canary));
  }

  private void checkCanary() {
    byte[] canary = canaryLabel();
    byte[] sealed = store.get(canary);
    if (sealed == null) {
      throw new StateException("store " + storeDescription + " does not hold the data of state "
          + stateDir.path() + " (it is empty or was wiped); load the data again into a fresh state");
    }
    byte[] id;
    try {
      id = aead.decrypt(sealed, canary);
    } catch (IntegrityException e) {
      // the canary's label comes from this state's master key: another key's data would not be
      // there at all, so a canary that fails authentication was tampered with or corrupted (or
      // sealed by another state under the same key file, whose value keys differ)
      throw new IntegrityException("the canary entry of store " + storeDescription + " (which ties it to state "
          + stateDir.path() + ") failed authentication: the store's data was tampered with or corrupted, or it"
          + " was initialized by another PANCAKE state with the same key file (one proxy per store)", e);
    }
    if (!Arrays.equals(id, stateId)) {
      throw new StateException("store " + storeDescription + " was initialized by another PANCAKE state"
          + " than " + stateDir.path());
    }
  }

  byte[] label(int replicaSlot) {
    return label(prf, replicaSlot);
  }

  byte[] canaryLabel() {
    return canaryLabel(prf);
  }

  private static Prf labelPrf(MasterKey key) {
    return new Prf(key.derive("pancake-j label prf v1"), 16);
  }

  private static byte[] label(Prf prf, int replicaSlot) {
    return prf.compute(ByteBuffer.allocate(9).put((byte) 1).putLong(replicaSlot).array());
  }

  private static byte[] canaryLabel(Prf prf) {
    return prf.compute("\u0002pancake-j canary".getBytes(StandardCharsets.US_ASCII));
  }

  /** Snapshot of everything; the caller holds the phase write lock. */
  private ProxyState snapshotLocked() {
    Phase p = phase;
    ReplicaPlan plan = p.target;
    ProxyState.TransitionState t = null;
    if (p instanceof Transition tr) {
      t = new ProxyState.TransitionState(tr.from.estimate, tr.from.ownerOf, tr.from.indexOf, tr.pendingSlots());
    }
    return new ProxyState(storeDescription, stateId, plan.keySlots, codec.valueSize, codec.keySize,
        plan.estimate, plan.ownerOf, plan.indexOf, keys.snapshotKeys(), keys.freeOrder(), 0,
        cache.snapshot(), t, 0, cache.deletedSlots(), estimateSamples, estimateSource, keyEpochSnapshot());
  }

  /** The value key's epoch and reserved count, for the state file (the epoch file is the authority). */
  private ProxyState.KeyEpoch keyEpochSnapshot() {
    long[] e = aead.snapshot();
    return new ProxyState.KeyEpoch((int) e[0], e[1]);
  }

  /**
   * Persists the proxy state now (also done at close and on a fixed schedule). Ticks are held off
   * only while the snapshot is copied and a new log file opened; forcing the old file, sealing and
   * saving the snapshot and deleting older log files run outside the phase lock. A crash in
   * between leaves the previous checkpoint and every log file since, which replay together.
   * Records the log writer appends while the lock is held belong to values already in the
   * snapshot, so replaying them on top of it (from either file) changes nothing.
   */
  public void checkpoint() {
    checkpointLock.lock();
    try {
      long seq;
      ProxyState snap;
      Phase at;
      List<LogTicket> unsettled;
      long stamp = phaseLock.writeLock();
      try {
        snap = snapshotLocked();
        unsettled = cache.unsettledTickets();
        seq = wal.rotate(); // records from here on go to the new file, replayed on top of the snapshot
        at = phase;
      } finally {
        phaseLock.unlockWrite(stamp);
      }
      checkpointedPhase = null; // until the save succeeds: a failed checkpoint is retried at close
      // the snapshot holds values the log writer may still be appending to the old file: save it
      // only once they are in the log (the old file is deleted after the save), never if one failed
      for (LogTicket t : unsettled) {
        if (!t.awaitSettled(java.util.concurrent.TimeUnit.SECONDS.toNanos(30))) {
          throw new StateException("checkpoint not saved: a write in it did not reach the write-ahead log"
              + (log.failure() == null ? " in time" : " (" + log.failure().getMessage() + ")"));
        }
      }
      wal.closeRetired();
      stateDir.save(snap.withWalSequence(seq), masterKey);
      WriteAheadLog.deleteBefore(stateDir.path(), seq);
      checkpointedPhase = at;
      checkpoints.increment();
      if (at instanceof Transition t) {
        t.markDurable();
      }
    } finally {
      checkpointLock.unlock();
    }
  }

  /**
   * Checkpoints at close unless the saved state is still current: the log is on and empty (no
   * write, bind or free since the last checkpoint) and the phase is the steady one that checkpoint
   * saved (a transition's swap progress is always saved). What it leaves unsaved is bookkeeping a
   * reopen redoes: which replicas already hold an UpdateCache value (they are written again).
   */
  private void checkpointUnlessCurrent() {
    if (wal.sync() == WriteAheadLog.Sync.OFF || wal.size() > 0 || phase != checkpointedPhase
        || !(phase instanceof Phase.Steady)) {
      checkpoint();
    }
  }

  /**
   * Checkpoints every {@code pancake.checkpoint.interval}, whether or not anything was written: the
   * short pause of a snapshot then falls on a schedule that says nothing about the requests.
   */
  private void checkpointLoop() {
    long next = System.nanoTime() + checkpointNanos;
    while (open.get()) {
      long wait = next - System.nanoTime();
      if (wait > 0 && !checkpointSoon) {
        java.util.concurrent.locks.LockSupport.parkNanos(wait);
        continue;
      }
      if (wait <= 0) {
        next += checkpointNanos;
      }
      checkpointSoon = false;
      try {
        checkpoint();
      } catch (RuntimeException e) {
        // the log still holds everything; the next attempt or close retries
        LOG.log(System.Logger.Level.WARNING, "checkpoint failed (retried on schedule and at close): "
            + e.getMessage());
      }
    }
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
      } finally {
        runner.close(); // the last answers given
      }
      log.close();
      java.util.concurrent.locks.LockSupport.unpark(checkpointer);
      join(checkpointer);
      checkpointUnlessCurrent();
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

  private static void join(Thread t) {
    try {
      t.join(java.util.concurrent.TimeUnit.SECONDS.toMillis(30));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
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

  private void freeIfUnused(int slot) {
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
  private final ConcurrentLinkedQueue<Integer> freedSlots = new ConcurrentLinkedQueue<>();
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
      checkpointSoon = true;
      java.util.concurrent.locks.LockSupport.unpark(checkpointer);
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
