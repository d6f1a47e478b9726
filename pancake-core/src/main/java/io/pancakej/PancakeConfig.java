package io.pancakej;

import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;

import io.pancakej.config.Limits;
import io.pancakej.config.PropertyReader;
import io.pancakej.crypto.EpochAead;
import io.pancakej.distribution.DistributionFile;
import io.pancakej.scheme.SchemeBuilder;
import io.pancakej.scheme.SchemeSettings;
import io.pancakej.store.KvStore;
import io.pancakej.store.Stores;

/**
 * Immutable configuration of a {@link PancakeClient}, built with {@link #builder()} (checks fail
 * fast at the setter, with a message naming the setting) or read from properties with
 * {@link #fromProperties(Properties)}. Every property is listed, with its default, in
 * {@code docs/configuration.md}. The config names its store (a {@link KvStore} or the properties
 * to open one from) but does not open it: the client does, through {@link Stores}.
 */
public final class PancakeConfig {
  /** Directory holding the proxy state (key set, replica plan, estimate, pending updates, key file). */
  public static final String STATE_DIR_PROPERTY = SchemeBuilder.STATE_DIR_PROPERTY;
  public static final String DEFAULT_STATE_DIR = "data/pancake-state";
  /** Whether a missing state directory may be created (false: a missing state is an error). */
  public static final String CREATE_PROPERTY = SchemeBuilder.CREATE_PROPERTY;
  /**
   * Number of real key slots n; defaults to YCSB's {@code recordcount} plus {@code insertcount}.
   * Fixed when a state is created: set explicitly and different from an existing state's, an error.
   */
  public static final String CAPACITY_PROPERTY = SchemeBuilder.CAPACITY_PROPERTY;
  /** Accesses per batch, B. */
  public static final String BATCH_SIZE_PROPERTY = "pancake.batch.size";
  public static final int DEFAULT_BATCH_SIZE = 3;
  /** Largest value in bytes (1 .. 64 MiB, as for every scheme); every value is padded to this size before encryption. */
  public static final String VALUE_SIZE_PROPERTY = Limits.VALUE_SIZE_PROPERTY;
  public static final int DEFAULT_VALUE_SIZE = Limits.DEFAULT_VALUE_SIZE;
  /** Largest key in bytes (1 .. 65535). */
  public static final String KEY_SIZE_PROPERTY = Limits.KEY_SIZE_PROPERTY;
  public static final int DEFAULT_KEY_SIZE = Limits.DEFAULT_KEY_SIZE;
  /** Master key file; defaults to {@code master.key} inside the state directory. */
  public static final String KEY_FILE_PROPERTY = SchemeBuilder.KEY_FILE_PROPERTY;
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
  /**
   * The CPU the emitter gets to itself: {@code auto} (the default: the highest CPU this process may
   * use, when it may use two or more and runs on Linux with {@code taskset}), {@code none}, or a CPU
   * number. Every other thread of this process is moved off it at open and back at close
   * (docs/security.md, "The callers a tick wakes").
   */
  public static final String EMITTER_CPU_PROPERTY = "pancake.emitter.cpu";
  /** {@link Builder#emitterCpu}: the highest CPU this process may use, if it may use two or more. */
  public static final int EMITTER_CPU_AUTO = -2;
  /** {@link Builder#emitterCpu}: no CPU of its own. */
  public static final int EMITTER_CPU_NONE = -1;
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
  public static final String YCSB_RECORD_COUNT = SchemeBuilder.YCSB_RECORD_COUNT;
  /** YCSB's insert count, added to the default capacity. */
  public static final String YCSB_INSERT_COUNT = SchemeBuilder.YCSB_INSERT_COUNT;
  /** The largest state a PANCAKE proxy creates: 2^29 key slots, 2^30 replicas. */
  private static final int MAX_CAPACITY_LOG2 = 29;

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
  private final int emitterCpu;
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
  private final java.util.concurrent.ThreadFactory threadFactory;

