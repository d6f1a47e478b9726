package io.pancakej.detworam;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.UnaryOperator;

import io.pancakej.CapacityException;
import io.pancakej.ConfigException;
import io.pancakej.KvClient;
import io.pancakej.StoreException;
import io.pancakej.config.Limits;
import io.pancakej.config.PropertyReader;
import io.pancakej.crypto.Aead;
import io.pancakej.crypto.KeyPurposes;
import io.pancakej.crypto.MasterKey;
import io.pancakej.scheme.SchemeBuilder;
import io.pancakej.scheme.SchemeSettings;
import io.pancakej.store.KvStore;
import io.pancakej.store.Stores;

/**
 * A DetWoORAM client (Roche et al., CCS 2017) on a {@link KvStore}: the write-only oblivious
 * baseline next to PANCAKE and Path ORAM. The store holds N main blocks (one per logical block,
 * N = capacity) and M holding slots, each one store entry sealed with AES-GCM (label as
 * associated data, fresh nonce on every write, one fixed size). The key binding and the position
 * map stay in this process; the write step, reads and replay are in the package-private {@code Engine}.
 *
 * <p><b>Writes are oblivious, reads are not.</b> Every put, update and delete of a present key is
 * one logical write: one multi-get of the k = ceil(N/M) refresh sources (plus, for an update, the
 * block's newest copy), then one multi-put of 1 + k blocks: the new block into holding slot
 * {@code s mod M} and main blocks {@code (s*k + j) mod N} refreshed with their newest versions,
 * s being the write counter. The positions written depend on the counter only. A get reads the
 * one block the position map names, so the store sees which positions are read and how often.
 * An operation on an absent key reads one uniformly random main block and writes nothing, so a
 * get looks the same whether or not its key exists. See docs/detworam.md.
 *
 * <p><b>Thread safety.</b> One lock serializes all operations (as in Path ORAM): a write moves
 * the shared write counter and position map. Concurrent callers are safe and linearizable.
 *
 * <p><b>Failures.</b> The position map moves on before the multi-put is sent; if the multi-put
 * fails, the write has taken effect at the proxy, and its blocks are sent again before any other
 * operation touches the store (every operation throws {@link StoreException} until that
 * succeeds; a close that cannot send them keeps them in the state file). A failed multi-get
 * changes nothing. State is saved at creation, every max(1, M/2) writes and at {@link #close()};
 * after a crash, opening replays the writes the store holds beyond the saved state (each holding
 * block names its block, key and write step), so nothing acknowledged is lost.
 */
public final class DetWoOramClient implements KvClient {
  /** Directory of the client state and (by default) the master key file. */
  public static final String STATE_DIR_PROPERTY = SchemeBuilder.STATE_DIR_PROPERTY;
  public static final String DEFAULT_STATE_DIR = "data/detworam-state";
  /** "false": a missing state is an error instead of initializing a new store. */
  public static final String CREATE_PROPERTY = SchemeBuilder.CREATE_PROPERTY;
  /** Number of logical blocks N; defaults to YCSB's recordcount + insertcount. */
  public static final String CAPACITY_PROPERTY = SchemeBuilder.CAPACITY_PROPERTY;
  /** Number of holding slots M; default N. */
  public static final String HOLDING_PROPERTY = "pancake.detworam.holding";
  public static final String VALUE_SIZE_PROPERTY = Limits.VALUE_SIZE_PROPERTY;
  public static final int DEFAULT_VALUE_SIZE = Limits.DEFAULT_VALUE_SIZE;
  public static final String KEY_SIZE_PROPERTY = Limits.KEY_SIZE_PROPERTY;
  public static final int DEFAULT_KEY_SIZE = Limits.DEFAULT_KEY_SIZE;
  /** Master key file; defaults to {@code master.key} in the state directory. */
  public static final String KEY_FILE_PROPERTY = SchemeBuilder.KEY_FILE_PROPERTY;
  /** Largest N and M. */
  public static final int MAX_CAPACITY = 1 << 28;
  /** Ends the message of a refused key or value. */
  private static final String LIMITS_HINT = "fixed when the DetWoORAM was loaded";

