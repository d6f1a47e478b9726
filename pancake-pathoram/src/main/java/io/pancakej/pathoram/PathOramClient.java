package io.pancakej.pathoram;

import java.lang.System.Logger.Level;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.UnaryOperator;

import io.pancakej.CapacityException;
import io.pancakej.ConfigException;
import io.pancakej.IntegrityException;
import io.pancakej.KvClient;
import io.pancakej.PancakeConfig;
import io.pancakej.StateException;
import io.pancakej.ValueTooLargeException;
import io.pancakej.crypto.Aead;
import io.pancakej.crypto.KeyPurposes;
import io.pancakej.crypto.MasterKey;
import io.pancakej.store.KvStore;
import io.pancakej.store.Stores;

/**
 * A non-recursive Path ORAM client (Stefanov et al., CCS 2013) on a {@link KvStore}: the
 * strong-security baseline next to PANCAKE. The store holds a binary tree of 2^L leaves and
 * 2^(L+1)-1 buckets of Z = 4 blocks, L = ceil(log2(capacity)); each bucket is one store entry,
 * sealed with AES-GCM (bucket label as associated data, fresh nonce on every write, one fixed
 * size). The position map and the stash stay in this process.
 *
 * <p>Every operation -- get, put, update or delete, of a present or an absent key -- is one
 * access that the store cannot tell apart from any other: one multi-get of the L+1 buckets on
 * the path to the block's current leaf (a fresh random leaf for an absent key), then one
 * multi-put of the same L+1 buckets, re-encrypted, after the block has been remapped to a new
 * uniformly random leaf and the stash greedily evicted deepest-first onto the path.
 *
 * <p><b>Thread safety.</b> One lock serializes all accesses: an access rewrites the path it read
 * and moves blocks through the shared stash, so two concurrent accesses on overlapping paths
 * would lose blocks. Throughput is therefore one access at a time, which is what a
 * single-client Path ORAM is; concurrent callers are safe and none of their updates is lost.
 *
 * <p><b>Failures.</b> A block leaves the stash only after the multi-put that carries it has
 * succeeded, and every block copy carries a version that the client bumps on each access, so a
 * failed or partial write never loses a block or resurrects a stale one. A stash that exceeds
 * its bound after eviction raises {@link CapacityException} ("Path ORAM stash overflow"); the
 * operation itself has taken effect and nothing is lost. State is persisted at {@link #close()}.
 */
public final class PathOramClient implements KvClient {
  /** Directory of the client state and (by default) the master key file. */
  public static final String STATE_DIR_PROPERTY = PancakeConfig.STATE_DIR_PROPERTY;
  public static final String DEFAULT_STATE_DIR = "data/pathoram-state";
  /** "false": a missing state is an error instead of initializing a new tree. */
  public static final String CREATE_PROPERTY = PancakeConfig.CREATE_PROPERTY;
  /** Number of blocks N; defaults to YCSB's recordcount + insertcount. */
  public static final String CAPACITY_PROPERTY = PancakeConfig.CAPACITY_PROPERTY;
  public static final String VALUE_SIZE_PROPERTY = PancakeConfig.VALUE_SIZE_PROPERTY;
  public static final int DEFAULT_VALUE_SIZE = PancakeConfig.DEFAULT_VALUE_SIZE;
  public static final String KEY_SIZE_PROPERTY = PancakeConfig.KEY_SIZE_PROPERTY;
  public static final int DEFAULT_KEY_SIZE = PancakeConfig.DEFAULT_KEY_SIZE;
  /** Master key file; defaults to {@code master.key} in the state directory. */
  public static final String KEY_FILE_PROPERTY = PancakeConfig.KEY_FILE_PROPERTY;
  /** Most blocks the stash may hold after an access's eviction. */
  public static final String STASH_MAX_PROPERTY = "pancake.pathoram.stash.max";
  public static final int DEFAULT_STASH_MAX = 150;
  /** Seed for leaf choices: tests and reproducible experiments only (insecure). */
  public static final String SEED_PROPERTY = PancakeConfig.SEED_PROPERTY;

  /** Buckets per multi-put while initializing the tree. */
  private static final int INIT_CHUNK = 512;
  /** Progress of long work (initializing a big tree) at INFO; the library prints nothing itself. */
  private static final System.Logger LOG = System.getLogger(PathOramClient.class.getName());

