package io.pancakej.smoothing;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.pancakej.ConfigException;
import io.pancakej.IntegrityException;
import io.pancakej.PancakeConfig;
import io.pancakej.StateException;
import io.pancakej.crypto.MasterKey;
import io.pancakej.distribution.DistributionFile;
import io.pancakej.store.KvStore;

/**
 * Reopens a saved state: checks it against the configuration and the store (replicas read at open), replays
 * the write-ahead log on top of the checkpoint, frees what was deleted everywhere, and swaps
 * towards a declared distribution that differs from the saved estimate.
 */
final class Recovery {
  private static final System.Logger LOG = System.getLogger("io.pancakej");

  private Recovery() {}

  static Proxy reopen(PancakeConfig config, Clock clock, StateDirectory dir, MasterKey key, KvStore store,
      ProxyState s) {
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
      if (s.transition() != null && s.transition().pendingSwaps().length == 0) {
        // every swap was done, the finish (which waits for a slot) was not saved: steady on the plan
        phase = new Phase.Steady(plan);
      } else if (s.transition() != null) {
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
    // plans saved ahead of their install, after the state file: their swaps may be in the store
    dir.deleteUnfinishedPlans(); // a save a crash cut short: never installed
    List<StateDirectory.NumberedPlan> savedPlans = dir.loadPlans(key, s.stateId());
    SavedPlan applied = null;
    try {
      SavedPlan.Resumed resumed = SavedPlan.resume(phase.target, savedPlans);
      if (resumed != null) {
        phase = resumed.transition();
        applied = resumed.saved();
      }
    } catch (RuntimeException e) {
      throw new StateException("a saved plan in " + dir.path() + " is inconsistent with the state", e);
    }
    ReplicaCodec codec = new ReplicaCodec(s.keySize(), s.valueSize());
    Recovered r = recover(dir, key, s);
    Proxy proxy = new Proxy(config, clock, store, dir, key, codec, phase, r.keyOfSlot, r.freeOrder, 0, s.stateId(),
        r.nextSequence, applied == null ? s.estimateSamples() : applied.estimateSamples(),
        applied == null ? s.estimateSource() : applied.estimateSource(), s.keyEpoch());
    // entries saved under an earlier layout: which of their replicas hold the value is not known
    // in the new one, so every replica is written again
    proxy.cache.restore(applied == null ? r.pending : unmarked(r.pending), phase.target,
        proxy.versions.incrementAndGet());
    checkStore(proxy);
    freeDeleted(proxy, r.deletedSlots);
    if (proxy.transitions.estimateSamples != Estimator.ASSUMED) {
      // slots freed after the last checkpoint: their drop from the estimate was not saved
      double[] estimate = phase.target.estimate;
      for (int slot = 0; slot < estimate.length; slot++) {
        if (estimate[slot] > 0 && proxy.keys.keyOf(slot) == null) {
          proxy.transitions.freed(slot);
        }
      }
    }
    proxy.checkpointer.savedAlready(phase);
    if (!savedPlans.isEmpty()) {
      // the open's checkpoint holds them (applied) or finds them obsolete: it deletes them
      proxy.checkpointer.resumeAheadAfter(savedPlans.get(savedPlans.size() - 1).number());
    }
    if (!r.logWasEmpty || !savedPlans.isEmpty()) {
      // make what the log replayed part of a checkpoint, and start a fresh log. With no log file
      // holding a record (empty, or only zeros: a file prepared ahead) the saved state is current,
      // and those files plus the fresh one this proxy writes still replay on top of it (no torn
      // tail can be left behind in an older file): re-sealing a state of several MB would only
      // delay the first request.
      proxy.checkpoint();
    }
    PancakeConfig.Declared declared = config.declaredDistribution();
    if (declared != null) {
      // a declared distribution wins over the saved estimate: swap towards it if it differs
      warmStartFrom(proxy, declared, config);
    }
    return proxy;
  }

  /** {@code pending} with no replica marked as holding its value. */
  private static List<ProxyState.PendingEntry> unmarked(List<ProxyState.PendingEntry> pending) {
    List<ProxyState.PendingEntry> out = new ArrayList<>(pending.size());
    for (ProxyState.PendingEntry e : pending) {
      out.add(new ProxyState.PendingEntry(e.keySlot(), e.value(), new long[0]));
    }
    return out;
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
    Set<Integer> rebound = new HashSet<>();
    long last = WriteAheadLog.replay(dir.path(), Proxy.walKeys(key, s.stateId()), s.walSequence(), rec -> {
      int slot = rec.slot();
      if (slot < 0 || slot >= keyOfSlot.length) {
        throw new StateException("write-ahead log names key slot " + slot + ", outside the capacity");
      }
      if (rec instanceof LogRecord.Bind b) {
        keyOfSlot[slot] = b.key();
        rebound.add(slot);
      } else if (rec instanceof LogRecord.Write w) {
        // no replica is known to hold it: every replica gets it again
        pending.put(slot, new ProxyState.PendingEntry(slot, w.value(), new long[0]));
      } else {
        keyOfSlot[slot] = null; // LogRecord.Free
        pending.remove(slot);
      }
    });
    Recovered r = new Recovered();
    r.keyOfSlot = keyOfSlot;
    LinkedHashSet<Integer> free = new LinkedHashSet<>();
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
    r.deletedSlots = Arrays.stream(s.deletedSlots())
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
  private static void freeDeleted(Proxy proxy, int[] slots) {
    for (int slot : slots) {
      proxy.cache.markDeletedEverywhere(slot);
      proxy.freeIfUnused(slot);
    }
  }

  private static void warmStartFrom(Proxy proxy, PancakeConfig.Declared declared, PancakeConfig config) {
    Map<String, Double> weights = declared.weights();
    int n = proxy.phase.target.keySlots;
    double[] inOrder = DistributionFile.estimate(DistributionFile.weightsInOrder(weights), n);
    double[] estimate = new double[n]; // slots of unlisted keys, and free ones, get none
    int i = 0;
    for (String k : weights.keySet()) {
      int slot = proxy.keys.bindQuietly(NewState.checkedFileKey(declared, config, k));
      estimate[slot] = inOrder[i++];
    }
    double[] current = proxy.phase.target.estimate;
    double distance = 0;
    for (int s = 0; s < n; s++) {
      distance += Math.abs(estimate[s] - current[s]);
    }
    if (distance < 1e-9 && proxy.transitions.estimateSamples == Estimator.EXACT) {
      // the state already holds this estimate (a YCSB load declares its run's): it is described as declared now
      proxy.transitions.estimateSource = declared.source() + " (in place at open)";
      return;
    }
    proxy.transitions.start(estimate, Estimator.EXACT, declared.source() + " (replicas swapped to it at open)");
  }

  /** Replica slots an open reads to tie the store to the state. */
  static final int STORE_CHECK_READS = 3;
  /** Slots read in all when none of the first {@value #STORE_CHECK_READS} is intact. */
  static final int STORE_CHECK_MAX = 64;

  /**
   * Checks that the store holds this state's data before anything is served, with no label of
   * its own: reads {@value #STORE_CHECK_READS} replica slots, a uniformly random sample without
   * replacement in random order, so every label keeps the same access probability (the fixed
   * canary label earlier versions wrote at creation and read at every open was the one label a
   * store saw at a rate of its own). The value key is this state's, so a replica another state
   * sealed, even under the same key file, fails authentication like a tampered one.
   *
   * <p>The open goes on when one replica read is intact: a damaged replica fails only its own
   * key's requests, as at any later tick. When none of the first is, it reads the rest of a
   * {@value #STORE_CHECK_MAX}-slot sample, so a store that lost or damaged part of this state's
   * data opens (with a warning) unless nearly all of it is gone. Whether it reads more depends only
   * on which labels the store dropped or altered, which it knows.
   */
  private static void checkStore(Proxy proxy) {
    int m = proxy.phase.target.replicaSlots;
    int[] slots = sampleSlots(m, Math.min(STORE_CHECK_MAX, m), proxy.random.get());
    int first = Math.min(STORE_CHECK_READS, slots.length);
    StoreCheck check = new StoreCheck();
    check.read(proxy, Arrays.copyOfRange(slots, 0, first));
    if (check.intact > 0) {
      return;
    }
    check.read(proxy, Arrays.copyOfRange(slots, first, slots.length));
    if (check.intact > 0) {
      LOG.log(System.Logger.Level.WARNING, String.format("store %s: %d of the %d replicas of state %s read at open"
          + " are missing or fail authentication; their keys fail when read until they are written again",
          proxy.storeDescription, check.read - check.intact, check.read, proxy.stateDir.path()));
      return;
    }
    if (check.failed == null) {
      throw new StateException("store " + proxy.storeDescription + " does not hold the data of state "
          + proxy.stateDir.path() + (proxy.store.isEmpty()
              ? " (it is empty or was wiped); load the data again into a fresh state"
              : ": it holds data, but none of the " + check.read + " replicas of this state read at open (it lost"
                  + " this state's data, or holds another master key's or another application's data)"));
    }
    throw new IntegrityException("the replicas of store " + proxy.storeDescription + " read at open (" + check.read
        + ", " + check.missing + " of them missing) failed authentication: the store's data was tampered with or"
        + " corrupted, or it was initialized by another PANCAKE state (one proxy per store, one state per store); it"
        + " does not hold the data of state " + proxy.stateDir.path(), check.failed);
  }

  /** What the replicas an open read hold. */
  private static final class StoreCheck {
    int read;
    int intact;
    int missing;
    IntegrityException failed;

    void read(Proxy proxy, int[] slots) {
      if (slots.length == 0) {
        return;
      }
      List<byte[]> labels = new ArrayList<>(slots.length);
      for (int r : slots) {
        labels.add(proxy.label(r));
      }
      List<byte[]> sealed = proxy.store.multiGet(labels);
      read += slots.length;
      for (int i = 0; i < slots.length; i++) {
        if (sealed.get(i) == null) {
          missing++;
          continue;
        }
        try {
          // the label is authenticated: a moved ciphertext fails decryption; the slot is checked as reads do
          if (proxy.codec.view(proxy.aead.decrypt(sealed.get(i), labels.get(i))).replicaSlot() == slots[i]) {
            intact++;
          } else {
            failed = new IntegrityException("replica label " + java.util.HexFormat.of().formatHex(labels.get(i))
                + " holds another replica's data");
          }
        } catch (IntegrityException e) {
          failed = e;
        }
      }
    }
  }

  /**
   * {@code count} distinct slots below {@code m} in random order: the first {@code count} of a
   * uniformly random permutation (Fisher-Yates over a sparse map), so every prefix is a uniform
   * sample and every position uniform.
   */
  static int[] sampleSlots(int m, int count, java.util.random.RandomGenerator random) {
    Map<Integer, Integer> moved = new java.util.HashMap<>();
    int[] out = new int[count];
    for (int i = 0; i < count; i++) {
      int j = i + random.nextInt(m - i);
      int atJ = moved.getOrDefault(j, j);
      moved.put(j, moved.getOrDefault(i, i));
      out[i] = atJ;
    }
    return out;
  }
}