  private static final System.Logger LOG = System.getLogger(DetWoOramClient.class.getName());

  private final ReentrantLock lock = new ReentrantLock();
  private final AtomicBoolean open = new AtomicBoolean(true);
  private final KvStore store;
  private final String storeName;
  private final Path stateDir;
  private final Aead stateAead;
  private final Schedule schedule;
  private final PositionMap map;
  private final Engine engine;
  private final Limits limits;
  private final long checkpointEvery;
  private long reads;
  private long savedAt;

  private DetWoOramClient(Builder b, SchemeSettings settings) {
    this.store = settings.store();
    this.storeName = store.describe();
    this.stateDir = settings.stateDir();
    Path stateFile = StateFile.file(stateDir);
    boolean exists = Files.exists(stateFile);
    // a new store writes every block over what the store holds: refused unless it is empty, before a key file is created
    Integer newCapacity = exists ? null : settings.checkCanCreate(stateFile);
    MasterKey master = settings.masterKey(b.masterKey, stateFile, exists);
    Aead blockAead = new Aead(master.derive(KeyPurposes.DETWORAM_BLOCKS));
    Labels labels = new Labels(master.derive(KeyPurposes.DETWORAM_LABELS));
    this.stateAead = new Aead(master.derive(KeyPurposes.DETWORAM_STATE));
    if (exists) {
      StateFile.Snapshot s = StateFile.read(stateDir, stateAead);
      settings.checkStore(s.store());
      settings.checkSame(VALUE_SIZE_PROPERTY, settings.valueSize(), s.valueSize());
      settings.checkSame(KEY_SIZE_PROPERTY, settings.keySize(), s.keySize());
      settings.checkSame(CAPACITY_PROPERTY, settings.explicitCapacity(), s.map().capacity);
      settings.checkSame(HOLDING_PROPERTY, b.holding, s.holdingSlots());
      this.limits = new Limits(s.keySize(), s.valueSize(), LIMITS_HINT);
      this.map = s.map();
      this.schedule = new Schedule(map.capacity, s.holdingSlots());
      this.reads = s.reads();
      this.savedAt = s.steps();
      this.engine = new Engine(store, schedule, labels, codec(blockAead), map, s.steps(), s.pendingLabels(),
          s.pendingValues());
      this.checkpointEvery = Math.max(1, schedule.holdingSlots / 2);
      engine.flushPending();
      long replayed = engine.replay(stateDir);
      if (replayed > 0) {
        LOG.log(System.Logger.Level.INFO, "detworam: replayed {0} writes the store held beyond the saved state",
            replayed);
        saveState();
      }
    } else {
      this.limits = new Limits(settings.keySizeOr(DEFAULT_KEY_SIZE), settings.valueSizeOr(DEFAULT_VALUE_SIZE),
          LIMITS_HINT);
      int holding = b.holding != null ? b.holding : newCapacity;
      this.schedule = new Schedule(newCapacity, holding);
      this.map = new PositionMap(newCapacity, holding);
      this.engine = new Engine(store, schedule, labels, codec(blockAead), map, 0, List.of(), List.of());
      this.checkpointEvery = Math.max(1, holding / 2);
      engine.initialize();
      saveState();
    }
  }

  private BlockCodec codec(Aead blockAead) {
    return new BlockCodec(blockAead, limits.keySize(), limits.valueSize());
  }