  private final ReentrantLock lock = new ReentrantLock();
  private final AtomicBoolean open = new AtomicBoolean(true);
  private final KvStore store;
  private final String storeName;
  private final Path stateDir;
  private final Aead stateAead;
  private final TreeLayout tree;
  private final BucketCodec codec;
  private final BlockTable table;
  private final Random random;
  private final int keySize;
  private final int valueSize;
  private final int stashMax;
  private long accesses;
  private int maxStash;

  private PathOramClient(Builder b, KvStore store) {
    this.store = store;
    this.storeName = store.describe();
    this.stateDir = b.stateDir;
    this.random = b.seed == null ? new SecureRandom() : new Random(b.seed);
    this.stashMax = b.stashMax;
    Path stateFile = StateFile.file(b.stateDir);
    boolean exists = Files.exists(stateFile);
    if (!exists) {
      checkCanCreate(b, store); // before a key file is created
    }
    MasterKey master = b.masterKey;
    if (master == null) {
      Path keyFile = b.keyFile != null ? b.keyFile : b.stateDir.resolve("master.key");
      if (exists && !Files.exists(keyFile)) {
        throw new StateException("Path ORAM state " + stateFile + " exists but its master key file "
            + keyFile + " is missing");
      }
      master = MasterKey.loadOrCreate(keyFile);
    }
    Aead blockAead = new Aead(master.derive(KeyPurposes.PATHORAM_BUCKETS));
    this.stateAead = new Aead(master.derive(KeyPurposes.PATHORAM_STATE));
    if (exists) {
      StateFile.Snapshot s = StateFile.read(b.stateDir, stateAead);
      if (!s.store().equals(storeName)) {
        throw new StateException("Path ORAM state in " + b.stateDir + " belongs to store '" + s.store()
            + "' but this client opened store '" + storeName + "'; point " + STATE_DIR_PROPERTY
            + " at this store's state, or load this store into a fresh state directory");
      }
      checkSame(VALUE_SIZE_PROPERTY, b.valueSize, s.valueSize());
      checkSame(KEY_SIZE_PROPERTY, b.keySize, s.keySize());
      this.tree = new TreeLayout(s.height());
      this.keySize = s.keySize();
      this.valueSize = s.valueSize();
      this.table = s.table();
      this.accesses = s.accesses();
      this.maxStash = s.maxStash();
      this.codec = new BucketCodec(blockAead, keySize, valueSize);
    } else {
      this.tree = b.treeHeight != null ? new TreeLayout(b.treeHeight) : TreeLayout.forCapacity(b.capacity);
      this.keySize = b.keySize != null ? b.keySize : DEFAULT_KEY_SIZE;
      this.valueSize = b.valueSize != null ? b.valueSize : DEFAULT_VALUE_SIZE;
      this.table = new BlockTable(b.capacity);
      this.codec = new BucketCodec(blockAead, keySize, valueSize);
      initializeTree();
      saveState();
    }
  }

  /**
   * A new tree needs a capacity and an empty store: initializing it writes every bucket over
   * whatever the store holds, which may be the tree of a state whose state file was lost, or
   * another proxy's data (one proxy per store). Such a store is refused, never overwritten.
   */
  private static void checkCanCreate(Builder b, KvStore store) {
    if (!b.createIfMissing) {
      throw new StateException("no Path ORAM state in " + b.stateDir + " (" + CREATE_PROPERTY
          + "=false): run the load phase first, or point " + STATE_DIR_PROPERTY + " at its state");
    }
    if (b.capacity == null) {
      throw new ConfigException("a new Path ORAM needs a capacity: set " + CAPACITY_PROPERTY
          + " (or YCSB's recordcount)");
    }
    if (b.capacity > (1 << TreeLayout.MAX_HEIGHT)) {
      throw new ConfigException(CAPACITY_PROPERTY + " must be at most 2^" + TreeLayout.MAX_HEIGHT
          + " for Path ORAM, got " + b.capacity);
    }
    if (!store.isEmpty()) {
      String desc = store.describe();
      String count = store.storage().filter(s -> s.entries() > 0)
          .map(s -> ", it holds " + (desc.startsWith("rocksdb:") ? "about " : "") + s.entries() + " entries").orElse("");
      Path dir = b.stateDir.toAbsolutePath().normalize();
      throw new StateException("cannot create a Path ORAM state in " + dir + " over store " + desc
          + ": the store is not empty" + count + ". Nothing was written. A new tree needs an empty store: one"
          + " proxy per store. To go on, either restore the state directory that belongs to this store ("
          + StateFile.file(dir).getFileName() + ", with the same master key) into " + dir + ", or, if its"
          + " data is not needed, " + Stores.howToEmpty(desc) + " and open again, or configure another store");
    }
  }

