package io.pancakej;

import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;

import io.pancakej.crypto.EpochAead;
import io.pancakej.distribution.DistributionFile;
import io.pancakej.smoothing.Engine;
import io.pancakej.store.KvStore;
import io.pancakej.store.Stores;

/**
 * Immutable configuration of a {@link PancakeClient}, built with {@link #builder()} (checks fail
 * fast at the setter, with a message naming the setting) or read from properties with
 * {@link #fromProperties(Properties)}. Every property is listed, with its default, in
 * {@code docs/configuration.md}.
 */
public final class PancakeConfig {
  /** Directory holding the proxy state (key set, replica plan, estimate, pending updates, key file). */
  public static final String STATE_DIR_PROPERTY = "pancake.state.dir";
  public static final String DEFAULT_STATE_DIR = "data/pancake-state";
  /** Whether a missing state directory may be created (false: a missing state is an error). */
  public static final String CREATE_PROPERTY = "pancake.state.create";
  /**
   * Number of real key slots n; defaults to YCSB's {@code recordcount} plus {@code insertcount}.
   * Fixed when a state is created: set explicitly and different from an existing state's, an error.
   */
  public static final String CAPACITY_PROPERTY = "pancake.capacity";
  /** Accesses per batch, B. */
  public static final String BATCH_SIZE_PROPERTY = "pancake.batch.size";
  public static final int DEFAULT_BATCH_SIZE = 3;
  /** Largest value in bytes; every value is padded to this size before encryption. */
  public static final String VALUE_SIZE_PROPERTY = "pancake.value.size";
  public static final int DEFAULT_VALUE_SIZE = 1200;
  /** Largest key in bytes. */
  public static final String KEY_SIZE_PROPERTY = "pancake.key.size";
  public static final int DEFAULT_KEY_SIZE = 128;
  /** Master key file; defaults to {@code master.key} inside the state directory. */
  public static final String KEY_FILE_PROPERTY = "pancake.key.file";
  /** Optional distribution file: the initial estimate (warm start); see docs/configuration.md. */
  public static final String DISTRIBUTION_FILE_PROPERTY = "pancake.distribution.file";
  /**
   * Batches per second at idle: the clock's floor (one batch per tick), which keeps a blocked
   * caller served. Batches are sent on the clock whatever the requests; see docs/design.md.
   */
  public static final String PACER_RATE_PROPERTY = "pancake.pacer.rate";
  public static final double DEFAULT_PACER_RATE = 100.0;
  /** Most ticks per second (rounded down to the floor times a power of two). */
  public static final String TICK_RATE_MAX_PROPERTY = "pancake.tick.rate.max";
  public static final double DEFAULT_TICK_RATE_MAX = 6400.0;
  /**
   * Most batches per tick (rounded down to a power of two); all of a tick's batches share one store
   * call. When the proxy cannot keep up with the top tick rate, fewer ticks of more batches go out.
   */
  public static final String TICK_BATCHES_MAX_PROPERTY = "pancake.tick.batches.max";
  public static final int DEFAULT_TICK_BATCHES_MAX = 64;
  /** Seconds between checkpoints of the proxy state (taken on this schedule whether or not anything was written). */
  public static final String CHECKPOINT_INTERVAL_PROPERTY = "pancake.checkpoint.interval";
  public static final double DEFAULT_CHECKPOINT_INTERVAL = 10.0;
  /** Properties of earlier versions that no longer mean anything, with what replaced them. */
  private static final Map<String, String> REMOVED = Map.of(
      "pancake.pacer.fraction", "batches are sent on the clock at a rate that follows the request rate"
          + " (pancake.pacer.rate at idle, up to pancake.tick.rate.max x pancake.tick.batches.max)",
      "pancake.pacer.swap.rate", "a swap no longer raises the batch rate (that would tell the store a change"
          + " was detected)",
      "pancake.store.combine", "every tick is one store call (one pipeline per Redis node)");
  /** Detect distribution changes and swap replicas to follow them (paper section 5). */
  public static final String ADAPT_PROPERTY = "pancake.adapt";
  /** Accesses in the sliding window the change detector compares with the estimate (w). */
  public static final String WINDOW_PROPERTY = "pancake.window.size";
  public static final int DEFAULT_WINDOW = 1_000_000;
  /** Accesses in the change detector's first window; windows double up to {@value #WINDOW_PROPERTY}. */
  public static final String FIRST_WINDOW_PROPERTY = "pancake.window.first";
  public static final int DEFAULT_FIRST_WINDOW = 10_000;
  /** Confidence of the Kolmogorov-Smirnov change test; a change is declared when {@code p < 1 - confidence}. */
  public static final String CONFIDENCE_PROPERTY = "pancake.detect.confidence";
  public static final double DEFAULT_CONFIDENCE = 0.95;
  /** Write-ahead log policy: {@code write} (default, survives a killed process), {@code fsync}, {@code off}. */
  public static final String WAL_SYNC_PROPERTY = "pancake.wal.sync";
  /** Seed for the proxy's coins and samplers: tests and reproducible experiments only (insecure). */
  public static final String SEED_PROPERTY = "pancake.seed";
  /** AES-GCM encryptions per value key epoch before the next epoch's key takes over (1 .. 2^32). */
  public static final String AEAD_EPOCH_BUDGET_PROPERTY = "pancake.aead.epoch.budget";
  /** YCSB's record count, the default capacity. */
  public static final String YCSB_RECORD_COUNT = "recordcount";
  /** YCSB's insert count, added to the default capacity. */
  public static final String YCSB_INSERT_COUNT = "insertcount";

