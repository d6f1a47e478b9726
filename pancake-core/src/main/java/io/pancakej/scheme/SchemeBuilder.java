package io.pancakej.scheme;

import java.nio.file.Path;
import java.util.Objects;
import java.util.Properties;
import java.util.function.Function;
import java.util.function.Predicate;

import io.pancakej.ConfigException;
import io.pancakej.config.Limits;
import io.pancakej.config.PropertyReader;
import io.pancakej.store.KvStore;
import io.pancakej.store.Stores;

/**
 * Internal (public only because the scheme modules extend it): the settings every scheme with a
 * state directory shares -- state directory, whether to create it, capacity, key and value
 * sizes, master key file and store -- with their checks (fail fast at the setter, naming the
 * property) and their reading from properties, in one place. {@code PancakeConfig.Builder},
 * {@code PathOramClient.Builder}, {@code DetWoOramClient.Builder} and the baselines'
 * {@code EncryptedClient.Builder} and {@code InsecureClient.Builder} extend it and add their own
 * settings (a baseline ignores those it has no use for); {@link #readProperties} is the shared
 * half of each scheme's properties parser.
 *
 * @param <B> the concrete builder, returned by every setter
 */
public abstract class SchemeBuilder<B extends SchemeBuilder<B>> {
  /** Directory of the scheme's state and (by default) its master key file. */
  public static final String STATE_DIR_PROPERTY = "pancake.state.dir";
  /** Whether a missing state may be created ("false": a missing state is an error). */
  public static final String CREATE_PROPERTY = "pancake.state.create";
  /** Keys (slots, blocks) of a new state; defaults to YCSB's {@code recordcount} plus {@code insertcount} plus room for a run's inserts. */
  public static final String CAPACITY_PROPERTY = "pancake.capacity";
  /** Master key file; defaults to {@code master.key} in the state directory. */
  public static final String KEY_FILE_PROPERTY = "pancake.key.file";
  /** YCSB's record count, the default capacity. */
  public static final String YCSB_RECORD_COUNT = "recordcount";
  /** YCSB's insert count, added to the default capacity. */
  public static final String YCSB_INSERT_COUNT = "insertcount";
  /** YCSB's operations per run and share of inserts: room for a run's inserts (workloads D and E). */
  public static final String YCSB_OPERATION_COUNT = "operationcount";
  public static final String YCSB_INSERT_PROPORTION = "insertproportion";

  private final String scheme;
  private final int maxCapacityLog2;
  private Path stateDir;
  private boolean createIfMissing = true;
  private Integer capacity;
  private boolean capacityExplicit;
  private Integer valueSize;
  private Integer keySize;
  private Path keyFile;
  private KvStore store;

  /**
   * @param scheme the scheme's name in messages, e.g. "Path ORAM"
   * @param defaultStateDir the state directory unless one is set
   * @param maxCapacityLog2 the largest capacity is 2 to this power
   */
  protected SchemeBuilder(String scheme, String defaultStateDir, int maxCapacityLog2) {
    this.scheme = scheme;
    this.stateDir = Path.of(defaultStateDir);
    this.maxCapacityLog2 = maxCapacityLog2;
  }

  @SuppressWarnings("unchecked")
  private B self() {
    return (B) this;
  }

  public B stateDir(Path dir) {
    this.stateDir = Objects.requireNonNull(dir, STATE_DIR_PROPERTY);
    return self();
  }

  /** Whether a missing state may be created (default true). */
  public B createIfMissing(boolean create) {
    this.createIfMissing = create;
    return self();
  }

  /**
   * Keys a new state holds (1 .. the scheme's maximum). Fixed when the state is created; a scheme
   * that checks it refuses an existing state of another capacity.
   */
  public B capacity(int n) {
    if (n < 1 || n > (1 << maxCapacityLog2)) {
      throw new ConfigException(CAPACITY_PROPERTY + " must be between 1 and 2^" + maxCapacityLog2 + ", got " + n);
    }
    this.capacity = n;
    this.capacityExplicit = true;
    return self();
  }

  /** Largest value in bytes (default {@value Limits#DEFAULT_VALUE_SIZE}, at most 64 MiB); fixed when the state is created. */
  public B valueSize(int bytes) {
    this.valueSize = Limits.checkValueSize(bytes);
    return self();
  }

