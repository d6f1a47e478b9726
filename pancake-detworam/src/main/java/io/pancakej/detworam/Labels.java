package io.pancakej.detworam;

import java.nio.ByteBuffer;

import io.pancakej.crypto.Prf;

/**
 * Store labels of the physical blocks: a PRF of (area, index), 16 bytes. The layout is public in
 * DetWoORAM, so the PRF hides nothing the schedule does not already tell; it keeps the labels in
 * the same random-looking 16-byte form as the other schemes' and binds them to this master key.
 */
final class Labels {
  static final byte MAIN = 0;
  static final byte HOLDING = 1;
  static final int BYTES = 16;

  private final Prf prf;

  Labels(byte[] key) {
    this.prf = new Prf(key, BYTES);
  }

  byte[] main(int index) {
    return label(MAIN, index);
  }

  byte[] holding(int slot) {
    return label(HOLDING, slot);
  }

  private byte[] label(byte area, int index) {
    return prf.compute(ByteBuffer.allocate(9).put(area).putLong(index).array());
  }
}