  private final Path stateDir;
  private final boolean createIfMissing;
  private final int capacity;
  private final boolean capacityExplicit;
  private final int batchSize;
  private final int valueSize;
  private final int keySize;
  private final Path keyFile;
  private final Path distributionFile;
  private final Map<String, Double> distribution;
  private final String distributionSource;
  private final double pacerRate;
  private final double tickRateMax;
  private final int tickBatchesMax;
  private final java.time.Duration checkpointInterval;
  private final Long seed;
  private final long aeadEpochBudget;
  private final boolean adapt;
  private final WalSync walSync;
  private final int windowSize;
  private final int firstWindow;
  private final double confidence;
  private final KvStore store;
  private final Properties storeProperties;

  private PancakeConfig(Builder b) {
    this.stateDir = b.stateDir;
    this.createIfMissing = b.createIfMissing;
    this.capacity = b.capacity;
    this.capacityExplicit = b.capacityExplicit;
    this.batchSize = b.batchSize;
    this.valueSize = b.valueSize;
    this.keySize = b.keySize;
    this.keyFile = b.keyFile != null ? b.keyFile : b.stateDir.resolve("master.key");
    this.distributionFile = b.distributionFile;
    this.distribution = b.distribution;
    this.distributionSource = b.distributionSource;
    this.pacerRate = b.pacerRate;
    this.tickRateMax = b.tickRateMax;
    this.tickBatchesMax = b.tickBatchesMax;
    this.checkpointInterval = b.checkpointInterval;
    this.seed = b.seed;
    this.aeadEpochBudget = b.aeadEpochBudget;
    this.adapt = b.adapt;
    this.walSync = b.walSync;
    this.windowSize = b.windowSize;
    this.firstWindow = b.firstWindow;
    this.confidence = b.confidence;
    this.store = b.store;
    this.storeProperties = b.storeProperties;
  }

  public static Builder builder() {
    return new Builder();
  }

  /**
   * Reads every {@code pancake.*} property (and YCSB's {@code recordcount}/{@code insertcount}
   * for the default capacity); the store is opened from the same properties by
   * {@link Stores#open} when the client opens.
   */
  public static PancakeConfig fromProperties(Properties props) {
    return builderFromProperties(props).build();
  }

