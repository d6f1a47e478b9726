package io.pancakej.smoothing;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

import io.pancakej.StateException;

/**
 * A snapshot of everything a PANCAKE proxy must carry from one process to the next: sizes, the
 * estimate, the replica plan (owner and index of every replica slot), the key table, the order in
 * which free key slots are handed out, the pending UpdateCache entries, the key slots whose
 * deletion reached every replica but which were still in use when the snapshot was taken (a reopen
 * frees them; without them a crash would strand those slots as bound keys forever), where the
 * estimate came from (how many accesses it was learned from, -1 when declared, and a line saying
 * what it is), and the value key's epoch and its reserved encryption count (a lower bound; the
 * state directory's epoch file has the latest, see {@link io.pancakej.crypto.EpochAead}).
 *
 * <p>Format 4 (key epochs: every replica carries an epoch header) replaced format 3; a format-3
 * state's replicas cannot be read by this version.
 */
record ProxyState(
    String storeDescription,
    byte[] stateId,
    int capacity,
    int valueSize,
    int keySize,
    double[] estimate,
    int[] ownerOf,
    int[] indexOf,
    byte[][] keyOfSlot,
    int[] freeOrder,
    int nextFree,
    List<PendingEntry> pending,
    TransitionState transition,
    long walSequence,
    int[] deletedSlots,
    long estimateSamples,
    String estimateSource,
    KeyEpoch keyEpoch) {

  private static final int FORMAT = 4;

  /** The same state, to be paired with write-ahead log files from {@code seq} on. */
  ProxyState withWalSequence(long seq) {
    return new ProxyState(storeDescription, stateId, capacity, valueSize, keySize, estimate, ownerOf, indexOf,
        keyOfSlot, freeOrder, nextFree, pending, transition, seq, deletedSlots, estimateSamples,
        estimateSource, keyEpoch);
  }

  /**
   * The value key's epoch and the number of encryptions that may have been done under it (a
   * reservation: at least the real number). Ordered by epoch, then count.
   */
  record KeyEpoch(int epoch, long used) implements Comparable<KeyEpoch> {
    @Override
    public int compareTo(KeyEpoch o) {
      return epoch != o.epoch ? Integer.compare(epoch, o.epoch) : Long.compare(used, o.used);
    }

    /** The later of two records. */
    static KeyEpoch max(KeyEpoch a, KeyEpoch b) {
      return a.compareTo(b) >= 0 ? a : b;
    }
  }

  /** A replica swap in progress: the plan it started from and the slots not yet swapped. */
  record TransitionState(double[] fromEstimate, int[] fromOwnerOf, int[] fromIndexOf, int[] pendingSwaps) {}

  /** One UpdateCache entry: the latest value (null = deleted) and which replicas already hold it. */
  record PendingEntry(int keySlot, byte[] value, long[] updatedReplicas) {}

  /**
   * A one-slot state with every part present (a key, an UpdateCache entry, a transition, a
   * deleted slot), for a rehearsal of the save's path ({@code Checkpointer.rehearse}): the same
   * code on a few bytes.
   */
  ProxyState rehearsal() {
    byte[] key = new byte[keySize];
    return new ProxyState(storeDescription, stateId, 1, valueSize, keySize, new double[] {1}, new int[] {0, 0},
        new int[] {0, 1}, new byte[][] {key}, new int[] {0}, 1,
        List.of(new PendingEntry(0, new byte[valueSize], new long[] {1})),
        new TransitionState(new double[] {1}, new int[] {0, 0}, new int[] {1, 0}, new int[] {0}), walSequence,
        new int[] {0}, estimateSamples, estimateSource, keyEpoch);
  }

  /** Serializes to bytes (the caller seals them). */
  byte[] toBytes() {
    try {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream(64 + capacity * 64);
      DataOutputStream out = new DataOutputStream(bytes);
      out.writeInt(FORMAT);
      out.writeUTF(storeDescription);
      writeBytes(out, stateId);
      out.writeInt(capacity);
      out.writeInt(valueSize);
      out.writeInt(keySize);
      out.writeInt(estimate.length);
      for (double p : estimate) {
        out.writeDouble(p);
      }
      out.writeInt(ownerOf.length);
      for (int i = 0; i < ownerOf.length; i++) {
        out.writeInt(ownerOf[i]);
        out.writeInt(indexOf[i]);
      }
      out.writeInt(keyOfSlot.length);
      for (byte[] key : keyOfSlot) {
        writeBytes(out, key);
      }
      out.writeInt(freeOrder.length);
      for (int slot : freeOrder) {
        out.writeInt(slot);
      }
      out.writeInt(nextFree);
      out.writeInt(pending.size());
      for (PendingEntry e : pending) {
        out.writeInt(e.keySlot());
        writeBytes(out, e.value());
        out.writeInt(e.updatedReplicas().length);
        for (long word : e.updatedReplicas()) {
          out.writeLong(word);
        }
      }
      out.writeBoolean(transition != null);
      if (transition != null) {
        out.writeInt(transition.fromEstimate().length);
        for (double p : transition.fromEstimate()) {
          out.writeDouble(p);
        }
        out.writeInt(transition.fromOwnerOf().length);
        for (int i = 0; i < transition.fromOwnerOf().length; i++) {
          out.writeInt(transition.fromOwnerOf()[i]);
          out.writeInt(transition.fromIndexOf()[i]);
        }
        out.writeInt(transition.pendingSwaps().length);
        for (int r : transition.pendingSwaps()) {
          out.writeInt(r);
        }
      }
      out.writeLong(walSequence);
      out.writeInt(deletedSlots.length);
      for (int slot : deletedSlots) {
        out.writeInt(slot);
      }
      out.writeLong(estimateSamples);
      out.writeUTF(estimateSource);
      out.writeInt(keyEpoch.epoch());
      out.writeLong(keyEpoch.used());
      out.flush();
      return bytes.toByteArray();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Parses {@link #toBytes()} output; a short or malformed input is a {@link StateException}. */
  static ProxyState fromBytes(byte[] data) {
    try {
      DataInputStream in = new DataInputStream(new ByteArrayInputStream(data));
      int format = in.readInt();
      if (format == 3) {
        throw new StateException("proxy state has format 3, written by an earlier PANCAKE-J whose replicas carry"
            + " no key-epoch header; this version reads format " + FORMAT + " only: load the data again into a"
            + " fresh state (new pancake.state.dir and an empty store)");
      }
      if (format != FORMAT) {
        throw new StateException("proxy state has format " + format + ", this version reads " + FORMAT);
      }
      String store = in.readUTF();
      byte[] id = readBytes(in);
      int capacity = in.readInt();
      int valueSize = in.readInt();
      int keySize = in.readInt();
      double[] estimate = new double[checkedLength(in.readInt(), data.length)];
      for (int i = 0; i < estimate.length; i++) {
        estimate[i] = in.readDouble();
      }
      int m = checkedLength(in.readInt(), data.length);
      int[] owner = new int[m];
      int[] index = new int[m];
      for (int i = 0; i < m; i++) {
        owner[i] = in.readInt();
        index[i] = in.readInt();
      }
      byte[][] keys = new byte[checkedLength(in.readInt(), data.length)][];
      for (int i = 0; i < keys.length; i++) {
        keys[i] = readBytes(in);
      }
      int[] free = new int[checkedLength(in.readInt(), data.length)];
      for (int i = 0; i < free.length; i++) {
        free[i] = in.readInt();
      }
      int nextFree = in.readInt();
      int pendingCount = checkedLength(in.readInt(), data.length);
      List<PendingEntry> pending = new ArrayList<>(pendingCount);
      for (int i = 0; i < pendingCount; i++) {
        int slot = in.readInt();
        byte[] value = readBytes(in);
        long[] words = new long[checkedLength(in.readInt(), data.length)];
        for (int w = 0; w < words.length; w++) {
          words[w] = in.readLong();
        }
        pending.add(new PendingEntry(slot, value, words));
      }
      TransitionState transition = null;
      if (in.readBoolean()) {
        double[] fromEstimate = new double[checkedLength(in.readInt(), data.length)];
        for (int i = 0; i < fromEstimate.length; i++) {
          fromEstimate[i] = in.readDouble();
        }
        int fm = checkedLength(in.readInt(), data.length);
        int[] fromOwner = new int[fm];
        int[] fromIndex = new int[fm];
        for (int i = 0; i < fm; i++) {
          fromOwner[i] = in.readInt();
          fromIndex[i] = in.readInt();
        }
        int[] swaps = new int[checkedLength(in.readInt(), data.length)];
        for (int i = 0; i < swaps.length; i++) {
          swaps[i] = in.readInt();
        }
        transition = new TransitionState(fromEstimate, fromOwner, fromIndex, swaps);
      }
      long walSequence = in.readLong();
      int[] deleted = new int[checkedLength(in.readInt(), data.length)];
      for (int i = 0; i < deleted.length; i++) {
        deleted[i] = in.readInt();
      }
      long samples = in.readLong();
      String source = in.readUTF();
      int epoch = in.readInt();
      long used = in.readLong();
      if (epoch < 0 || used < 0) {
        throw new StateException("proxy state is damaged (negative key epoch or count)");
      }
      if (in.available() != 0) {
        throw new StateException("proxy state has " + in.available() + " unexpected trailing bytes");
      }
      return new ProxyState(store, id, capacity, valueSize, keySize, estimate, owner, index, keys, free, nextFree,
          pending, transition, walSequence, deleted, samples, source, new KeyEpoch(epoch, used));
    } catch (EOFException e) {
      throw new StateException("proxy state is truncated", e);
    } catch (IOException e) {
      throw new StateException("proxy state cannot be parsed: " + e.getMessage(), e);
    }
  }

  static int checkedLength(int length, int bound) {
    if (length < 0 || length > bound) {
      throw new StateException("proxy state is damaged (a length of " + length + " is out of range)");
    }
    return length;
  }

  static void writeBytes(DataOutputStream out, byte[] b) throws IOException {
    if (b == null) {
      out.writeInt(-1);
    } else {
      out.writeInt(b.length);
      out.write(b);
    }
  }

  static byte[] readBytes(DataInputStream in) throws IOException {
    int length = in.readInt();
    if (length == -1) {
      return null;
    }
    if (length < 0 || length > in.available()) {
      throw new StateException("proxy state is damaged (a byte string of " + length + " bytes overruns the file)");
    }
    byte[] b = new byte[length];
    in.readFully(b);
    return b;
  }
}