  /** A builder; {@link Builder#store} is required. */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Opens a client from properties: {@value #STATE_DIR_PROPERTY}, {@value #CREATE_PROPERTY},
   * {@value #CAPACITY_PROPERTY} (default YCSB {@code recordcount + insertcount}),
   * {@value #HOLDING_PROPERTY}, {@value #VALUE_SIZE_PROPERTY}, {@value #KEY_SIZE_PROPERTY},
   * {@value #KEY_FILE_PROPERTY}; the store comes from {@link Stores#open(Properties, Path, boolean)}, which
   * refuses a {@code memory} store under a state an earlier process left.
   */
  public static DetWoOramClient open(Properties props) {
    return Builder.fromProperties(props).build();
  }

  // ---------------------------------------------------------------- operations

  @Override
  public Optional<byte[]> get(byte[] key) {
    checkKey(key);
    lock.lock();
    try {
      ready();
      int id = map.idOf(key);
      if (id < 0) {
        engine.readRandomMainBlock();
        return Optional.empty();
      }
      byte[] value = engine.read(id);
      reads++;
      return Optional.of(value);
    } finally {
      lock.unlock();
    }
  }

  @Override
  public void put(byte[] key, byte[] value) {
    checkKey(key);
    checkValue(value);
    byte[] copy = value.clone();
    lock.lock();
    try {
      ready();
      int id = map.idOf(key);
      if (id < 0) {
        if (!map.hasFreeId()) {
          throw new CapacityException("DetWoORAM is full: all " + map.capacity + " blocks (" + CAPACITY_PROPERTY
              + ") are bound to keys; reload with a larger capacity");
        }
        id = map.nextFreeId();
      }
      write(id, key, false, current -> copy);
    } finally {
      lock.unlock();
    }
  }

  @Override
  public boolean update(byte[] key, UnaryOperator<byte[]> merge) {
    checkKey(key);
    Objects.requireNonNull(merge, "merge");
    lock.lock();
    try {
      ready();
      int id = map.idOf(key);
      if (id < 0) {
        engine.readRandomMainBlock();
        return false;
      }
      write(id, key, true, current -> {
        byte[] next = merge.apply(current.clone());
        if (next == null) {
          throw new IllegalArgumentException("merge must not return null");
        }
        checkValue(next);
        return next.clone();
      });
      return true;
    } finally {
      lock.unlock();
    }
  }

  @Override
  public boolean delete(byte[] key) {
    checkKey(key);
    lock.lock();
    try {
      ready();
      int id = map.idOf(key);
      if (id < 0) {
        engine.readRandomMainBlock();
        return false;
      }
      write(id, key, false, current -> null);
      return true;
    } finally {
      lock.unlock();
    }
  }

  private void checkKey(byte[] key) {
    limits.checkKey(key);
  }

  private void checkValue(byte[] value) {
    limits.checkValue(value);
  }

  /** Under the lock: the client is open and the store has every write the position map knows. */
  private void ready() {
    if (!open.get()) {
      throw new IllegalStateException("DetWoORAM client is closed");
    }
    engine.flushPending();
  }

  /** One logical write (see {@link Engine#write}), then a state checkpoint every max(1, M/2) writes. */
  private void write(int id, byte[] key, boolean readCurrent, UnaryOperator<byte[]> next) {
    engine.write(id, key, readCurrent, next);
    if (engine.steps() - savedAt >= checkpointEvery) {
      saveState();
    }
  }

  // ---------------------------------------------------------------- stats, state, close

  /**
   * Counters of this client (since the store was created, across reopens): logical writes (the
   * write counter), gets that read a block, N, M, k and the keys bound.
   */
  public record Stats(long writes, long reads, int capacity, int holdingSlots, int refreshesPerWrite, int keys) {
    /** Physical blocks written per logical write: one holding slot and k main blocks. */
    public int blocksPerWrite() {
      return 1 + refreshesPerWrite;
    }
  }

  /** A snapshot of the counters. */
  public Stats stats() {
    lock.lock();
    try {
      return new Stats(engine.steps(), reads, map.capacity, schedule.holdingSlots, schedule.refreshesPerWrite, map.size());
    } finally {
      lock.unlock();
    }
  }

  /**
   * The experimenter's ground truth for the transcript audit, never the adversary's view: every
   * data label of the store in {@code stateDir} (N main blocks, then M holding slots) and, per the
   * saved state, the key each belongs to: a main block to the key bound to it (its home, where
   * its reads go once refreshed), a holding slot to the key whose newest copy it holds (null for
   * none).
   */
  public record LabelOwners(List<byte[]> labels, List<byte[]> keys) {}

  /** Reads the saved state of {@code stateDir} (the client must be closed) with {@code masterKey}. */
  public static LabelOwners labelOwners(Path stateDir, MasterKey masterKey) {
    StateFile.Snapshot s = StateFile.read(stateDir, new Aead(masterKey.derive(KeyPurposes.DETWORAM_STATE)));
    Labels labels = new Labels(masterKey.derive(KeyPurposes.DETWORAM_LABELS));
    PositionMap m = s.map();
    List<byte[]> all = new ArrayList<>(m.capacity + s.holdingSlots());
    List<byte[]> keys = new ArrayList<>(m.capacity + s.holdingSlots());
    for (int i = 0; i < m.capacity; i++) {
      all.add(labels.main(i));
      keys.add(m.keyOf[i]);
    }
    for (int h = 0; h < s.holdingSlots(); h++) {
      all.add(labels.holding(h));
      int id = m.holder[h];
      keys.add(id == PositionMap.NONE ? null : m.keyOf[id]);
    }
    return new LabelOwners(Collections.unmodifiableList(all), Collections.unmodifiableList(keys));
  }

  private void saveState() {
    StateFile.write(stateDir, stateAead, new StateFile.Snapshot(schedule.holdingSlots, limits.valueSize(), limits.keySize(),
        storeName, engine.steps(), reads, map, engine.pendingLabels(), engine.pendingValues()));
    savedAt = engine.steps();
  }

  /**
   * Sends a pending write if there is one (kept in the state file if that fails), writes the
   * state file atomically and closes the store. Idempotent.
   */
  @Override
  public void close() {
    if (open.compareAndSet(true, false)) {
      lock.lock();
      try {
        try {
          engine.flushPending();
        } catch (StoreException e) {
          LOG.log(System.Logger.Level.WARNING, "detworam: a failed write is kept in the state file: " + e.getMessage());
        }
        saveState();
      } finally {
        lock.unlock();
        store.close();
      }
    }
  }

  @Override
  public String toString() {
    return "DetWoOramClient[store=" + storeName + ", N=" + schedule.mainBlocks + ", M=" + schedule.holdingSlots
        + ", k=" + schedule.refreshesPerWrite + "]";
  }

  /**
   * Builder with fail-fast checks; {@link #build()} opens the client, which then owns the store.
   * The settings every scheme shares (state directory, capacity up to 2^28, key and value sizes,
   * key file, store) are inherited from {@link SchemeBuilder}.
   */
  public static final class Builder extends SchemeBuilder<Builder> {
    private Integer holding;
    private MasterKey masterKey;

    private Builder() {
      super("DetWoORAM", DEFAULT_STATE_DIR, Integer.numberOfTrailingZeros(MAX_CAPACITY));
    }

    /** Holding slots M for a new store; default N. Each write refreshes ceil(N/M) main blocks. */
    public Builder holding(int m) {
      if (m < 1 || m > MAX_CAPACITY) {
        throw new ConfigException(HOLDING_PROPERTY + " must be between 1 and 2^28, got " + m);
      }
      this.holding = m;
      return this;
    }

    /** Use this master key instead of a key file. */
    public Builder masterKey(MasterKey key) {
      this.masterKey = Objects.requireNonNull(key, "masterKey");
      return this;
    }

    /** The shared properties, then {@value #HOLDING_PROPERTY}. */
    @Override
    protected Builder readProperties(Properties props) {
      super.readProperties(props);
      if (PropertyReader.isSet(props, HOLDING_PROPERTY)) {
        holding(PropertyReader.intValue(props, HOLDING_PROPERTY, 0));
      }
      return this;
    }

    /**
     * What the properties say, on the store they name (a memory store is refused under a state an
     * earlier process left: its blocks went with that process).
     */
    static Builder fromProperties(Properties props) {
      return builder().readProperties(props).storeFromProperties(props, dir -> Files.exists(StateFile.file(dir)));
    }

    /** Opens the state (or initializes a new store) and returns the client. */
    public DetWoOramClient build() {
      return open(settings -> new DetWoOramClient(this, settings));
    }
  }
}
