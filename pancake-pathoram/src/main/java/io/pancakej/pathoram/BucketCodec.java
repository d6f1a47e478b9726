package io.pancakej.pathoram;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import io.pancakej.IntegrityException;
import io.pancakej.crypto.Aead;

/**
 * Encodes a bucket of {@link #Z} slots and seals it with AES-GCM under the bucket label as
 * associated data, so a bucket cannot be moved to another label. Every bucket, full or empty,
 * has the same plaintext and ciphertext size, and every seal draws a fresh nonce.
 *
 * <p>Slot layout (big-endian): occupied flag (1), block id (4), block version (4), leaf (4),
 * key length (2), key padded to the key size, value length (4), value padded to the value size.
 * An empty slot is all zeros. The version lets the client discard stale copies a failed write
 * may have left behind (see {@link PathOramClient}).
 */
final class BucketCodec {
  /** Blocks per bucket. */
  static final int Z = 4;
  private static final int FIXED = 1 + 4 + 4 + 4 + 2 + 4;

  /** One real block as it travels in a bucket. */
  record Block(int id, int version, int leaf, byte[] key, byte[] value) {}

  private final Aead aead;
  private final int keySize;
  private final int valueSize;
  private final int slotSize;
  private final int plainSize;

  BucketCodec(Aead aead, int keySize, int valueSize) {
    this.aead = aead;
    this.keySize = keySize;
    this.valueSize = valueSize;
    this.slotSize = FIXED + keySize + valueSize;
    long plain = (long) Z * slotSize;
    if (plain + Aead.OVERHEAD > Integer.MAX_VALUE - 64) {
      throw new IllegalArgumentException("bucket too large: key size " + keySize + ", value size " + valueSize);
    }
    this.plainSize = (int) plain;
  }

  /** Size of every sealed bucket. */
  int ciphertextSize() {
    return plainSize + Aead.OVERHEAD;
  }

  /** Seals up to Z blocks (the rest of the slots are dummies) under {@code label}. */
  byte[] seal(byte[] label, List<Block> blocks) {
    if (blocks.size() > Z) {
      throw new IllegalArgumentException("a bucket holds at most " + Z + " blocks, got " + blocks.size());
    }
    ByteBuffer buf = ByteBuffer.allocate(plainSize);
    for (int s = 0; s < blocks.size(); s++) {
      Block b = blocks.get(s);
      buf.position(s * slotSize);
      buf.put((byte) 1).putInt(b.id()).putInt(b.version()).putInt(b.leaf());
      buf.putShort((short) b.key().length).put(b.key());
      buf.position(s * slotSize + FIXED - 4 + keySize);
      buf.putInt(b.value().length).put(b.value());
    }
    byte[] plain = buf.array();
    try {
      return aead.encrypt(plain, label);
    } finally {
      Arrays.fill(plain, (byte) 0);
    }
  }

  /** Authenticates and decodes a sealed bucket; returns its real blocks. */
  List<Block> open(byte[] label, byte[] ciphertext) {
    long bucket = TreeLayout.bucketOf(label);
    if (ciphertext == null) {
      throw new IntegrityException("bucket " + bucket + " is missing from the store: the store was"
          + " wiped or modified since the tree was initialized");
    }
    if (ciphertext.length != ciphertextSize()) {
      throw new IntegrityException("bucket " + bucket + " has " + ciphertext.length + " bytes, expected "
          + ciphertextSize() + ": the store holds a tree with other parameters, or was tampered with");
    }
    byte[] plain = aead.decrypt(ciphertext, label);
    try {
      ByteBuffer buf = ByteBuffer.wrap(plain);
      List<Block> out = new ArrayList<>(Z);
      for (int s = 0; s < Z; s++) {
        buf.position(s * slotSize);
        byte flag = buf.get();
        if (flag == 0) {
          continue;
        }
        int id = buf.getInt();
        int version = buf.getInt();
        int leaf = buf.getInt();
        int keyLength = Short.toUnsignedInt(buf.getShort());
        buf.position(s * slotSize + FIXED - 4 + keySize);
        int valueLength = buf.getInt();
        if (flag != 1 || keyLength > keySize || valueLength < 0 || valueLength > valueSize) {
          throw new IntegrityException("bucket " + bucket + " decrypted to a malformed slot: written by"
              + " a client with other key/value sizes");
        }
        byte[] key = Arrays.copyOfRange(plain, s * slotSize + FIXED - 4, s * slotSize + FIXED - 4 + keyLength);
        int valueStart = s * slotSize + FIXED + keySize;
        byte[] value = Arrays.copyOfRange(plain, valueStart, valueStart + valueLength);
        out.add(new Block(id, version, leaf, key, value));
      }
      return out;
    } finally {
      Arrays.fill(plain, (byte) 0);
    }
  }
}