  /** A builder holding every setting {@link #fromProperties} reads, for callers that add more. */
  public static Builder builderFromProperties(Properties props) {
    Builder b = builder();
    b.stateDir(Path.of(props.getProperty(STATE_DIR_PROPERTY, DEFAULT_STATE_DIR).trim()));
    b.createIfMissing(Stores.booleanProperty(props, CREATE_PROPERTY, true));
    String cap = props.getProperty(CAPACITY_PROPERTY);
    if (cap != null && !cap.isBlank()) {
      b.capacity(Stores.intProperty(props, CAPACITY_PROPERTY, 0));
    } else if (props.getProperty(YCSB_RECORD_COUNT) != null) {
      long c = (long) Stores.intProperty(props, YCSB_RECORD_COUNT, 0) + Stores.intProperty(props, YCSB_INSERT_COUNT, 0);
      b.capacity((int) Math.min(Integer.MAX_VALUE, Math.max(1, c)));
      // only a default for a new state: a run phase may insert a different number of records
      b.capacityExplicit = false;
    }
    b.batchSize(Stores.intProperty(props, BATCH_SIZE_PROPERTY, DEFAULT_BATCH_SIZE));
    b.valueSize(Stores.intProperty(props, VALUE_SIZE_PROPERTY, DEFAULT_VALUE_SIZE));
    b.keySize(Stores.intProperty(props, KEY_SIZE_PROPERTY, DEFAULT_KEY_SIZE));
    String keyFile = props.getProperty(KEY_FILE_PROPERTY);
    if (keyFile != null && !keyFile.isBlank()) {
      b.keyFile(Path.of(keyFile.trim()));
    }
    String dist = props.getProperty(DISTRIBUTION_FILE_PROPERTY);
    if (dist != null && !dist.isBlank()) {
      b.distributionFile(Path.of(dist.trim()));
    }
    b.pacerRate(Stores.doubleProperty(props, PACER_RATE_PROPERTY, DEFAULT_PACER_RATE));
    b.tickRateMax(Stores.doubleProperty(props, TICK_RATE_MAX_PROPERTY, DEFAULT_TICK_RATE_MAX));
    b.tickBatchesMax(Stores.intProperty(props, TICK_BATCHES_MAX_PROPERTY, DEFAULT_TICK_BATCHES_MAX));
    double interval = Stores.doubleProperty(props, CHECKPOINT_INTERVAL_PROPERTY, DEFAULT_CHECKPOINT_INTERVAL);
    if (!(interval >= 0.01) || interval > 86_400) {
      throw new ConfigException(CHECKPOINT_INTERVAL_PROPERTY + " must be between 0.01 and 86400 seconds, got "
          + props.getProperty(CHECKPOINT_INTERVAL_PROPERTY));
    }
    b.checkpointInterval(java.time.Duration.ofNanos((long) (interval * 1e9)));
    for (Map.Entry<String, String> removed : REMOVED.entrySet()) {
      if (props.getProperty(removed.getKey()) != null) {
        throw new ConfigException("property " + removed.getKey() + " was removed: " + removed.getValue()
            + "; delete it from the configuration");
      }
    }
    b.adapt(Stores.booleanProperty(props, ADAPT_PROPERTY, true));
    String wal = props.getProperty(WAL_SYNC_PROPERTY);
    if (wal != null && !wal.isBlank()) {
      b.walSync(WalSync.parse(wal));
    }
    b.windowSize(Stores.intProperty(props, WINDOW_PROPERTY, DEFAULT_WINDOW));
    b.firstWindow(Stores.intProperty(props, FIRST_WINDOW_PROPERTY, DEFAULT_FIRST_WINDOW));
    b.detectionConfidence(Stores.doubleProperty(props, CONFIDENCE_PROPERTY, DEFAULT_CONFIDENCE));
    String seed = props.getProperty(SEED_PROPERTY);
    if (seed != null && !seed.isBlank()) {
      try {
        b.seed(Long.parseLong(seed.trim()));
      } catch (NumberFormatException e) {
        throw new ConfigException("property " + SEED_PROPERTY + " must be an integer, got '" + seed + "'", e);
      }
    }
    String budget = props.getProperty(AEAD_EPOCH_BUDGET_PROPERTY);
    if (budget != null && !budget.isBlank()) {
      try {
        b.aeadEpochBudget(Long.parseLong(budget.trim()));
      } catch (NumberFormatException e) {
        throw new ConfigException("property " + AEAD_EPOCH_BUDGET_PROPERTY + " must be an integer, got '" + budget
            + "'", e);
      }
    }
    Properties copy = new Properties();
    copy.putAll(props);
    b.storeProperties(copy);
    return b;
  }

