package io.pancakej.smoothing;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.List;

import io.pancakej.StateException;

/**
 * A swapping transition's plan, saved ahead of its install so that its swaps need not wait for a
 * checkpoint (none reaches the store before the plan is durable): the layout it starts from (a
 * digest of who owns which replica slot), the plan it swaps to, its swaps, and where its estimate
 * came from. A reopen applies the saved plans that follow the state file's layout, in the order
 * they were saved ({@code Recovery}); a checkpoint that holds the transition makes them obsolete.
 * It is small next to a checkpoint (no key table, no UpdateCache) and needs no copy while the
 * ticks pause: plans never change once built.
 */
record SavedPlan(byte[] fromLayout, double[] estimate, int[] ownerOf, int[] indexOf, int[] swaps, long estimateSamples,
    String estimateSource) {

  private static final int FORMAT = 1;

  /** The plan {@code t} swaps to, saved as starting from {@code t.from}'s layout. */
  static SavedPlan of(Transition t, long estimateSamples, String estimateSource) {
    ReplicaPlan to = t.target;
    return new SavedPlan(layout(t.from), to.estimate, to.ownerOf, to.indexOf, t.pendingSlots(), estimateSamples,
        estimateSource);
  }

  /** Whether this plan was built as the successor of {@code plan}'s layout. */
  boolean startsFrom(ReplicaPlan plan) {
    return MessageDigest.isEqual(fromLayout, layout(plan));
  }

  /** The plan saved. */
  ReplicaPlan plan() {
    return ReplicaPlan.restore(estimate, ownerOf, indexOf);
  }

  /** Where a reopen resumes: the last saved plan that applies, the plan it swaps from, and the plan itself. */
  record Resumed(SavedPlan saved, ReplicaPlan from, ReplicaPlan to) {
    /** The transition in force, durable: every swap pending (one already in the store is found so when read). */
    Transition transition() {
      Transition t = new Transition(from, to, saved.swaps);
      t.markDurable();
      return t;
    }
  }

  /**
   * The saved plans that follow {@code saved}, the plan the state file serves, applied in their
   * order: each that starts from the layout in force is applied, and one that starts from the same
   * layout as the last applied replaces it (that one was never installed: an installed plan
   * changes the layout); the rest are held by the state file already. Null if none applies.
   */
  static Resumed resume(ReplicaPlan saved, List<StateDirectory.NumberedPlan> plans) {
    ReplicaPlan current = saved;
    ReplicaPlan base = null;
    SavedPlan last = null;
    for (StateDirectory.NumberedPlan numbered : plans) {
      SavedPlan p = numbered.plan();
      if (p.startsFrom(current)) {
        base = current;
      } else if (base == null || !p.startsFrom(base)) {
        continue;
      }
      current = p.plan();
      last = p;
    }
    return last == null ? null : new Resumed(last, base, current);
  }

  /** SHA-256 of a plan's layout: the owner and index of every replica slot (not the estimate, which a reweighting changes in place). */
  static byte[] layout(ReplicaPlan plan) {
    try {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      ByteBuffer buf = ByteBuffer.allocate(8 * 1024);
      for (int r = 0; r < plan.ownerOf.length; r++) {
        if (buf.remaining() < 8) {
          sha.update(buf.flip());
          buf.clear();
        }
        buf.putInt(plan.ownerOf[r]).putInt(plan.indexOf[r]);
      }
      sha.update(buf.flip());
      return sha.digest();
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
  }

  /** Serializes to bytes (the caller seals them). */
  byte[] toBytes() {
    try {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream(64 + estimate.length * 8 + ownerOf.length * 8
          + swaps.length * 4);
      DataOutputStream out = new DataOutputStream(bytes);
      out.writeInt(FORMAT);
      ProxyState.writeBytes(out, fromLayout);
      out.writeInt(estimate.length);
      for (double p : estimate) {
        out.writeDouble(p);
      }
      out.writeInt(ownerOf.length);
      for (int r = 0; r < ownerOf.length; r++) {
        out.writeInt(ownerOf[r]);
        out.writeInt(indexOf[r]);
      }
      out.writeInt(swaps.length);
      for (int r : swaps) {
        out.writeInt(r);
      }
      out.writeLong(estimateSamples);
      out.writeUTF(estimateSource);
      out.flush();
      return bytes.toByteArray();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Parses {@link #toBytes()} output; a short or malformed input is a {@link StateException}. */
  static SavedPlan fromBytes(byte[] data) {
    try {
      DataInputStream in = new DataInputStream(new ByteArrayInputStream(data));
      int format = in.readInt();
      if (format != FORMAT) {
        throw new StateException("saved plan has format " + format + ", this version reads " + FORMAT);
      }
      byte[] layout = ProxyState.readBytes(in);
      double[] estimate = new double[ProxyState.checkedLength(in.readInt(), data.length)];
      for (int i = 0; i < estimate.length; i++) {
        estimate[i] = in.readDouble();
      }
      int m = ProxyState.checkedLength(in.readInt(), data.length);
      int[] owner = new int[m];
      int[] index = new int[m];
      for (int r = 0; r < m; r++) {
        owner[r] = in.readInt();
        index[r] = in.readInt();
      }
      int[] swaps = new int[ProxyState.checkedLength(in.readInt(), data.length)];
      for (int i = 0; i < swaps.length; i++) {
        swaps[i] = in.readInt();
      }
      long samples = in.readLong();
      String source = in.readUTF();
      if (layout == null || in.available() != 0) {
        throw new StateException("saved plan is damaged (no layout, or trailing bytes)");
      }
      return new SavedPlan(layout, estimate, owner, index, swaps, samples, source);
    } catch (EOFException e) {
      throw new StateException("saved plan is truncated", e);
    } catch (IOException e) {
      throw new StateException("saved plan cannot be parsed: " + e.getMessage(), e);
    }
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof SavedPlan p && Arrays.equals(fromLayout, p.fromLayout) && Arrays.equals(estimate, p.estimate)
        && Arrays.equals(ownerOf, p.ownerOf) && Arrays.equals(indexOf, p.indexOf) && Arrays.equals(swaps, p.swaps)
        && estimateSamples == p.estimateSamples && estimateSource.equals(p.estimateSource);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(fromLayout) * 31 + Arrays.hashCode(swaps);
  }
}
