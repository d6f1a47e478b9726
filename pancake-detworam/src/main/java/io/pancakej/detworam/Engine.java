package io.pancakej.detworam;

import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.UnaryOperator;

import io.pancakej.IntegrityException;
import io.pancakej.StateException;
import io.pancakej.store.KvStore;

/**
 * The physical side of a {@link DetWoOramClient}: the write step (refresh sources read, one
 * holding slot and k main blocks sealed and sent), the one-block read, the read of an absent key,
 * the write that failed to reach the store and is sent again, initialization of a new store and
 * the replay of writes beyond a saved state. It owns the write counter and moves the
 * {@link PositionMap}. Not thread-safe: the client's lock guards it.
 */
final class Engine {
  /** Blocks per multi-put while initializing the store. */
  private static final int INIT_CHUNK = 512;
  private static final System.Logger LOG = System.getLogger(DetWoOramClient.class.getName());

  private final KvStore store;
  private final Schedule schedule;
  private final Labels labels;
  private final BlockCodec codec;
  private final PositionMap map;
  private final SecureRandom random = new SecureRandom();
  private long steps;
  private boolean recovering;
  private List<byte[]> pendingLabels;
  private List<byte[]> pendingValues;

  Engine(KvStore store, Schedule schedule, Labels labels, BlockCodec codec, PositionMap map, long steps,
      List<byte[]> pendingLabels, List<byte[]> pendingValues) {
    this.store = store;
    this.schedule = schedule;
    this.labels = labels;
    this.codec = codec;
    this.map = map;
    this.steps = steps;
    this.pendingLabels = pendingLabels;
    this.pendingValues = pendingValues;
  }

  /** Logical writes done: the write counter. */
  long steps() {
    return steps;
  }

  /** Labels of a write step not yet sent (empty if none). */
  List<byte[]> pendingLabels() {
    return pendingLabels;
  }

  List<byte[]> pendingValues() {
    return pendingValues;
  }

  /** The value of bound block {@code id}: one read of the block the position map names. */
  byte[] read(int id) {
    byte[] label = positionLabel(id);
    return openAt(id, label, store.multiGet(List.of(label)).get(0)).value();
  }

  /** Writes every main block and holding slot, empty and freshly encrypted, in chunks. */
  void initialize() {
    long total = (long) schedule.mainBlocks + schedule.holdingSlots;
    boolean verbose = total > 100_000;
    int decile = 1;
    List<byte[]> chunkLabels = new ArrayList<>(INIT_CHUNK);
    List<byte[]> chunkValues = new ArrayList<>(INIT_CHUNK);
    for (long n = 0; n < total; n++) {
      boolean main = n < schedule.mainBlocks;
      int index = (int) (main ? n : n - schedule.mainBlocks);
      byte[] label = main ? labels.main(index) : labels.holding(index);
      chunkLabels.add(label);
      chunkValues.add(codec.seal(label, main ? index : PositionMap.NONE, Schedule.INIT, null, null));
      if (chunkLabels.size() == INIT_CHUNK || n == total - 1) {
        store.multiPut(chunkLabels, chunkValues);
        chunkLabels.clear();
        chunkValues.clear();
      }
      if (verbose && (n + 1) * 10 >= total * decile) {
        LOG.log(System.Logger.Level.INFO, "detworam: initialized {0} of {1} blocks ({2}%)", n + 1, total, decile * 10);
        decile++;
      }
    }
  }

  /**
   * Replays the writes the store holds beyond the saved state (a crash after the last save):
   * holding slot {@code steps mod M} sealed by write {@code steps} names the block, key and value
   * that write stored; redoing the write step with them restores the position map and rewrites
   * whatever part of the step a non-atomic store may have missed.
   */
  long replay(Path stateDir) {
    long from = steps;
    recovering = true;
    try {
      while (steps - from < schedule.holdingSlots) {
        int slot = schedule.holdingSlot(steps);
        byte[] label = labels.holding(slot);
        BlockCodec.Block blk = codec.open(label, store.get(label), "holding slot " + slot);
        if (blk.step() < steps) {
          break;
        }
        if (blk.step() > steps || blk.id() < 0 || blk.id() >= map.capacity) {
          throw new StateException("the store holds writes up to step " + blk.step() + " but the DetWoORAM state in "
              + stateDir + " was saved at step " + steps + ", too far back to replay (at most M - 1 = "
              + (schedule.holdingSlots - 1) + " writes): restore the state directory that belongs to this store");
        }
        int id = blk.id();
        if (blk.live()) {
          int bound = map.idOf(blk.key());
          if (map.keyOf[id] == null && bound < 0) {
            write(id, blk.key(), false, current -> blk.value());
            continue;
          }
          if (bound != id) {
            throw new IntegrityException("replaying write " + steps + ": its key is bound to block " + bound
                + ", not " + id + "; the store or the state file was modified");
          }
        }
        write(id, map.keyOf[id], false, current -> blk.value());
      }
    } finally {
      recovering = false;
    }
    return steps - from;
  }

  void flushPending() {
    if (!pendingLabels.isEmpty()) {
      store.multiPut(pendingLabels, pendingValues);
      pendingLabels = List.of();
      pendingValues = List.of();
    }
  }

