package io.pancakej.smoothing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

import io.pancakej.ConfigException;
import io.pancakej.PancakeConfig;
import io.pancakej.StateException;
import io.pancakej.crypto.MasterKey;
import io.pancakej.store.KvStore;
import io.pancakej.store.Stores;

/**
 * Opens a {@link Proxy}: locks the state directory, loads the saved state (in the background,
 * while the store connects) or checks that the store of a new state is empty, then hands over to
 * {@link Recovery} or {@link NewState}. An open that fails releases what it took, and a rejected
 * create leaves the state directory as it found it.
 */
final class ProxyOpener {
  private ProxyOpener() {}

  /**
   * Opens the state in the configured directory (creating it if allowed) and the store, and starts
   * the proxy's threads.
   */
  static Proxy open(PancakeConfig config) {
    return open(config, Clock.SYSTEM);
  }

  /** {@link #open(PancakeConfig)} on {@code clock} (tests: a simulated one). */
  static Proxy open(PancakeConfig config, Clock clock) {
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
    NewState.Initial initial = exists ? null : NewState.Initial.prepare(config);
    Proxy.checkThreadFactory(config);
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
        saved = loadInBackground(dir, key, Proxy.threads(config, "pancake-state-load"));
      } else {
        // an existing key file is used; a new one is written only once the store proved empty
        key = Files.isRegularFile(config.keyFile()) ? MasterKey.load(config.keyFile()) : null;
      }
      store = config.store() != null ? config.store()
          : Stores.open(config.storeProperties(), config.stateDir(), exists);
      if (!exists) {
        checkStoreIsNew(config, dir, key, store);
        if (key == null) {
          key = MasterKey.loadOrCreate(config.keyFile());
        }
        creating = true; // from here on what this create made stays: the store may hold data under the key
      }
      Proxy proxy = exists
          ? Recovery.reopen(config, clock, dir, key, store, awaitLoad(saved))
          : NewState.create(config, clock, dir, key, store, initial);
      proxy.start();
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
   * Creating a state writes 2n replicas over whatever the store holds, so a store that holds
   * anything is refused, never overwritten: it may be this state's own data after its state file
   * was lost (a restored state file reads it again), or another proxy's store (one proxy per
   * store). Where the key is known, the first and last replica labels (written first and last)
   * and the canary of stores created before 2026-11 say which.
   */
  private static void checkStoreIsNew(PancakeConfig config, StateDirectory dir, MasterKey key, KvStore store) {
    if (store.isEmpty()) {
      return;
    }
    String desc = store.describe();
    String found = null;
    if (key != null) {
      Labels labels = new Labels(key);
      List<byte[]> got = store.multiGet(List.of(labels.canary(), labels.replica(2 * config.capacity() - 1),
          labels.replica(0)));
      if (got.get(0) != null || got.get(1) != null) {
        found = "a PANCAKE store created with this master key (" + config.keyFile().toAbsolutePath().normalize()
            + "): the data of another state directory that uses the same key, or of this state directory"
            + " before its state file was lost";
      } else if (got.get(2) != null) {
        found = "PANCAKE replicas sealed under this master key (" + config.keyFile().toAbsolutePath().normalize()
            + ") but not the last one a creation with pancake.capacity=" + config.capacity() + " writes: a creation"
            + " of a state with this key that did not finish (or one with another capacity)";
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

  private static CompletableFuture<ProxyState> loadInBackground(StateDirectory dir, MasterKey key,
      java.util.concurrent.ThreadFactory threads) {
    CompletableFuture<ProxyState> result = new CompletableFuture<>();
    Thread loader = threads.newThread(() -> {
      try {
        result.complete(dir.load(key));
      } catch (Throwable t) {
        result.completeExceptionally(t);
      }
    });
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
}
