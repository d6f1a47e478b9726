package io.pancakej.detworam;

import java.nio.ByteBuffer;
import java.util.Arrays;

import io.pancakej.IntegrityException;
import io.pancakej.crypto.Aead;

/**
 * Encodes one physical block and seals it with AES-GCM under its store label as associated
 * data, so a block cannot be moved to another position. Every block, live or empty, has the same
 * plaintext and ciphertext size, and every seal draws a fresh nonce.
 *
 * <p>Layout (big-endian): live flag (1), block id (4), step (8) -- the logical write that sealed
 * it, {@link Schedule#INIT} at initialization --, key length (2), key padded to the key size,
 * value length (4), value padded to the value size. An empty block (never used, freed, or a
 * delete's tombstone) has flag 0, no key and no value. The step lets the client check that a
 * position holds the copy the schedule says it last wrote, not an older one.
 */
final class BlockCodec {
  private static final int FIXED = 1 + 4 + 8 + 2 + 4;

  /** One decoded block; {@code key} and {@code value} are null for an empty block. */
  record Block(int id, long step, byte[] key, byte[] value) {
    boolean live() {
      return key != null;
    }
  }

  private final Aead aead;
  private final int keySize;
  private final int valueSize;
  private final int plainSize;

  BlockCodec(Aead aead, int keySize, int valueSize) {
    this.aead = aead;
    this.keySize = keySize;
    this.valueSize = valueSize;
    long plain = (long) FIXED + keySize + valueSize;
    if (plain + Aead.OVERHEAD > Integer.MAX_VALUE - 64) {
      throw new IllegalArgumentException("block too large: key size " + keySize + ", value size " + valueSize);
    }
    this.plainSize = (int) plain;
  }

  /** Size of every sealed block. */
  int ciphertextSize() {
    return plainSize + Aead.OVERHEAD;
  }

  /** Seals block {@code id} as written by {@code step}; a null key makes an empty block. */
  byte[] seal(byte[] label, int id, long step, byte[] key, byte[] value) {
    ByteBuffer buf = ByteBuffer.allocate(plainSize);
    buf.put((byte) (key == null ? 0 : 1)).putInt(id).putLong(step);
    if (key != null) {
      buf.putShort((short) key.length).put(key);
      buf.position(FIXED - 4 + keySize);
      buf.putInt(value.length).put(value);
    }
    byte[] plain = buf.array();
    try {
      return aead.encrypt(plain, label);
    } finally {
      Arrays.fill(plain, (byte) 0);
    }
  }

  /** Authenticates and decodes a sealed block; {@code where} names it in errors. */
  Block open(byte[] label, byte[] ciphertext, String where) {
    if (ciphertext == null) {
      throw new IntegrityException(where + " is missing from the store: the store was wiped or modified"
          + " since the DetWoORAM was initialized");
    }
    if (ciphertext.length != ciphertextSize()) {
      throw new IntegrityException(where + " has " + ciphertext.length + " bytes, expected " + ciphertextSize()
          + ": the store holds a DetWoORAM with other parameters, or was tampered with");
    }
    byte[] plain;
    try {
      plain = aead.decrypt(ciphertext, label);
    } catch (IntegrityException e) {
      throw new IntegrityException(where + " failed authentication: tampered, moved from another position,"
          + " or sealed under another master key", e);
    }
    try {
      ByteBuffer buf = ByteBuffer.wrap(plain);
      byte flag = buf.get();
      int id = buf.getInt();
      long step = buf.getLong();
      if (flag == 0) {
        return new Block(id, step, null, null);
      }
      int keyLength = Short.toUnsignedInt(buf.getShort());
      buf.position(FIXED - 4 + keySize);
      int valueLength = buf.getInt();
      if (flag != 1 || keyLength < 1 || keyLength > keySize || valueLength < 0 || valueLength > valueSize) {
        throw new IntegrityException(where + " decrypted to a malformed block: written by a client with other"
            + " key/value sizes");
      }
      byte[] key = Arrays.copyOfRange(plain, FIXED - 4, FIXED - 4 + keyLength);
      byte[] value = Arrays.copyOfRange(plain, FIXED + keySize, FIXED + keySize + valueLength);
      return new Block(id, step, key, value);
    } finally {
      Arrays.fill(plain, (byte) 0);
    }
  }
}