  private PancakeConfig(Builder b, SchemeSettings s) {
    this.stateDir = s.stateDir();
    this.createIfMissing = s.createIfMissing();
    this.capacity = s.capacity() != null ? s.capacity() : 0;
    this.capacityExplicit = s.capacityExplicit();
    this.batchSize = b.batchSize;
    this.valueSize = s.valueSizeOr(DEFAULT_VALUE_SIZE);
    this.keySize = s.keySizeOr(DEFAULT_KEY_SIZE);
    this.keyFile = s.keyFile();
    this.distributionFile = b.distributionFile;
    this.distribution = b.distribution;
    this.distributionSource = b.distributionSource;
    this.pacerRate = b.pacerRate;
    this.tickRateMax = b.tickRateMax;
    this.tickBatchesMax = b.tickBatchesMax;
    this.emitterCpu = b.emitterCpu;
    this.checkpointInterval = b.checkpointInterval;
    this.seed = b.seed;
    this.aeadEpochBudget = b.aeadEpochBudget;
    this.adapt = b.adapt;
    this.walSync = b.walSync;
    this.windowSize = b.windowSize;
    this.firstWindow = b.firstWindow;
    this.confidence = b.confidence;
    this.store = s.store();
    this.storeProperties = copy(b.storeProperties);
    this.threadFactory = b.threadFactory;
  }

