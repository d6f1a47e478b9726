package io.pancakej.smoothing;

import java.nio.ByteBuffer;
import java.util.Arrays;

import io.pancakej.IntegrityException;
import io.pancakej.config.Limits;

/**
 * The fixed-size plaintext of one replica, before AES-GCM sealing:
 * {@code version(1) kind(1) replicaSlot(8) keySlot(4) keyLength(2) key(keySize)
 * valueLength(4) value(valueSize)}, zero-padded so that every ciphertext has the same length.
 * Binding the replica slot, the owner and the key inside the plaintext means a value moved to
 * another label, or left behind by another owner, is detected rather than returned.
 */
final class ReplicaCodec {
  static final byte FORMAT = 1;
  static final byte ABSENT = 0;
  static final byte PRESENT = 1;
  static final byte DUMMY = 2;
  /** Written where the store lost a replica of a live key: it reads as lost until the key is written. */
  static final byte LOST = 3;
  private static final int HEADER = 1 + 1 + 8 + 4 + 2;

  final int keySize;
  final int valueSize;
  final int plaintextSize;
  /** What a request's key and value must fit in. */
  final Limits limits;

  ReplicaCodec(int keySize, int valueSize) {
    this.keySize = keySize;
    this.valueSize = valueSize;
    this.plaintextSize = HEADER + keySize + 4 + valueSize;
    this.limits = new Limits(keySize, valueSize, "fixed when the state is created");
  }

  byte[] encode(byte kind, int replicaSlot, int keySlot, byte[] key, byte[] value) {
    byte[] out = new byte[plaintextSize];
    ByteBuffer b = ByteBuffer.wrap(out);
    b.put(FORMAT).put(kind).putLong(replicaSlot).putInt(keySlot);
    int keyLength = key == null ? 0 : key.length;
    b.putShort((short) keyLength);
    if (keyLength > 0) {
      b.put(key);
    }
    b.position(HEADER + keySize);
    int valueLength = value == null ? 0 : value.length;
    b.putInt(valueLength);
    if (valueLength > 0) {
      b.put(value);
    }
    return out;
  }

  /** A parsed view of a decrypted plaintext; checks the format and sizes. */
  View view(byte[] plaintext) {
    if (plaintext.length != plaintextSize || plaintext[0] != FORMAT) {
      throw new IntegrityException("replica plaintext has an unknown format or size ("
          + plaintext.length + " bytes, expected " + plaintextSize + ")");
    }
    return new View(plaintext);
  }

  final class View {
    final byte[] plaintext;

    View(byte[] plaintext) {
      this.plaintext = plaintext;
    }

    byte kind() {
      return plaintext[1];
    }

    long replicaSlot() {
      return ByteBuffer.wrap(plaintext, 2, 8).getLong();
    }

    int keySlot() {
      return ByteBuffer.wrap(plaintext, 10, 4).getInt();
    }

    byte[] key() {
      int length = ByteBuffer.wrap(plaintext, 14, 2).getShort() & 0xffff;
      if (length > keySize) {
        throw new IntegrityException("replica plaintext has a key longer than the key size");
      }
      return Arrays.copyOfRange(plaintext, HEADER, HEADER + length);
    }

    /** A copy of the value, or null when the replica holds no value. */
    byte[] valueOrNull() {
      if (kind() != PRESENT) {
        return null;
      }
      int offset = HEADER + keySize;
      int length = ByteBuffer.wrap(plaintext, offset, 4).getInt();
      if (length < 0 || length > valueSize) {
        throw new IntegrityException("replica plaintext has a value length out of range");
      }
      return Arrays.copyOfRange(plaintext, offset + 4, offset + 4 + length);
    }
  }
}
