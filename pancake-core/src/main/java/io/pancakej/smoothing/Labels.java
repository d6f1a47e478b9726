package io.pancakej.smoothing;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import io.pancakej.crypto.KeyPurposes;
import io.pancakej.crypto.MasterKey;
import io.pancakej.crypto.Prf;

/**
 * The store labels of a PANCAKE state: a PRF of the replica slot (HMAC-SHA256 under a key derived
 * for {@link KeyPurposes#PANCAKE_LABELS}, truncated to 16 bytes, over the unambiguous encoding
 * {@code 0x01 || int64 slot}), and the label of the canary stores created before 2026-11 hold
 * (domain-separated by its first byte). Labels are fixed when a state is created and never change.
 */
final class Labels {
  /** Bytes of a label on the store. */
  static final int BYTES = 16;
  private static final byte[] CANARY_INPUT = "\u0002pancake-j canary".getBytes(StandardCharsets.US_ASCII);
  private final Prf prf;

  Labels(MasterKey key) {
    this.prf = new Prf(key.derive(KeyPurposes.PANCAKE_LABELS), BYTES);
  }

  /** The label of replica slot {@code replicaSlot}. */
  byte[] replica(int replicaSlot) {
    return prf.compute(ByteBuffer.allocate(9).put((byte) 1).putLong(replicaSlot).array());
  }

  /**
   * The label of the canary, an entry stores created before 2026-11 hold (read at every open, it
   * was the one label with an access rate of its own). Only a refused creation reads it now, to
   * say whose data a store holds.
   */
  byte[] canary() {
    return prf.compute(CANARY_INPUT);
  }
}
