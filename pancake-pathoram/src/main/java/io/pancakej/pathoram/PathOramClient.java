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
  public static final String STATE_DIR_PROPERTY = SchemeBuilder.STATE_DIR_PROPERTY;
  public static final String DEFAULT_STATE_DIR = "data/pathoram-state";
  /** "false": a missing state is an error instead of initializing a new tree. */
  public static final String CREATE_PROPERTY = SchemeBuilder.CREATE_PROPERTY;
  /** Number of blocks N; defaults to YCSB's recordcount + insertcount. */
  public static final String CAPACITY_PROPERTY = SchemeBuilder.CAPACITY_PROPERTY;
  public static final String VALUE_SIZE_PROPERTY = Limits.VALUE_SIZE_PROPERTY;
  public static final int DEFAULT_VALUE_SIZE = Limits.DEFAULT_VALUE_SIZE;
  public static final String KEY_SIZE_PROPERTY = Limits.KEY_SIZE_PROPERTY;
  public static final int DEFAULT_KEY_SIZE = Limits.DEFAULT_KEY_SIZE;
  /** Master key file; defaults to {@code master.key} in the state directory. */
  public static final String KEY_FILE_PROPERTY = SchemeBuilder.KEY_FILE_PROPERTY;
  /** Most blocks the stash may hold after an access's eviction. */
  public static final String STASH_MAX_PROPERTY = "pancake.pathoram.stash.max";
  public static final int DEFAULT_STASH_MAX = 150;
  /** Seed for leaf choices: tests and reproducible experiments only (insecure). */
  public static final String SEED_PROPERTY = PancakeConfig.SEED_PROPERTY;

  /** Ends the message of a refused key or value. */
  private static final String LIMITS_HINT = "fixed when the tree was loaded";
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
  private final Limits limits;
  private final int stashMax;
  private long accesses;
  private int maxStash;

  private PathOramClient(Builder b, SchemeSettings settings) {
    this.store = settings.store();
    this.storeName = store.describe();
    this.stateDir = settings.stateDir();
    this.random = b.seed == null ? new SecureRandom() : new Random(b.seed);
    this.stashMax = b.stashMax;
    Path stateFile = StateFile.file(stateDir);
    boolean exists = Files.exists(stateFile);
    // a new tree writes every bucket over what the store holds: refused unless it is empty, before a key file is created
    Integer newCapacity = exists ? null : settings.checkCanCreate(stateFile);
    MasterKey master = settings.masterKey(b.masterKey, stateFile, exists);
    Aead blockAead = new Aead(master.derive(KeyPurposes.PATHORAM_BUCKETS));
    this.stateAead = new Aead(master.derive(KeyPurposes.PATHORAM_STATE));
    if (exists) {
      StateFile.Snapshot s = StateFile.read(stateDir, stateAead);
      settings.checkStore(s.store());
      settings.checkSame(VALUE_SIZE_PROPERTY, settings.valueSize(), s.valueSize());
      settings.checkSame(KEY_SIZE_PROPERTY, settings.keySize(), s.keySize());
      this.tree = new TreeLayout(s.height());
      this.limits = new Limits(s.keySize(), s.valueSize(), LIMITS_HINT);
      this.table = s.table();
      this.accesses = s.accesses();
      this.maxStash = s.maxStash();
    } else {
      this.tree = b.treeHeight != null ? new TreeLayout(b.treeHeight) : TreeLayout.forCapacity(newCapacity);
      this.limits = new Limits(settings.keySizeOr(DEFAULT_KEY_SIZE), settings.valueSizeOr(DEFAULT_VALUE_SIZE),
          LIMITS_HINT);
      this.table = new BlockTable(newCapacity);
    }
    this.codec = new BucketCodec(blockAead, limits.keySize(), limits.valueSize());
    if (!exists) {
      initializeTree();
      saveState();
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
   * {@value #STASH_MAX_PROPERTY}, {@value #SEED_PROPERTY}, each checked by its builder setter;
   * the store comes from {@link Stores#open(Properties, Path, boolean)} (which refuses a memory
   * store under a state an earlier process left).
   */
  public static PathOramClient open(Properties props) {
    return Builder.fromProperties(props).build();
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
    limits.checkKey(key);
  }

  private void checkValue(byte[] value) {
    limits.checkValue(value);
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
    StateFile.write(stateDir, stateAead, new StateFile.Snapshot(tree.height, limits.valueSize(), limits.keySize(), storeName,
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

  /**
   * Builder with fail-fast checks; {@link #build()} opens the client, which then owns the store.
   * The settings every scheme shares (state directory, capacity up to 2^30, key and value sizes,
   * key file, store) are inherited from {@link SchemeBuilder}.
   */
  public static final class Builder extends SchemeBuilder<Builder> {
    private MasterKey masterKey;
    private int stashMax = DEFAULT_STASH_MAX;
    private Long seed;
    private Integer treeHeight;

    private Builder() {
      super("Path ORAM", DEFAULT_STATE_DIR, TreeLayout.MAX_HEIGHT);
    }

    /** Tests only: a tree lower than ceil(log2(capacity)), to overload the stash on purpose. */
    Builder treeHeight(int height) {
      this.treeHeight = height;
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

    /** The shared properties, then {@value #STASH_MAX_PROPERTY} and {@value #SEED_PROPERTY}. */
    @Override
    protected Builder readProperties(Properties props) {
      super.readProperties(props);
      stashMax(PropertyReader.intValue(props, STASH_MAX_PROPERTY, stashMax));
      if (PropertyReader.isSet(props, SEED_PROPERTY)) {
        seed(PropertyReader.longValue(props, SEED_PROPERTY, 0));
      }
      return this;
    }

    /** What the properties say, on the store they name. */
    static Builder fromProperties(Properties props) {
      return builder().readProperties(props).storeFromProperties(props, dir -> Files.exists(StateFile.file(dir)));
    }

    /** Opens the state (or initializes a new tree) and returns the client. */
    public PathOramClient build() {
      return open(settings -> new PathOramClient(this, settings));
    }
  }
}
