package io.pancakej.smoothing;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.pancakej.smoothing.TickServing.Prepared;
import io.pancakej.smoothing.TickServing.WriteBack;

/**
 * The write-backs a tick's read could not see: tick k's call carries the write-back of tick
 * {@code k - lag}, so the replicas ticks {@code k - lag + 1 .. k - 1} wrote still held their older
 * ciphertexts in the store when tick k read them. Serving tick k takes those replicas from here
 * instead, the latest write first, so every tick sees every earlier one. Kept by the serving thread
 * (and by the thread that seals the owed write-backs again at a plan change, while no tick is
 * served).
 */
final class UnsentWriteBacks {
  private record Latest(long tick, WriteBack writeBack) {}

  private final int lag;
  /** The write-backs of the last ticks served, in tick order. */
  private final ArrayDeque<Prepared> recent = new ArrayDeque<>();
  /** For each replica they write, the latest of them. */
  private final Map<Integer, Latest> latest = new HashMap<>();

  UnsentWriteBacks(int lag) {
    this.lag = lag;
  }

  /** Adds the write-back of the tick just served (ticks come in order). */
  void add(Prepared p) {
    recent.addLast(p);
    for (Map.Entry<Integer, WriteBack> e : p.plan().entrySet()) {
      latest.put(e.getKey(), new Latest(p.tick(), e.getValue()));
    }
  }

  /** The write-backs of the ticks before {@code tick} that its call did not carry, for the replicas it read. */
  Map<Integer, WriteBack> unseenBy(long tick, int[] replicas) {
    while (!recent.isEmpty() && recent.peekFirst().tick() <= tick - lag) {
      Prepared stored = recent.pollFirst();
      for (Integer r : stored.plan().keySet()) {
        Latest l = latest.get(r);
        if (l != null && l.tick() == stored.tick()) {
          latest.remove(r);
        }
      }
    }
    if (latest.isEmpty()) {
      return Map.of();
    }
    Map<Integer, WriteBack> out = null;
    for (int r : replicas) {
      Latest l = latest.get(r);
      if (l != null && l.tick() < tick) {
        if (out == null) {
          out = new HashMap<>(8);
        }
        out.put(r, l.writeBack());
      }
    }
    return out == null ? Map.of() : out;
  }

  /** Replaces everything with {@code sealedAgain} (in tick order): the owed write-backs sealed again under a new phase. */
  void replaceAll(List<Prepared> sealedAgain) {
    clear();
    for (Prepared p : sealedAgain) {
      add(p);
    }
  }

  /** Forgets everything: every write-back is stored (the next tick reads what the store holds). */
  void clear() {
    recent.clear();
    latest.clear();
  }
}
