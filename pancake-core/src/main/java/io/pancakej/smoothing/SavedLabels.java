package io.pancakej.smoothing;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import io.pancakej.PancakeClient;
import io.pancakej.StateException;
import io.pancakej.crypto.MasterKey;

/**
 * Which store label belongs to which key in a saved state: the ground truth an audit scores a
 * frequency-analysis attack against ({@link PancakeClient#labelOwners}). Read-only: it takes the
 * state directory's lock, so no proxy can have the state open, and writes nothing.
 */
final class SavedLabels {
  private SavedLabels() {}

  static PancakeClient.LabelOwners read(Path stateDir, MasterKey key) {
    if (!StateDirectory.exists(stateDir)) {
      throw new StateException("no PANCAKE state in " + stateDir.toAbsolutePath());
    }
    ProxyState s;
    byte[][] keyOfSlot;
    int[] ownerOf; // the plan being served (a swap in progress moves towards it)
    try (StateDirectory dir = StateDirectory.lock(stateDir)) {
      s = dir.load(key);
      // a plan saved ahead after the checkpoint is the one a reopen serves (a killed proxy's)
      SavedPlan.Resumed resumed = SavedPlan.resume(ReplicaPlan.restore(s.estimate(), s.ownerOf(), s.indexOf()),
          dir.loadPlans(key, s.stateId()));
      ownerOf = resumed == null ? s.ownerOf() : resumed.to().ownerOf;
      // the key table as a reopen would see it: bindings logged after the checkpoint count (a
      // closed proxy left none; a killed one may have)
      keyOfSlot = s.keyOfSlot().clone();
      WriteAheadLog.replay(dir.path(), Proxy.walKeys(key, s.stateId()), s.walSequence(), rec -> {
        if (rec.slot() < 0 || rec.slot() >= keyOfSlot.length) {
          throw new StateException("write-ahead log names key slot " + rec.slot() + ", outside the capacity");
        }
        if (rec instanceof LogRecord.Bind b) {
          keyOfSlot[b.slot()] = b.key();
        } else if (rec instanceof LogRecord.Free f) {
          keyOfSlot[f.slot()] = null;
        }
      });
    }
    Labels labels = new Labels(key);
    List<byte[]> all = new ArrayList<>(ownerOf.length);
    List<byte[]> keys = new ArrayList<>(ownerOf.length);
    for (int r = 0; r < ownerOf.length; r++) {
      all.add(labels.replica(r));
      int slot = ownerOf[r];
      keys.add(slot >= 0 && slot < keyOfSlot.length ? keyOfSlot[slot] : null);
    }
    return new PancakeClient.LabelOwners(Collections.unmodifiableList(all), Collections.unmodifiableList(keys));
  }
}