  private static void checkSame(String property, Integer configured, int stored) {
    if (configured != null && configured != stored) {
      throw new StateException("the Path ORAM state was created with " + property + "=" + stored
          + " but " + configured + " is configured; the tree's block size cannot change after load");
    }
  }

  /** Writes every bucket, empty and freshly encrypted, in chunks; logs progress at INFO for big trees. */
  private void initializeTree() {
    long total = tree.buckets;
    boolean verbose = total > 100_000;
    int decile = 1;
    List<byte[]> labels = new ArrayList<>(INIT_CHUNK);
    List<byte[]> values = new ArrayList<>(INIT_CHUNK);
    for (long bucket = 0; bucket < total; bucket++) {
      byte[] label = TreeLayout.label(bucket);
      labels.add(label);
      values.add(codec.seal(label, List.of()));
      if (labels.size() == INIT_CHUNK || bucket == total - 1) {
        store.multiPut(labels, values);
        labels.clear();
        values.clear();
      }
      if (verbose && (bucket + 1) * 10 >= total * decile) {
        long done = bucket + 1;
        int percent = decile * 10;
        LOG.log(Level.INFO, () -> String.format(Locale.ROOT, "pathoram: initialized %d of %d buckets (%d%%)",
            done, total, percent));
        decile++;
      }
    }
  }

