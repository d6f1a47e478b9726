package io.pancakej.smoothing;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

import io.pancakej.IntegrityException;
import io.pancakej.smoothing.TickServing.WriteBack;

/**
 * Opens the replicas a tick read: decrypts them (both cores for a large tick) and checks that
 * each holds what the phase says it holds, or takes them from a write-back not yet stored.
 */
final class ReplicaOpener {
  private final Proxy proxy;

  ReplicaOpener(Proxy proxy) {
    this.proxy = proxy;
  }

  /**
   * What a replica holds once write-back {@code w} is stored (the proxy sealed it: nothing to
   * authenticate). A replica marked lost stays as unreadable as if it had been read back.
   */
  ReplicaCodec.View writtenView(byte[] label, WriteBack w) {
    ReplicaCodec.View view = proxy.codec.view(w.plaintext());
    if (view.kind() == ReplicaCodec.LOST) {
      throw lost(label);
    }
    return view;
  }

  private static IntegrityException lost(byte[] label) {
    return new IntegrityException("replica label " + java.util.HexFormat.of().formatHex(label)
        + " was found forged, corrupted or lost earlier (its content is gone)");
  }

  /**
   * Decrypts every distinct replica a tick read and {@code written} does not cover, in parallel
   * when the tick is large: element i is the plaintext, the {@link IntegrityException} its
   * authentication failed with, or null (missing, covered, or not the replica's first access).
   */
  Object[] decryptAll(int[] replicas, List<byte[]> labels, List<byte[]> sealed, Map<Integer, WriteBack> written) {
    java.util.Set<Integer> seen = new java.util.HashSet<>(replicas.length * 2);
    boolean[] first = new boolean[replicas.length];
    for (int i = 0; i < replicas.length; i++) {
      first[i] = seen.add(replicas[i]) && !written.containsKey(replicas[i]);
    }
    Object[] out = new Object[labels.size()];
    inParallel(out.length, i -> out[i] = !first[i] || sealed.get(i) == null ? null : decrypted(sealed.get(i), labels.get(i)));
    return out;
  }

  /** Decrypts replica {@code r} and checks that it holds what the phase says it holds. */
  ReplicaCodec.View open(Phase p, int r, byte[] label, byte[] sealed) {
    return open(p, r, label, sealed, sealed == null ? null : decrypted(sealed, label));
  }

  private Object decrypted(byte[] sealed, byte[] label) {
    try {
      return proxy.aead.decrypt(sealed, label);
    } catch (IntegrityException e) {
      return e;
    }
  }

  /**
   * Runs {@code work} for 0..n-1; a large tick's share of it on the common pool as well, so that
   * sealing and opening use both cores (the work is the same for every tick of its size).
   */
  static void inParallel(int n, java.util.function.IntConsumer work) {
    // an emitter with a CPU of its own (re-sealing at a plan change) would start the pool's threads on it
    if (n < PARALLEL_FROM || CorePinning.isHolder()) {
      for (int i = 0; i < n; i++) {
        work.accept(i);
      }
    } else {
      java.util.stream.IntStream.range(0, n).parallel().forEach(work);
    }
  }

  /** Accesses in a tick from which its crypto is split over threads (below, the hand-off costs more). */
  static final int PARALLEL_FROM = 24;

  /** Checks a decrypted replica ({@code opened}: plaintext, failure, or null if missing). */
  ReplicaCodec.View open(Phase p, int r, byte[] label, byte[] sealed, Object opened) {
    if (sealed == null) {
      throw new IntegrityException("the store has lost replica label " + java.util.HexFormat.of().formatHex(label)
          + " (was it wiped, restarted without its data, or is it not the one this state was created on?)");
    }
    ReplicaCodec.View view;
    try {
      if (opened instanceof IntegrityException e) {
        throw e;
      }
      view = proxy.codec.view((byte[]) opened);
    } catch (IntegrityException e) {
      throw new IntegrityException("replica label " + java.util.HexFormat.of().formatHex(label) + " failed authentication", e);
    }
    int holder = p.holderOf(r);
    if (p instanceof Transition t && t.isPending(r) && view.replicaSlot() == r
        && view.keySlot() == p.target.ownerOf[r] && view.keySlot() != holder) {
      // the swap reached the store before a crash kept it from being recorded: it is done
      if (t.completeSwap(r)) {
        proxy.pendingFinish = true;
      }
      holder = p.target.ownerOf[r];
    }
    if (view.replicaSlot() != r || view.keySlot() != holder
        || (holder == ReplicaPlan.DUMMY) != (view.kind() == ReplicaCodec.DUMMY)) {
      throw new IntegrityException("replica label " + java.util.HexFormat.of().formatHex(label)
          + " holds another replica's data (an old or moved ciphertext: its identity does not match the plan)");
    }
    if (view.kind() == ReplicaCodec.LOST) {
      throw lost(label);
    }
    boolean stale = holder != p.target.ownerOf[r]; // a pending swap slot: old data, never served
    if (!stale && view.kind() == ReplicaCodec.PRESENT && !Arrays.equals(view.key(), proxy.keys.keyOf(holder))) {
      throw new IntegrityException("replica label " + java.util.HexFormat.of().formatHex(label) + " holds another key's value");
    }
    return view;
  }

}