  public Path stateDir() {
    return stateDir;
  }

  public boolean createIfMissing() {
    return createIfMissing;
  }

  /** Key slots n for a new state; 0 when unset (an existing state knows its own). */
  public int capacity() {
    return capacity;
  }

  /**
   * True if the capacity was asked for ({@code pancake.capacity}, {@link Builder#capacity}), not
   * derived from YCSB's record counts: an existing state's capacity must then be the same, since
   * it is fixed when the state is created.
   */
  public boolean capacityExplicit() {
    return capacityExplicit;
  }

  public int batchSize() {
    return batchSize;
  }

  public int valueSize() {
    return valueSize;
  }

  public int keySize() {
    return keySize;
  }

  public Path keyFile() {
    return keyFile;
  }

  /** The warm-start distribution file, or null. */
  public Path distributionFile() {
    return distributionFile;
  }

  public double pacerRate() {
    return pacerRate;
  }

  /** Most ticks per second. */
  public double tickRateMax() {
    return tickRateMax;
  }

  /** Most batches per tick. */
  public int tickBatchesMax() {
    return tickBatchesMax;
  }

  /** Time between scheduled checkpoints. */
  public java.time.Duration checkpointInterval() {
    return checkpointInterval;
  }

  /** The test seed, or null in production (SecureRandom). */
  public Long seed() {
    return seed;
  }

  /** AES-GCM encryptions per value key epoch. */
  public long aeadEpochBudget() {
    return aeadEpochBudget;
  }

  /** How the write-ahead log reaches the disk. */
  public WalSync walSync() {
    return walSync;
  }

  /** Whether distribution changes are detected and followed. */
  public boolean adapt() {
    return adapt;
  }

  /** Sliding window size w of the change detector. */
  public int windowSize() {
    return windowSize;
  }

  /** The change detector's first window, in accesses (at most {@link #windowSize()}). */
  public int firstWindow() {
    return Math.min(firstWindow, windowSize);
  }

  /**
   * The declared key distribution (key to weight, any scale) and where it came from, or null when
   * none was declared: an in-memory one ({@link Builder#distribution}) wins over a distribution
   * file, which is read here.
   */
  public Declared declaredDistribution() {
    if (distribution != null) {
      return new Declared(distribution, distributionSource);
    }
    if (distributionFile != null) {
      return new Declared(DistributionFile.read(distributionFile), "distribution file " + distributionFile);
    }
    return null;
  }

  /** A declared distribution: keys (in order) to weights, and a one-line description of its origin. */
  public record Declared(Map<String, Double> weights, String source) {}

  /** Confidence of the change test. */
  public double detectionConfidence() {
    return confidence;
  }

  /**
   * Opens the configured store: the one given to the builder, else by name from properties. A
   * {@code memory} store from properties is refused when the state directory already holds a
   * state ({@link Stores#checkStoreOutlivesState}): its data did not outlive the earlier process.
   */
  public KvStore openStore() {
    if (store != null) {
      return store;
    }
    Properties props = storeProperties != null ? storeProperties : new Properties();
    Stores.checkStoreOutlivesState(props, stateDir, Engine.stateExists(stateDir));
    return Stores.open(props);
  }