  /** Largest key in bytes (default {@value Limits#DEFAULT_KEY_SIZE}, at most 65535); fixed when the state is created. */
  public B keySize(int bytes) {
    this.keySize = Limits.checkKeySize(bytes);
    return self();
  }

  /**
   * Room for the inserts of a YCSB run of the same workload file: twice the expected count,
   * {@code 2 x operationcount x insertproportion}, the headroom YCSB's {@code CoreWorkload} gives
   * its own key chooser ({@code expectednewkeys}). Without it a stock workload D or E filled the
   * state at load and its run's inserts failed.
   */
  private static long ycsbRunInserts(Properties props) {
    double share = PropertyReader.doubleValue(props, YCSB_INSERT_PROPORTION, 0, 0, 1);
    long operations = PropertyReader.longValue(props, YCSB_OPERATION_COUNT, 0);
    return share == 0 || operations <= 0 ? 0 : (long) Math.ceil(2.0 * operations * share);
  }

  /** Master key file (created if missing when a state is created); default {@code master.key} in the state directory. */
  public B keyFile(Path file) {
    this.keyFile = Objects.requireNonNull(file, KEY_FILE_PROPERTY);
    return self();
  }

  /** The store to use; the client takes ownership and closes it (also when opening fails). */
  public B store(KvStore store) {
    this.store = Objects.requireNonNull(store, "store");
    return self();
  }

  /**
   * Sets what the properties say, through the setters, so a property is checked as its setter
   * checks it; an unset property leaves the builder as it is. Without {@value #CAPACITY_PROPERTY},
   * YCSB's record and insert counts, plus room for a run's inserts ({@link #ycsbRunInserts}), give
   * the capacity of a new state only: an existing state keeps its own. A scheme overrides this to
   * read its own properties after these.
   */
  protected B readProperties(Properties props) {
    stateDir(PropertyReader.path(props, STATE_DIR_PROPERTY, stateDir));
    createIfMissing(PropertyReader.bool(props, CREATE_PROPERTY, createIfMissing));
    if (PropertyReader.isSet(props, CAPACITY_PROPERTY)) {
      capacity(PropertyReader.intValue(props, CAPACITY_PROPERTY, 0));
    } else if (PropertyReader.isSet(props, YCSB_RECORD_COUNT)) {
      long n = (long) PropertyReader.intValue(props, YCSB_RECORD_COUNT, 0)
          + PropertyReader.intValue(props, YCSB_INSERT_COUNT, 0) + ycsbRunInserts(props);
      // range-checked when a state is created (SchemeSettings#newStateCapacity), ignored by an existing one
      this.capacity = (int) Math.min(Integer.MAX_VALUE, Math.max(1, n));
      this.capacityExplicit = false;
    }
    if (PropertyReader.isSet(props, Limits.VALUE_SIZE_PROPERTY)) {
      valueSize(PropertyReader.intValue(props, Limits.VALUE_SIZE_PROPERTY, 0));
    }
    if (PropertyReader.isSet(props, Limits.KEY_SIZE_PROPERTY)) {
      keySize(PropertyReader.intValue(props, Limits.KEY_SIZE_PROPERTY, 0));
    }
    keyFile = PropertyReader.path(props, KEY_FILE_PROPERTY, keyFile);
    return self();
  }

  /**
   * Opens the store {@code props} name for the state directory set so far
   * ({@link Stores#open(Properties, Path, boolean)}: a memory store is refused under a state an
   * earlier process left), for a scheme that opens its store as it opens.
   */
  protected final B storeFromProperties(Properties props, Predicate<Path> stateExists) {
    return store(Stores.open(props, stateDir, stateExists.test(stateDir)));
  }

  /** The shared settings as they stand. */
  protected final SchemeSettings settings() {
    return new SchemeSettings(scheme, maxCapacityLog2, stateDir, createIfMissing, capacity, capacityExplicit, valueSize,
        keySize, keyFile != null ? keyFile : stateDir.resolve("master.key"), store);
  }

  /**
   * Opens a client on the store given to {@link #store}, closing the store if opening fails (the
   * client owns it either way).
   */
  protected final <C> C open(Function<SchemeSettings, C> opener) {
    if (store == null) {
      throw new ConfigException("the " + scheme + " client needs a store: call store(...) or use open(Properties)");
    }
    try {
      return opener.apply(settings());
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
