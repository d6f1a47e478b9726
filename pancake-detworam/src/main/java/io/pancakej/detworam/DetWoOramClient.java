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
import io.pancakej.PancakeConfig;
import io.pancakej.StateException;
import io.pancakej.StoreException;
import io.pancakej.ValueTooLargeException;
import io.pancakej.crypto.Aead;
import io.pancakej.crypto.KeyPurposes;
import io.pancakej.crypto.MasterKey;
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
  public static final String STATE_DIR_PROPERTY = PancakeConfig.STATE_DIR_PROPERTY;
  public static final String DEFAULT_STATE_DIR = "data/detworam-state";
  /** "false": a missing state is an error instead of initializing a new store. */
  public static final String CREATE_PROPERTY = PancakeConfig.CREATE_PROPERTY;
  /** Number of logical blocks N; defaults to YCSB's recordcount + insertcount. */
  public static final String CAPACITY_PROPERTY = PancakeConfig.CAPACITY_PROPERTY;
  /** Number of holding slots M; default N. */
  public static final String HOLDING_PROPERTY = "pancake.detworam.holding";
  public static final String VALUE_SIZE_PROPERTY = PancakeConfig.VALUE_SIZE_PROPERTY;
  public static final int DEFAULT_VALUE_SIZE = PancakeConfig.DEFAULT_VALUE_SIZE;
  public static final String KEY_SIZE_PROPERTY = PancakeConfig.KEY_SIZE_PROPERTY;
  public static final int DEFAULT_KEY_SIZE = PancakeConfig.DEFAULT_KEY_SIZE;
  /** Master key file; defaults to {@code master.key} in the state directory. */
  public static final String KEY_FILE_PROPERTY = PancakeConfig.KEY_FILE_PROPERTY;
  /** Largest N and M. */
  public static final int MAX_CAPACITY = 1 << 28;

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
  private final int keySize;
  private final int valueSize;
  private final long checkpointEvery;
  private long reads;
  private long savedAt;

  private DetWoOramClient(Builder b, KvStore store) {
    this.store = store;
    this.storeName = store.describe();
    this.stateDir = b.stateDir;
    Path stateFile = StateFile.file(b.stateDir);
    boolean exists = Files.exists(stateFile);
    if (!exists) {
      checkCanCreate(b, store); // before a key file is created
    }
    MasterKey master = b.masterKey;
    if (master == null) {
      Path keyFile = b.keyFile != null ? b.keyFile : b.stateDir.resolve("master.key");
      if (exists && !Files.exists(keyFile)) {
        throw new StateException("DetWoORAM state " + stateFile + " exists but its master key file "
            + keyFile + " is missing");
      }
      master = MasterKey.loadOrCreate(keyFile);
    }
    Aead blockAead = new Aead(master.derive(KeyPurposes.DETWORAM_BLOCKS));
    Labels labels = new Labels(master.derive(KeyPurposes.DETWORAM_LABELS));
    this.stateAead = new Aead(master.derive(KeyPurposes.DETWORAM_STATE));
    if (exists) {
      StateFile.Snapshot s = StateFile.read(b.stateDir, stateAead);
      if (!s.store().equals(storeName)) {
        throw new StateException("DetWoORAM state in " + b.stateDir + " belongs to store '" + s.store()
            + "' but this client opened store '" + storeName + "'; point " + STATE_DIR_PROPERTY
            + " at this store's state, or load this store into a fresh state directory");
      }
      checkSame(VALUE_SIZE_PROPERTY, b.valueSize, s.valueSize());
      checkSame(KEY_SIZE_PROPERTY, b.keySize, s.keySize());
      checkSame(CAPACITY_PROPERTY, b.capacityExplicit ? b.capacity : null, s.map().capacity);
      checkSame(HOLDING_PROPERTY, b.holding, s.holdingSlots());
      this.keySize = s.keySize();
      this.valueSize = s.valueSize();
      this.map = s.map();
      this.schedule = new Schedule(map.capacity, s.holdingSlots());
      this.reads = s.reads();
      this.savedAt = s.steps();
      this.engine = new Engine(store, schedule, labels, new BlockCodec(blockAead, keySize, valueSize), map,
          s.steps(), s.pendingLabels(), s.pendingValues());
      this.checkpointEvery = Math.max(1, schedule.holdingSlots / 2);
      engine.flushPending();
      long replayed = engine.replay(stateDir);
      if (replayed > 0) {
        LOG.log(System.Logger.Level.INFO, "detworam: replayed {0} writes the store held beyond the saved state",
            replayed);
        saveState();
      }
    } else {
      this.keySize = b.keySize != null ? b.keySize : DEFAULT_KEY_SIZE;
      this.valueSize = b.valueSize != null ? b.valueSize : DEFAULT_VALUE_SIZE;
      int holding = b.holding != null ? b.holding : b.capacity;
      this.schedule = new Schedule(b.capacity, holding);
      this.map = new PositionMap(b.capacity, holding);
      this.engine = new Engine(store, schedule, labels, new BlockCodec(blockAead, keySize, valueSize), map, 0,
          List.of(), List.of());
      this.checkpointEvery = Math.max(1, holding / 2);
      engine.initialize();
      saveState();
    }
  }

  /**
   * A new DetWoORAM needs a capacity and an empty store: initializing it writes every block over
   * whatever the store holds, which may be the data of a state whose state file was lost, or
   * another proxy's (one proxy per store). Such a store is refused, never overwritten.
   */
  private static void checkCanCreate(Builder b, KvStore store) {
    if (!b.createIfMissing) {
      throw new StateException("no DetWoORAM state in " + b.stateDir + " (" + CREATE_PROPERTY
          + "=false): run the load phase first, or point " + STATE_DIR_PROPERTY + " at its state");
    }
    if (b.capacity == null) {
      throw new ConfigException("a new DetWoORAM needs a capacity: set " + CAPACITY_PROPERTY
          + " (or YCSB's recordcount)");
    }
    if (!store.isEmpty()) {
      String desc = store.describe();
      String count = store.storage().filter(s -> s.entries() > 0)
          .map(s -> ", it holds " + (desc.startsWith("rocksdb:") ? "about " : "") + s.entries() + " entries")
          .orElse("");
      Path dir = b.stateDir.toAbsolutePath().normalize();
      throw new StateException("cannot create a DetWoORAM state in " + dir + " over store " + desc
          + ": the store is not empty" + count + ". Nothing was written. A new DetWoORAM needs an empty store: one"
          + " proxy per store. To go on, either restore the state directory that belongs to this store ("
          + StateFile.file(dir).getFileName() + ", with the same master key) into " + dir + ", or, if its"
          + " data is not needed, " + Stores.howToEmpty(desc) + " and open again, or configure another store");
    }
  }

  private static void checkSame(String property, Integer configured, int stored) {
    if (configured != null && configured != stored) {
      throw new StateException("the DetWoORAM state was created with " + property + "=" + stored
          + " but " + configured + " is configured; the store's layout cannot change after load");
    }
  }

  /** A builder; {@link Builder#store} is required. */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Opens a client from properties: {@value #STATE_DIR_PROPERTY}, {@value #CREATE_PROPERTY},
   * {@value #CAPACITY_PROPERTY} (default YCSB {@code recordcount + insertcount}),
   * {@value #HOLDING_PROPERTY}, {@value #VALUE_SIZE_PROPERTY}, {@value #KEY_SIZE_PROPERTY},
   * {@value #KEY_FILE_PROPERTY}; the store comes from {@link Stores#open(Properties)}.
   */
  public static DetWoOramClient open(Properties props) {
    Builder b = builder();
    b.stateDir(Path.of(props.getProperty(STATE_DIR_PROPERTY, DEFAULT_STATE_DIR).trim()));
    b.createIfMissing(Stores.booleanProperty(props, CREATE_PROPERTY, true));
    String cap = props.getProperty(CAPACITY_PROPERTY);
    if (cap != null && !cap.isBlank()) {
      b.capacity(Stores.intProperty(props, CAPACITY_PROPERTY, 0));
    } else if (props.getProperty(PancakeConfig.YCSB_RECORD_COUNT) != null) {
      long n = (long) Stores.intProperty(props, PancakeConfig.YCSB_RECORD_COUNT, 0)
          + Stores.intProperty(props, PancakeConfig.YCSB_INSERT_COUNT, 0);
      b.capacity((int) Math.min(MAX_CAPACITY, Math.max(1, n)));
      b.capacityExplicit = false; // sizes a new store only; a loaded state keeps its own
    }
    String holding = props.getProperty(HOLDING_PROPERTY);
    if (holding != null && !holding.isBlank()) {
      b.holding(Stores.intProperty(props, HOLDING_PROPERTY, 0));
    }
    if (props.getProperty(VALUE_SIZE_PROPERTY) != null) {
      b.valueSize(Stores.intProperty(props, VALUE_SIZE_PROPERTY, DEFAULT_VALUE_SIZE));
    }
    if (props.getProperty(KEY_SIZE_PROPERTY) != null) {
      b.keySize(Stores.intProperty(props, KEY_SIZE_PROPERTY, DEFAULT_KEY_SIZE));
    }
    String keyFile = props.getProperty(KEY_FILE_PROPERTY);
    if (keyFile != null && !keyFile.isBlank()) {
      b.keyFile(Path.of(keyFile.trim()));
    }
    return b.store(Stores.open(props)).build();
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
    if (key == null || key.length == 0) {
      throw new IllegalArgumentException("key must be non-empty");
    }
    if (key.length > keySize) {
      throw new ValueTooLargeException("key of " + key.length + " bytes exceeds " + KEY_SIZE_PROPERTY
          + "=" + keySize + " (fixed when the DetWoORAM was loaded)");
    }
  }

  private void checkValue(byte[] value) {
    if (value == null) {
      throw new IllegalArgumentException("value must not be null");
    }
    if (value.length > valueSize) {
      throw new ValueTooLargeException("value of " + value.length + " bytes exceeds " + VALUE_SIZE_PROPERTY
          + "=" + valueSize + " (fixed when the DetWoORAM was loaded)");
    }
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
    StateFile.write(stateDir, stateAead, new StateFile.Snapshot(schedule.holdingSlots, valueSize, keySize,
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

  /** Builder with fail-fast checks; {@link #build()} opens the client, which then owns the store. */
  public static final class Builder {
    private KvStore store;
    private Path stateDir = Path.of(DEFAULT_STATE_DIR);
    private boolean createIfMissing = true;
    private Integer capacity;
    private boolean capacityExplicit;
    private Integer holding;
    private Integer valueSize;
    private Integer keySize;
    private Path keyFile;
    private MasterKey masterKey;

    private Builder() {}

    /** The store to use; the client takes ownership and closes it (also when opening fails). */
    public Builder store(KvStore store) {
      this.store = Objects.requireNonNull(store, "store");
      return this;
    }

    public Builder stateDir(Path dir) {
      this.stateDir = Objects.requireNonNull(dir, STATE_DIR_PROPERTY);
      return this;
    }

    public Builder createIfMissing(boolean create) {
      this.createIfMissing = create;
      return this;
    }

    /** Logical blocks N for a new store (an existing state keeps its own; a different value is refused). */
    public Builder capacity(int n) {
      if (n < 1 || n > MAX_CAPACITY) {
        throw new ConfigException(CAPACITY_PROPERTY + " must be between 1 and 2^28, got " + n);
      }
      this.capacity = n;
      this.capacityExplicit = true;
      return this;
    }

    /** Holding slots M for a new store; default N. Each write refreshes ceil(N/M) main blocks. */
    public Builder holding(int m) {
      if (m < 1 || m > MAX_CAPACITY) {
        throw new ConfigException(HOLDING_PROPERTY + " must be between 1 and 2^28, got " + m);
      }
      this.holding = m;
      return this;
    }

    public Builder valueSize(int bytes) {
      if (bytes < 1 || bytes > (16 << 20)) {
        throw new ConfigException(VALUE_SIZE_PROPERTY + " must be between 1 and 16 MiB, got " + bytes);
      }
      this.valueSize = bytes;
      return this;
    }

    public Builder keySize(int bytes) {
      if (bytes < 1 || bytes > 65535) {
        throw new ConfigException(KEY_SIZE_PROPERTY + " must be between 1 and 65535, got " + bytes);
      }
      this.keySize = bytes;
      return this;
    }

    /** Master key file (created if missing); default {@code master.key} in the state directory. */
    public Builder keyFile(Path file) {
      this.keyFile = Objects.requireNonNull(file, KEY_FILE_PROPERTY);
      return this;
    }

    /** Use this master key instead of a key file. */
    public Builder masterKey(MasterKey key) {
      this.masterKey = Objects.requireNonNull(key, "masterKey");
      return this;
    }

    /** Opens the state (or initializes a new store) and returns the client. */
    public DetWoOramClient build() {
      if (store == null) {
        throw new ConfigException("a DetWoORAM client needs a store: call store(...) or use open(Properties)");
      }
      try {
        return new DetWoOramClient(this, store);
      } catch (RuntimeException e) {
        try {
          store.close();
        } catch (RuntimeException suppressed) {
          e.addSuppressed(suppressed);
        }
        throw e;
      }
    }
  }
}