  @Override
  public String toString() {
    return "PancakeConfig[stateDir=" + stateDir + ", capacity=" + capacity + ", B=" + batchSize
        + ", valueSize=" + valueSize + ", keySize=" + keySize + "]";
  }

  /** Builder with fail-fast checks. */
  public static final class Builder {
    private Path stateDir = Path.of(DEFAULT_STATE_DIR);
    private boolean createIfMissing = true;
    private int capacity;
    private boolean capacityExplicit;
    private int batchSize = DEFAULT_BATCH_SIZE;
    private int valueSize = DEFAULT_VALUE_SIZE;
    private int keySize = DEFAULT_KEY_SIZE;
    private Path keyFile;
    private Path distributionFile;
    private Map<String, Double> distribution;
    private String distributionSource;
    private double pacerRate = DEFAULT_PACER_RATE;
    private double tickRateMax = DEFAULT_TICK_RATE_MAX;
    private int tickBatchesMax = DEFAULT_TICK_BATCHES_MAX;
    private java.time.Duration checkpointInterval = java.time.Duration.ofSeconds(10);
    private Long seed;
    private long aeadEpochBudget = EpochAead.DEFAULT_BUDGET;
    private boolean adapt = true;
    private WalSync walSync = WalSync.WRITE;
    private int windowSize = DEFAULT_WINDOW;
    private int firstWindow = DEFAULT_FIRST_WINDOW;
    private double confidence = DEFAULT_CONFIDENCE;
    private KvStore store;
    private Properties storeProperties;

    private Builder() {}

    public Builder stateDir(Path dir) {
      this.stateDir = Objects.requireNonNull(dir, STATE_DIR_PROPERTY);
      return this;
    }

    public Builder createIfMissing(boolean create) {
      this.createIfMissing = create;
      return this;
    }

    public Builder capacity(int n) {
      if (n < 1) {
        throw new ConfigException(CAPACITY_PROPERTY + " must be at least 1, got " + n);
      }
      this.capacity = n;
      this.capacityExplicit = true;
      return this;
    }

    public Builder batchSize(int b) {
      if (b < 1 || b > 64) {
        throw new ConfigException(BATCH_SIZE_PROPERTY + " must be between 1 and 64, got " + b);
      }
      this.batchSize = b;
      return this;
    }