  /**
   * What an operation on an absent key does: read one uniformly random main block (and check it),
   * so that the store sees one read, as for a present key's get, and an outage fails it.
   */
  void readRandomMainBlock() {
    int i = random.nextInt(map.capacity);
    byte[] label = labels.main(i);
    BlockCodec.Block blk = codec.open(label, store.multiGet(List.of(label)).get(0), "main block " + i);
    long expected = schedule.lastMainWrite(i, steps);
    if (blk.step() != expected || blk.id() != i) {
      throw new IntegrityException("main block " + i + " holds block " + blk.id() + " of write " + blk.step()
          + ", expected block " + i + " of write " + expected + ": the store was rolled back or modified, or the"
          + " state file is older than the store");
    }
  }

  /** Label of the position holding block {@code id}'s newest copy. */
  private byte[] positionLabel(int id) {
    int slot = map.where[id];
    return slot == PositionMap.MAIN ? labels.main(id) : labels.holding(slot);
  }

  /**
   * Opens block {@code id}'s newest copy read from {@link #positionLabel}, checking that it is
   * the copy the schedule last wrote there, of this block, and live exactly when a key is bound.
   */
  private BlockCodec.Block openAt(int id, byte[] label, byte[] sealed) {
    int slot = map.where[id];
    boolean main = slot == PositionMap.MAIN;
    String where = main ? "main block " + id : "holding slot " + slot + " (block " + id + ")";
    BlockCodec.Block blk = codec.open(label, sealed, where);
    long expected = main ? schedule.lastMainWrite(id, steps) : schedule.lastHoldingWrite(slot, steps);
    if (blk.step() != expected || blk.id() != id) {
      throw new IntegrityException(where + " holds block " + blk.id() + " of write " + blk.step() + ", expected block "
          + id + " of write " + expected + ": the store was rolled back or modified, or the state file is older"
          + " than the store");
    }
    byte[] key = map.keyOf[id];
    if (blk.live() != (key != null) || (key != null && !Arrays.equals(key, blk.key()))) {
      throw new IntegrityException(where + " does not hold the key the position map binds to block " + id
          + ": the store or the state file was modified");
    }
    return blk;
  }

  /**
   * One logical write of block {@code id}: reads the refresh sources (and, if {@code readCurrent},
   * the block's newest copy) in one multi-get, computes the new value ({@code next}, null = a
   * tombstone), then seals it into the next holding slot and the refreshed main blocks in one
   * multi-put. If {@code next} throws, nothing is written and nothing changes.
   */
  void write(int id, byte[] key, boolean readCurrent, UnaryOperator<byte[]> next) {
    long s = steps;
    int slot = schedule.holdingSlot(s);
    int[] targets = schedule.refreshedBy(s);
    byte[] current = null;
    byte[][] refreshed;
    if (recovering) {
      refreshed = replayedRefreshes(targets, s);
    } else {
      List<byte[]> readLabels = new ArrayList<>(targets.length + 1);
      if (readCurrent) {
        readLabels.add(positionLabel(id));
      }
      for (int i : targets) {
        readLabels.add(positionLabel(i));
      }
      List<byte[]> sealed = store.multiGet(readLabels);
      int offset = readCurrent ? 1 : 0;
      current = readCurrent ? openAt(id, readLabels.get(0), sealed.get(0)).value() : null;
      refreshed = new byte[targets.length][];
      for (int j = 0; j < targets.length; j++) {
        refreshed[j] = openAt(targets[j], readLabels.get(offset + j), sealed.get(offset + j)).value();
      }
    }
    byte[] value = next.apply(current);
    byte[] newKey = value == null ? null : key;

    List<byte[]> outLabels = new ArrayList<>(targets.length + 1);
    List<byte[]> outValues = new ArrayList<>(targets.length + 1);
    byte[] holdingLabel = labels.holding(slot);
    outLabels.add(holdingLabel);
    outValues.add(codec.seal(holdingLabel, id, s, newKey, value));
    for (int j = 0; j < targets.length; j++) {
      int i = targets[j];
      byte[] mainLabel = labels.main(i);
      outLabels.add(mainLabel);
      if (i == id) {
        outValues.add(codec.seal(mainLabel, i, s, newKey, value));
      } else {
        outValues.add(codec.seal(mainLabel, i, s, map.keyOf[i], refreshed[j]));
      }
    }

    // commit at the proxy, then send: a failed multi-put is sent again before anything else
    if (value == null && map.keyOf[id] != null) {
      map.unbind(id);
    } else if (value != null && map.keyOf[id] == null) {
      map.bind(key, id);
    }
    map.moveToHolding(id, slot);
    for (int i : targets) {
      map.moveToMain(i);
    }
    steps = s + 1;
    pendingLabels = outLabels;
    pendingValues = outValues;
    flushPending();
  }

  /**
   * The values of the blocks write {@code s} refreshes, while replaying it: a main block the
   * store already holds from write {@code s} carries its value (its source may since have been
   * overwritten by a later write the store also holds); otherwise write {@code s} is the last,
   * partial one, and its sources are intact (a holding slot read by write s was sealed after
   * write s - M, so is overwritten only after write s).
   */
  private byte[][] replayedRefreshes(int[] targets, long s) {
    List<byte[]> mainLabels = new ArrayList<>(targets.length);
    for (int i : targets) {
      mainLabels.add(labels.main(i));
    }
    List<byte[]> sealed = store.multiGet(mainLabels);
    byte[][] values = new byte[targets.length][];
    for (int j = 0; j < targets.length; j++) {
      int i = targets[j];
      BlockCodec.Block blk = codec.open(mainLabels.get(j), sealed.get(j), "main block " + i);
      if (blk.step() == s && blk.id() == i) {
        values[j] = blk.value();
      } else {
        byte[] label = positionLabel(i);
        values[j] = openAt(i, label, store.get(label)).value();
      }
    }
    return values;
  }

}
