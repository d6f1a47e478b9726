package io.pancakej.scheme;

import java.nio.file.Files;
import java.nio.file.Path;

import io.pancakej.ConfigException;
import io.pancakej.StateException;
import io.pancakej.crypto.MasterKey;
import io.pancakej.store.KvStore;
import io.pancakej.store.Stores;

/**
 * Internal (public only because the scheme modules use it): the shared settings of one
 * {@link SchemeBuilder}, and the checks of them against the state a scheme opens or creates,
 * with the same messages for every scheme.
 *
 * @param scheme the scheme's name in messages, e.g. "Path ORAM"
 * @param maxCapacityLog2 the largest capacity is 2 to this power
 * @param capacity null when not set (no default: an existing state keeps its own)
 * @param capacityExplicit whether the capacity was asked for, not derived from YCSB's counts
 * @param valueSize null when not set (an existing state keeps its own)
 * @param keySize null when not set (an existing state keeps its own)
 * @param keyFile the master key file, resolved against the state directory
 * @param store the store given to the builder, or null
 */
public record SchemeSettings(String scheme, int maxCapacityLog2, Path stateDir, boolean createIfMissing,
    Integer capacity, boolean capacityExplicit, Integer valueSize, Integer keySize, Path keyFile, KvStore store) {

  /** The capacity asked for with {@link SchemeBuilder#capacity} or {@value SchemeBuilder#CAPACITY_PROPERTY}, else null. */
  public Integer explicitCapacity() {
    return capacityExplicit ? capacity : null;
  }

  /** The capacity of a state about to be created; a {@link ConfigException} if none or too large. */
  public int newStateCapacity() {
    if (capacity == null) {
      throw new ConfigException("a new " + scheme + " needs a capacity: set " + SchemeBuilder.CAPACITY_PROPERTY
          + " (or YCSB's recordcount)");
    }
    if (capacity > (1 << maxCapacityLog2)) {
      throw new ConfigException(SchemeBuilder.CAPACITY_PROPERTY + " must be at most 2^" + maxCapacityLog2 + " for "
          + scheme + ", got " + capacity);
    }
    return capacity;
  }

  /** The configured value size, or {@code defaultValue} if none was set. */
  public int valueSizeOr(int defaultValue) {
    return valueSize != null ? valueSize : defaultValue;
  }

  /** The configured key size, or {@code defaultValue} if none was set. */
  public int keySizeOr(int defaultValue) {
    return keySize != null ? keySize : defaultValue;
  }

  /**
   * Before a new state is created (and before a key file is): refuses when creating is off, when
   * no capacity is known, or when the store holds data. Initializing writes every block over what
   * the store holds, which may be the data of a state whose state file was lost, or another
   * proxy's (one proxy per store): such a store is refused, never overwritten.
   *
   * @param stateFile where the scheme keeps its saved state (named as one way on)
   * @return the capacity of the new state
   */
  public int checkCanCreate(Path stateFile) {
    if (!createIfMissing) {
      throw new StateException("no " + scheme + " state in " + stateDir + " (" + SchemeBuilder.CREATE_PROPERTY
          + "=false): run the load phase first, or point " + SchemeBuilder.STATE_DIR_PROPERTY + " at its state");
    }
    int n = newStateCapacity();
    if (!store.isEmpty()) {
      String desc = store.describe();
      String count = store.storage().filter(s -> s.entries() > 0)
          .map(s -> ", it holds " + (desc.startsWith("rocksdb:") ? "about " : "") + s.entries() + " entries")
          .orElse("");
      Path dir = stateDir.toAbsolutePath().normalize();
      throw new StateException("cannot create a " + scheme + " state in " + dir + " over store " + desc
          + ": the store is not empty" + count + ". Nothing was written. A new " + scheme + " needs an empty store:"
          + " one proxy per store. To go on, either restore the state directory that belongs to this store ("
          + stateFile.getFileName() + ", with the same master key) into " + dir + ", or, if its data is not needed, "
          + Stores.howToEmpty(desc) + " and open again, or configure another store");
    }
    return n;
  }

  /**
   * The master key: {@code given} if not null, else the key file's (created for a new state). An
   * existing state whose key file is gone is an error, not a new key.
   */
  public MasterKey masterKey(MasterKey given, Path stateFile, boolean stateExists) {
    if (given != null) {
      return given;
    }
    if (stateExists && !Files.exists(keyFile)) {
      throw new StateException(scheme + " state " + stateFile + " exists but its master key file " + keyFile
          + " is missing");
    }
    return MasterKey.loadOrCreate(keyFile);
  }

  /**
   * Refuses a saved state that belongs to another store than the one opened ({@code savedStore}
   * is the {@link KvStore#describe()} saved with it).
   */
  public void checkStore(String savedStore) {
    if (!savedStore.equals(store.describe())) {
      throw new StateException(scheme + " state in " + stateDir + " belongs to store '" + savedStore
          + "' but this client opened store '" + store.describe() + "'; point " + SchemeBuilder.STATE_DIR_PROPERTY
          + " at this store's state, or load this store into a fresh state directory");
    }
  }

  /** Refuses a setting that differs from the saved state's: {@code configured} null means unset, any value goes. */
  public void checkSame(String property, Integer configured, int stored) {
    if (configured != null && configured != stored) {
      throw new StateException("the " + scheme + " state was created with " + property + "=" + stored + " but "
          + configured + " is configured; it cannot change after the state is created");
    }
  }
}