    public Builder valueSize(int bytes) {
      if (bytes < 1 || bytes > (64 << 20)) {
        throw new ConfigException(VALUE_SIZE_PROPERTY + " must be between 1 and 64 MiB, got " + bytes);
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

    public Builder keyFile(Path file) {
      this.keyFile = Objects.requireNonNull(file, KEY_FILE_PROPERTY);
      return this;
    }

    public Builder distributionFile(Path file) {
      this.distributionFile = file;
      return this;
    }

    public Builder pacerRate(double batchesPerSecond) {
      if (!(batchesPerSecond > 0) || batchesPerSecond > 1e6) {
        throw new ConfigException(PACER_RATE_PROPERTY + " must be above 0 (a rate of 0 can hang a"
            + " closed-loop caller) and at most 1e6, got " + batchesPerSecond);
      }
      this.pacerRate = batchesPerSecond;
      return this;
    }

    /** Most ticks per second (default 6400; at least the idle rate, at most 10^6). */
    public Builder tickRateMax(double ticksPerSecond) {
      if (!(ticksPerSecond > 0) || ticksPerSecond > 1e6) {
        throw new ConfigException(TICK_RATE_MAX_PROPERTY + " must be above 0 and at most 1e6, got " + ticksPerSecond);
      }
      this.tickRateMax = ticksPerSecond;
      return this;
    }

    /** Most batches per tick (default 64; 1..1024). */
    public Builder tickBatchesMax(int batches) {
      if (batches < 1 || batches > 1024) {
        throw new ConfigException(TICK_BATCHES_MAX_PROPERTY + " must be between 1 and 1024, got " + batches);
      }
      this.tickBatchesMax = batches;
      return this;
    }

    /** Time between scheduled checkpoints (default 10 s). */
    public Builder checkpointInterval(java.time.Duration interval) {
      if (interval.toMillis() < 10) {
        throw new ConfigException(CHECKPOINT_INTERVAL_PROPERTY + " must be at least 10 ms, got " + interval);
      }
      this.checkpointInterval = interval;
      return this;
    }

    /** Deterministic coins for tests and experiments; never in production. */
    public Builder seed(long seed) {
      this.seed = seed;
      return this;
    }

    /**
     * AES-GCM encryptions per value key epoch (default 2^31; at most 2^32, the NIST SP 800-38D limit
     * for random nonces). Small values force frequent epoch changes: tests only.
     */
    public Builder aeadEpochBudget(long encryptions) {
      if (encryptions < 1 || encryptions > EpochAead.MAX_BUDGET) {
        throw new ConfigException(AEAD_EPOCH_BUDGET_PROPERTY + " must be between 1 and 2^32 (" + EpochAead.MAX_BUDGET
            + "), got " + encryptions);
      }
      this.aeadEpochBudget = encryptions;
      return this;
    }

    /** Write-ahead log policy (default {@code WRITE}: acknowledged writes survive a killed process). */
    public Builder walSync(WalSync sync) {
      this.walSync = Objects.requireNonNull(sync, WAL_SYNC_PROPERTY);
      return this;
    }

    /** Detect distribution changes and swap replicas to follow them (default true). */
    public Builder adapt(boolean adapt) {
      this.adapt = adapt;
      return this;
    }

    /** Sliding window w of the change detector, in accesses. */
    public Builder windowSize(int accesses) {
      if (accesses < 100 || accesses > 100_000_000) {
        throw new ConfigException(WINDOW_PROPERTY + " must be between 100 and 10^8 accesses, got " + accesses);
      }
      this.windowSize = accesses;
      return this;
    }

    /** The change detector's first window, in accesses; windows double from it up to the window size. */
    public Builder firstWindow(int accesses) {
      if (accesses < 100 || accesses > 100_000_000) {
        throw new ConfigException(FIRST_WINDOW_PROPERTY + " must be between 100 and 10^8 accesses, got " + accesses);
      }
      this.firstWindow = accesses;
      return this;
    }

    /**
     * The key distribution the application will request (key to weight, in any scale; insertion
     * order kept), described by {@code source} in messages: the initial estimate of a new state,
     * and at a later open the estimate the proxy moves to if the saved one differs. Wins over
     * {@link #distributionFile}.
     */
    public Builder distribution(Map<String, Double> weights, String source) {
      this.distribution = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(
          Objects.requireNonNull(weights, "weights")));
      this.distributionSource = Objects.requireNonNull(source, "source");
      return this;
    }

    /** Confidence of the change test, in (0, 1). */
    public Builder detectionConfidence(double confidence) {
      if (!(confidence > 0 && confidence < 1)) {
        throw new ConfigException(CONFIDENCE_PROPERTY + " must be strictly between 0 and 1, got " + confidence);
      }
      this.confidence = confidence;
      return this;
    }

    /** Use this store (the client takes ownership and closes it). */
    public Builder store(KvStore store) {
      this.store = Objects.requireNonNull(store, "store");
      return this;
    }

    /** Properties from which the store is opened by name ({@link Stores#open}). */
    public Builder storeProperties(Properties props) {
      this.storeProperties = props;
      return this;
    }

    public PancakeConfig build() {
      return new PancakeConfig(this);
    }
  }
}
