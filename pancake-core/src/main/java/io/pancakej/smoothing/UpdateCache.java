package io.pancakej.smoothing;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiFunction;

import io.pancakej.smoothing.ProxyState.PendingEntry;

/**
 * PANCAKE's UpdateCache (paper section 4.2, "Supporting writes"): for each key written since its
 * replicas were last all in sync, the latest value (null = deleted) and a bitmap of the replicas
 * that already hold it. Every access to a replica of a cached key, real or fake, writes the cached
 * value back and sets its bit; once every replica has it, the entry goes away.
 *
 * <p>Invariants the engine relies on: (1) a key without an entry has its latest value in every
 * replica; (2) a set bit means the store holds the entry's value in that replica. Entries are
 * immutable and replaced atomically per key ({@link ConcurrentHashMap#compute}); a bit is set only
 * after the store acknowledged the write, and only if the entry's version is still the one written.
 *
 * <p>It also knows which key slots were deleted everywhere: a deletion whose entry completed. That
 * mark is set and cleared inside the same per-key critical section as the entries (a completing
 * deletion sets it, any new entry clears it), so a put racing with the batch that completes a
 * deletion can never be mistaken for a settled deletion and have its key's slot freed.
 */
final class UpdateCache {

  /** One entry; immutable (its log ticket, shared by every copy, turns durable once). */
  static final class Entry {
    final byte[] value;
    final long version;
    final long[] marks;
    final int remaining;
    /** Durable once the write-ahead log holds this value: only then may a replica get it. */
    final LogTicket ticket;

    Entry(byte[] value, long version, int replicas, LogTicket ticket) {
      this(value, version, new long[(replicas + 63) >>> 6], replicas, ticket);
    }

    private Entry(byte[] value, long version, long[] marks, int remaining, LogTicket ticket) {
      this.value = value;
      this.version = version;
      this.marks = marks;
      this.remaining = remaining;
      this.ticket = ticket;
    }

    /** This entry with replica {@code j} marked, or null when that completes it. */
    Entry mark(int j) {
      long bit = 1L << (j & 63);
      if ((marks[j >>> 6] & bit) != 0) {
        return this;
      }
      if (remaining == 1) {
        return null;
      }
      long[] next = marks.clone();
      next[j >>> 6] |= bit;
      return new Entry(value, version, next, remaining - 1, ticket);
    }
  }

  private final ConcurrentHashMap<Integer, Entry> entries = new ConcurrentHashMap<>();
  /** Key slots whose latest value, "absent", every replica holds; changed only under the slot's entry lock. */
  private final Set<Integer> deletedEverywhere = ConcurrentHashMap.newKeySet();

  Entry get(int keySlot) {
    return entries.get(keySlot);
  }

  /** Replaces the slot's entry; a new entry means the slot is no longer deleted everywhere. */
  Entry compute(int keySlot, BiFunction<Integer, Entry, Entry> f) {
    return entries.compute(keySlot, (k, e) -> {
      Entry next = f.apply(k, e);
      if (next != null && next != e) {
        deletedEverywhere.remove(k);
      }
      return next;
    });
  }

  /** True if the slot has no entry and its deletion reached every replica (read atomically). */
  boolean isDeletedEverywhere(int keySlot) {
    if (!deletedEverywhere.contains(keySlot)) {
      return false; // the common case, without taking the slot's lock
    }
    boolean[] out = {false};
    entries.compute(keySlot, (k, e) -> {
      out[0] = e == null && deletedEverywhere.contains(k);
      return e;
    });
    return out[0];
  }

  /** Records that every replica of {@code keySlot} says "absent" and no entry is pending (recovery). */
  void markDeletedEverywhere(int keySlot) {
    entries.compute(keySlot, (k, e) -> {
      if (e == null) {
        deletedEverywhere.add(k);
      }
      return e;
    });
  }

  /** Forgets the mark of a slot that was freed (a later key bound to it starts unmarked). */
  void forgetDeleted(int keySlot) {
    deletedEverywhere.remove(keySlot);
  }

  /** The slots deleted everywhere but still bound (persisted, so a crash does not strand them). */
  int[] deletedSlots() {
    return deletedEverywhere.stream().mapToInt(Integer::intValue).sorted().toArray();
  }

  /**
   * Marks replica {@code j} of {@code keySlot} as holding version {@code version}; returns true if
   * that completed a deletion (the key's slot may then be freed).
   */
  boolean markWritten(int keySlot, long version, int j) {
    boolean[] deletedEverywhere = {false};
    entries.computeIfPresent(keySlot, (k, e) -> {
      if (e.version != version) {
        return e;
      }
      Entry next = e.mark(j);
      deletedEverywhere[0] = next == null && e.value == null;
      if (deletedEverywhere[0]) {
        this.deletedEverywhere.add(k);
      }
      return next;
    });
    return deletedEverywhere[0];
  }

  /**
   * Re-expresses every entry in the indices of a transition's target plan: marks of replicas the
   * key keeps (index below its stable count) stay, the rest are dropped. Entries already complete
   * in the new plan go away; returns the key slots whose deletion thereby completed.
   */
  List<Integer> retarget(Transition t) {
    List<Integer> deleted = new ArrayList<>();
    for (Integer slot : new ArrayList<>(entries.keySet())) {
      entries.computeIfPresent(slot, (k, e) -> {
        int keep = t.stableCount(k);
        int replicas = t.target.replicaCount(k);
        long[] marks = new long[(replicas + 63) >>> 6];
        int set = 0;
        for (int j = 0; j < keep; j++) {
          if ((e.marks[j >>> 6] & (1L << (j & 63))) != 0) {
            marks[j >>> 6] |= 1L << (j & 63);
            set++;
          }
        }
        if (set == replicas) {
          if (e.value == null) {
            deleted.add(k);
            deletedEverywhere.add(k);
          }
          return null;
        }
        return new Entry(e.value, e.version, marks, replicas - set, e.ticket);
      });
    }
    return deleted;
  }

  int size() {
    return entries.size();
  }

  /** Bytes of cached values, for memory figures. */
  long valueBytes() {
    long total = 0;
    for (Entry e : entries.values()) {
      total += e.value == null ? 0 : e.value.length;
    }
    return total;
  }

  /** The tickets of entries whose value is not in the log yet (a checkpoint waits for them). */
  List<LogTicket> unsettledTickets() {
    List<LogTicket> out = new ArrayList<>();
    for (Entry e : entries.values()) {
      if (!e.ticket.isDurable()) {
        out.add(e.ticket);
      }
    }
    return out;
  }

  List<PendingEntry> snapshot() {
    List<PendingEntry> out = new ArrayList<>(entries.size());
    for (Map.Entry<Integer, Entry> e : entries.entrySet()) {
      out.add(new PendingEntry(e.getKey(), e.getValue().value, e.getValue().marks.clone()));
    }
    return out;
  }

  void restore(List<PendingEntry> pending, ReplicaPlan plan, long version) {
    for (PendingEntry p : pending) {
      int replicas = plan.replicaCount(p.keySlot());
      int set = 0;
      for (long w : p.updatedReplicas()) {
        set += Long.bitCount(w);
      }
      long[] marks = new long[(replicas + 63) >>> 6];
      System.arraycopy(p.updatedReplicas(), 0, marks, 0, Math.min(marks.length, p.updatedReplicas().length));
      entries.put(p.keySlot(), new Entry(p.value(), version, marks, Math.max(1, replicas - set), LogTicket.DURABLE));
    }
  }
}