  /** A builder; {@link Builder#store} is required. */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Opens a client from properties: {@value #STATE_DIR_PROPERTY}, {@value #CREATE_PROPERTY},
   * {@value #CAPACITY_PROPERTY} (default YCSB {@code recordcount + insertcount}),
   * {@value #VALUE_SIZE_PROPERTY}, {@value #KEY_SIZE_PROPERTY}, {@value #KEY_FILE_PROPERTY},
   * {@value #STASH_MAX_PROPERTY}, {@value #SEED_PROPERTY}; the store comes from
   * {@link Stores#open(Properties)}.
   */
  public static PathOramClient open(Properties props) {
    Builder b = builder();
    b.stateDir(Path.of(props.getProperty(STATE_DIR_PROPERTY, DEFAULT_STATE_DIR).trim()));
    b.createIfMissing(Stores.booleanProperty(props, CREATE_PROPERTY, true));
    String cap = props.getProperty(CAPACITY_PROPERTY);
    if (cap != null && !cap.isBlank()) {
      b.capacity(Stores.intProperty(props, CAPACITY_PROPERTY, 0));
    } else if (props.getProperty(PancakeConfig.YCSB_RECORD_COUNT) != null) {
      long n = (long) Stores.intProperty(props, PancakeConfig.YCSB_RECORD_COUNT, 0)
          + Stores.intProperty(props, PancakeConfig.YCSB_INSERT_COUNT, 0);
      b.capacity((int) Math.min(Integer.MAX_VALUE, Math.max(1, n)));
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
    b.stashMax(Stores.intProperty(props, STASH_MAX_PROPERTY, DEFAULT_STASH_MAX));
    String seed = props.getProperty(SEED_PROPERTY);
    if (seed != null && !seed.isBlank()) {
      try {
        b.seed(Long.parseLong(seed.trim()));
      } catch (NumberFormatException e) {
        throw new ConfigException("property " + SEED_PROPERTY + " must be an integer, got '" + seed + "'", e);
      }
    }
    Stores.checkStoreOutlivesState(props, b.stateDir, Files.exists(StateFile.file(b.stateDir)));
    return b.store(Stores.open(props)).build();
  }

  // ---------------------------------------------------------------- operations

  /** What an access does to the block's value: current (null if absent) to next (null = absent). */
  @FunctionalInterface
  private interface BlockOp {
    byte[] apply(byte[] current);
  }

  @Override
  public Optional<byte[]> get(byte[] key) {
    checkKey(key);
    byte[] v = access(key, false, current -> current);
    return Optional.ofNullable(v == null ? null : v.clone());
  }

  @Override
  public void put(byte[] key, byte[] value) {
    checkKey(key);
    checkValue(value);
    byte[] copy = value.clone();
    access(key, true, current -> copy);
  }

  @Override
  public boolean update(byte[] key, UnaryOperator<byte[]> merge) {
    checkKey(key);
    Objects.requireNonNull(merge, "merge");
    return access(key, false, current -> {
      if (current == null) {
        return null;
      }
      byte[] next = merge.apply(current.clone());
      if (next == null) {
        throw new IllegalArgumentException("merge must not return null");
      }
      checkValue(next);
      return next.clone();
    }) != null;
  }

  @Override
  public boolean delete(byte[] key) {
    checkKey(key);
    return access(key, false, current -> null) != null;
  }

  private void checkKey(byte[] key) {
    if (key == null || key.length == 0) {
      throw new IllegalArgumentException("key must be non-empty");
    }
    if (key.length > keySize) {
      throw new ValueTooLargeException("key of " + key.length + " bytes exceeds " + KEY_SIZE_PROPERTY
          + "=" + keySize + " (fixed when the tree was loaded)");
    }
  }

  private void checkValue(byte[] value) {
    if (value == null) {
      throw new IllegalArgumentException("value must not be null");
    }
    if (value.length > valueSize) {
      throw new ValueTooLargeException("value of " + value.length + " bytes exceeds " + VALUE_SIZE_PROPERTY
          + "=" + valueSize + " (fixed when the tree was loaded)");
    }
  }

  /**
   * One Path ORAM access; returns the block's value before the operation (null if absent). The
   * operation's own exception, if any, is rethrown after the path has been written back, so a
   * failed merge looks like any other access.
   */
  private byte[] access(byte[] key, boolean mayBind, BlockOp op) {
    lock.lock();
    try {
      if (!open.get()) {
        throw new IllegalStateException("Path ORAM client is closed");
      }
      int id = table.idOf(key);
      if (id < 0 && mayBind && !table.hasFreeId()) {
        throw new CapacityException("Path ORAM is full: all " + table.capacity + " blocks ("
            + CAPACITY_PROPERTY + ") are bound to keys; reload with a larger capacity");
      }
      int leaf = id >= 0 ? table.position[id] : random.nextInt(tree.leaves);
      int newLeaf = random.nextInt(tree.leaves);

      // read: one multi-get of the whole path; nothing changes until it has been authenticated
      List<byte[]> labels = tree.pathLabels(leaf);
      List<byte[]> sealed = store.multiGet(labels);
      List<BucketCodec.Block> read = new ArrayList<>(BucketCodec.Z * labels.size());
      for (int i = 0; i < labels.size(); i++) {
        read.addAll(codec.open(labels.get(i), sealed.get(i)));
      }
      for (BucketCodec.Block b : read) {
        if (table.isLive(b) && !table.stash.containsKey(b.id())) {
          table.stash.put(b.id(), b.value());
        }
      }

      // operate and remap
      byte[] current = id >= 0 ? table.stash.get(id) : null;
      RuntimeException failure = null;
      byte[] next = current;
      if (id >= 0 && current == null) {
        failure = new IntegrityException("the block of a bound key is neither on its path nor in the"
            + " stash: the store was rolled back or modified, or the state file is older than the store");
      } else {
        try {
          next = op.apply(current);
        } catch (RuntimeException e) {
          failure = e;
        }
      }
      if (id >= 0) {
        table.position[id] = newLeaf;
        table.version[id]++;
      }
      if (failure == null) {
        if (next == null) {
          if (id >= 0) {
            table.unbind(id);
          }
        } else {
          if (id < 0) {
            id = table.bind(key);
            table.position[id] = newLeaf;
            table.version[id]++;
          }
          table.stash.put(id, next);
        }
      }

      // write back: the same path, greedily filled deepest-first, in one multi-put
      List<List<Integer>> plan = evictionPlan(leaf);
      List<byte[]> out = new ArrayList<>(labels.size());
      for (int level = 0; level <= tree.height; level++) {
        List<BucketCodec.Block> blocks = new ArrayList<>(BucketCodec.Z);
        for (int b : plan.get(level)) {
          blocks.add(new BucketCodec.Block(b, table.version[b], table.position[b], table.keyOf[b],
              table.stash.get(b)));
        }
        out.add(codec.seal(labels.get(level), blocks));
      }
      store.multiPut(labels, out);
      for (List<Integer> bucket : plan) {
        for (int b : bucket) {
          table.stash.remove(b);
        }
      }
      accesses++;
      maxStash = Math.max(maxStash, table.stash.size());
      if (failure != null) {
        throw failure;
      }
      if (table.stash.size() > stashMax) {
        throw new CapacityException("Path ORAM stash overflow: " + table.stash.size() + " blocks remain"
            + " at the client after eviction, above " + STASH_MAX_PROPERTY + "=" + stashMax
            + "; the operation took effect and no block is lost, but raise the bound");
      }
      return current;
    } finally {
      lock.unlock();
    }
  }

  /** For each level of the path to {@code leaf} (root first), the stash blocks to place there. */
  private List<List<Integer>> evictionPlan(int leaf) {
    int levels = tree.pathLength();
    List<List<Integer>> byDepth = new ArrayList<>(levels);
    List<List<Integer>> plan = new ArrayList<>(levels);
    for (int i = 0; i < levels; i++) {
      byDepth.add(new ArrayList<>());
      plan.add(new ArrayList<>(BucketCodec.Z));
    }
    for (Iterator<Integer> it = table.stash.keySet().iterator(); it.hasNext();) {
      int b = it.next();
      byDepth.get(tree.commonDepth(leaf, table.position[b])).add(b);
    }
    List<Integer> pool = new ArrayList<>();
    for (int level = tree.height; level >= 0; level--) {
      pool.addAll(byDepth.get(level));
      List<Integer> bucket = plan.get(level);
      while (bucket.size() < BucketCodec.Z && !pool.isEmpty()) {
        bucket.add(pool.remove(pool.size() - 1));
      }
    }
    return plan;
  }

  // ---------------------------------------------------------------- stats, state, close

  /** Counters of this client (since the tree was created, across reopens). */
  public record Stats(long accesses, int stashSize, int maxStashSize, int bucketsPerAccess,
      int treeHeight, int capacity, int keys) {}

  /** A snapshot of the counters. */
  public Stats stats() {
    lock.lock();
    try {
      return new Stats(accesses, table.stash.size(), maxStash, tree.pathLength(), tree.height,
          table.capacity, table.size());
    } finally {
      lock.unlock();
    }
  }

  private void saveState() {
    StateFile.write(stateDir, stateAead, new StateFile.Snapshot(tree.height, valueSize, keySize, storeName,
        accesses, maxStash, table));
  }

  /** Writes the state file atomically and closes the store. Idempotent. */
  @Override
  public void close() {
    if (open.compareAndSet(true, false)) {
      lock.lock();
      try {
        saveState();
      } finally {
        lock.unlock();
        store.close();
      }
    }
  }

  @Override
  public String toString() {
    return "PathOramClient[store=" + storeName + ", L=" + tree.height + ", Z=" + BucketCodec.Z
        + ", capacity=" + table.capacity + "]";
  }

  /** Builder with fail-fast checks; {@link #build()} opens the client, which then owns the store. */
  public static final class Builder {
    private KvStore store;
    private Path stateDir = Path.of(DEFAULT_STATE_DIR);
    private boolean createIfMissing = true;
    private Integer capacity;
    private Integer valueSize;
    private Integer keySize;
    private Path keyFile;
    private MasterKey masterKey;
    private int stashMax = DEFAULT_STASH_MAX;
    private Long seed;
    private Integer treeHeight;

    private Builder() {}

    /** Tests only: a tree lower than ceil(log2(capacity)), to overload the stash on purpose. */
    Builder treeHeight(int height) {
      this.treeHeight = height;
      return this;
    }

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

    /** Blocks N for a new tree (an existing state keeps its own). */
    public Builder capacity(int n) {
      if (n < 1 || n > (1 << TreeLayout.MAX_HEIGHT)) {
        throw new ConfigException(CAPACITY_PROPERTY + " must be between 1 and 2^" + TreeLayout.MAX_HEIGHT
            + ", got " + n);
      }
      this.capacity = n;
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

    public Builder stashMax(int blocks) {
      if (blocks < 1) {
        throw new ConfigException(STASH_MAX_PROPERTY + " must be at least 1, got " + blocks);
      }
      this.stashMax = blocks;
      return this;
    }

    /** Deterministic leaf choices for tests and experiments; never in production. */
    public Builder seed(long seed) {
      this.seed = seed;
      return this;
    }

    /** Opens the state (or initializes a new tree) and returns the client. */
    public PathOramClient build() {
      if (store == null) {
        throw new ConfigException("a Path ORAM client needs a store: call store(...) or use open(Properties)");
      }
      try {
        return new PathOramClient(this, store);
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