  private static Properties copy(Properties props) {
    Properties copy = new Properties();
    if (props != null) {
      copy.putAll(props);
    }
    return copy;
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
    return builder().readProperties(props);
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

  /** The CPU the emitter has to itself, {@link #EMITTER_CPU_AUTO} (the default) or {@link #EMITTER_CPU_NONE}. */
  public int emitterCpu() {
    return emitterCpu;
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

  /**
   * Where the client's background threads come from (the clock, the serving, callback, log writer,
   * checkpoint, estimator and state-loading threads), or null for the default: daemon threads named
   * {@code pancake-*}.
   */
  public java.util.concurrent.ThreadFactory threadFactory() {
    return threadFactory;
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
   * The store given to {@link Builder#store}, or null: the client then opens one from
   * {@link #storeProperties()} ({@link Stores#open(Properties, Path, boolean)}).
   */
  public KvStore store() {
    return store;
  }

  /** A copy of the properties a store is opened from when none was given (empty: the default RocksDB store). */
  public Properties storeProperties() {
    return copy(storeProperties);
  }

  @Override
  public String toString() {
    return "PancakeConfig[stateDir=" + stateDir + ", capacity=" + capacity + ", B=" + batchSize
        + ", valueSize=" + valueSize + ", keySize=" + keySize + "]";
  }

  /**
   * Builder with fail-fast checks. The settings every scheme shares (state directory, capacity
   * up to 2^29, key and value sizes, key file, store) are inherited from {@link SchemeBuilder}.
   */
  public static final class Builder extends SchemeBuilder<Builder> {
    private int batchSize = DEFAULT_BATCH_SIZE;
    private Path distributionFile;
    private Map<String, Double> distribution;
    private String distributionSource;
    private double pacerRate = DEFAULT_PACER_RATE;
    private double tickRateMax = DEFAULT_TICK_RATE_MAX;
    private int tickBatchesMax = DEFAULT_TICK_BATCHES_MAX;
    private int emitterCpu = EMITTER_CPU_AUTO;
    private java.time.Duration checkpointInterval =
        java.time.Duration.ofNanos((long) (DEFAULT_CHECKPOINT_INTERVAL * 1e9));
    private Long seed;
    private long aeadEpochBudget = EpochAead.DEFAULT_BUDGET;
    private boolean adapt = true;
    private WalSync walSync = WalSync.WRITE;
    private int windowSize = DEFAULT_WINDOW;
    private int firstWindow = DEFAULT_FIRST_WINDOW;
    private double confidence = DEFAULT_CONFIDENCE;
    private Properties storeProperties;
    private java.util.concurrent.ThreadFactory threadFactory;

    private Builder() {
      super("PANCAKE", DEFAULT_STATE_DIR, MAX_CAPACITY_LOG2);
    }

    /**
     * Reads the settings all schemes share ({@link SchemeBuilder#readProperties}), then PANCAKE's
     * own, each through its setter; the store is opened from the same properties.
     */
    @Override
    protected Builder readProperties(Properties props) {
      for (Map.Entry<String, String> removed : REMOVED.entrySet()) {
        if (props.getProperty(removed.getKey()) != null) {
          throw new ConfigException("property " + removed.getKey() + " was removed: " + removed.getValue()
              + "; delete it from the configuration");
        }
      }
      super.readProperties(props);
      batchSize(PropertyReader.intValue(props, BATCH_SIZE_PROPERTY, batchSize));
      distributionFile(PropertyReader.path(props, DISTRIBUTION_FILE_PROPERTY, distributionFile));
      pacerRate(PropertyReader.doubleValue(props, PACER_RATE_PROPERTY, pacerRate));
      tickRateMax(PropertyReader.doubleValue(props, TICK_RATE_MAX_PROPERTY, tickRateMax));
      tickBatchesMax(PropertyReader.intValue(props, TICK_BATCHES_MAX_PROPERTY, tickBatchesMax));
      String cpu = PropertyReader.string(props, EMITTER_CPU_PROPERTY, null);
      if (cpu != null) {
        String c = cpu.trim();
        if (c.equals("auto")) {
          emitterCpu(EMITTER_CPU_AUTO);
        } else if (c.equals("none")) {
          emitterCpu(EMITTER_CPU_NONE);
        } else {
          try {
            emitterCpu(Integer.parseInt(c));
          } catch (NumberFormatException e) {
            throw new ConfigException(EMITTER_CPU_PROPERTY + " must be a CPU number (0, 1, ...), auto or none, got " + cpu);
          }
        }
      }
      double interval = PropertyReader.doubleValue(props, CHECKPOINT_INTERVAL_PROPERTY,
          checkpointInterval.toNanos() / 1e9, 0.01, 86_400);
      checkpointInterval(java.time.Duration.ofNanos((long) (interval * 1e9)));
      adapt(PropertyReader.bool(props, ADAPT_PROPERTY, adapt));
      walSync(PropertyReader.enumValue(props, WAL_SYNC_PROPERTY, WalSync.class, walSync));
      windowSize(PropertyReader.intValue(props, WINDOW_PROPERTY, windowSize));
      firstWindow(PropertyReader.intValue(props, FIRST_WINDOW_PROPERTY, firstWindow));
      detectionConfidence(PropertyReader.doubleValue(props, CONFIDENCE_PROPERTY, confidence));
      if (PropertyReader.isSet(props, SEED_PROPERTY)) {
        seed(PropertyReader.longValue(props, SEED_PROPERTY, 0));
      }
      aeadEpochBudget(PropertyReader.longValue(props, AEAD_EPOCH_BUDGET_PROPERTY, aeadEpochBudget));
      return storeProperties(props);
    }

    public Builder batchSize(int b) {
      if (b < 1 || b > 64) {
        throw new ConfigException(BATCH_SIZE_PROPERTY + " must be between 1 and 64, got " + b);
      }
      this.batchSize = b;
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

    /**
     * Gives the emitter CPU {@code cpu} to itself; {@link #EMITTER_CPU_AUTO} (the default) picks the
     * highest CPU this process may use and no other proxy of it holds, and {@link #EMITTER_CPU_NONE}
     * gives it none. Open moves every other thread of this process off that CPU, and close moves
     * them back; threads started meanwhile inherit the rest. Other processes (a Redis server on the
     * same machine) are not moved. Needs Linux's {@code taskset} and a process that may use at
     * least two CPUs: an explicit CPU fails the open without them, {@code auto} then runs without
     * one and logs a warning (the timing of calls then shows how many callers a tick woke).
     */
    public Builder emitterCpu(int cpu) {
      if (cpu < EMITTER_CPU_AUTO || cpu > 4095) {
        throw new ConfigException(EMITTER_CPU_PROPERTY + " must be a CPU number (0, 1, ...), auto or none, got " + cpu);
      }
      this.emitterCpu = cpu;
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

    /**
     * Creates the client's background threads (default: daemon threads named {@code pancake-*}),
     * e.g. to name, group or monitor them as the application does. The client starts them at open
     * and stops and joins them at close; a factory that makes non-daemon threads therefore keeps
     * the JVM alive until the client is closed.
     */
    public Builder threadFactory(java.util.concurrent.ThreadFactory factory) {
      this.threadFactory = Objects.requireNonNull(factory, "threadFactory");
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

    /** Properties from which the client opens the store by name ({@link Stores#open}) when none is given to {@link #store}. */
    public Builder storeProperties(Properties props) {
      this.storeProperties = props;
      return this;
    }

    public PancakeConfig build() {
      return new PancakeConfig(this, settings());
    }
  }
}
