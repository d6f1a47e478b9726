package io.pancakej.smoothing;

import java.nio.ByteBuffer;
import java.util.Arrays;

import io.pancakej.StateException;

/**
 * One write-ahead log record: a change a checkpoint of the state would otherwise lose. The layout
 * of a record's plaintext is defined here and nowhere else ({@link WriteAheadLog} seals and frames
 * it; writers and recovery see only these types):
 *
 * <pre>
 *   Bind   0x01 || int32 slot || key           a key bound to a free key slot
 *   Write  0x02 || int32 slot || 0x01 || value a key's new latest value
 *          0x02 || int32 slot || 0x00          ... or its deletion
 *   Free   0x03 || int32 slot                  a key slot freed (its deletion reached every replica)
 * </pre>
 *
 * <p>Integers are big-endian. This is the layout logs of state format 4 hold: changing it makes
 * existing state directories unreadable ({@code StateFormatCompatibilityTest} replays a log
 * written before these types existed).
 */
sealed interface LogRecord permits LogRecord.Bind, LogRecord.Write, LogRecord.Free {
  byte BIND = 1;
  byte WRITE = 2;
  byte FREE = 3;

  /** The key slot the record is about. */
  int slot();

  /** The record's plaintext, as laid out above. */
  byte[] encode();

  /**
   * Parses {@link #encode()} output. A record that authenticated but does not parse was not
   * written by this layout: a {@link StateException}, never a partial record.
   */
  static LogRecord decode(byte[] plain) {
    if (plain.length < 5) {
      throw malformed(plain, "shorter than a type and a key slot");
    }
    ByteBuffer b = ByteBuffer.wrap(plain);
    byte type = b.get();
    int slot = b.getInt();
    switch (type) {
      case BIND:
        return new Bind(slot, Arrays.copyOfRange(plain, 5, plain.length));
      case WRITE:
        if (plain.length == 6 && plain[5] == 0) {
          return new Write(slot, null);
        }
        if (plain.length >= 6 && plain[5] == 1) {
          return new Write(slot, Arrays.copyOfRange(plain, 6, plain.length));
        }
        throw malformed(plain, "a write record is neither a value nor a deletion");
      case FREE:
        if (plain.length != 5) {
          throw malformed(plain, "a free record carries more than its key slot");
        }
        return new Free(slot);
      default:
        throw new StateException("unknown record type " + type);
    }
  }

  private static StateException malformed(byte[] plain, String why) {
    return new StateException("malformed record of " + plain.length + " bytes (" + why + ")");
  }

  /** {@code key} was bound to key slot {@code slot}. */
  record Bind(int slot, byte[] key) implements LogRecord {
    @Override
    public byte[] encode() {
      return ByteBuffer.allocate(5 + key.length).put(BIND).putInt(slot).put(key).array();
    }

    // arrays compare by content, and a record's contents are user data: toString shows sizes only
    @Override
    public boolean equals(Object o) {
      return o instanceof Bind b && b.slot == slot && Arrays.equals(b.key, key);
    }

    @Override
    public int hashCode() {
      return 31 * slot + Arrays.hashCode(key);
    }

    @Override
    public String toString() {
      return "Bind[slot=" + slot + ", key=" + key.length + " bytes]";
    }
  }

  /** Key slot {@code slot}'s latest value is {@code value}; null: the key was deleted. */
  record Write(int slot, byte[] value) implements LogRecord {
    @Override
    public byte[] encode() {
      if (value == null) {
        return ByteBuffer.allocate(6).put(WRITE).putInt(slot).put((byte) 0).array();
      }
      return ByteBuffer.allocate(6 + value.length).put(WRITE).putInt(slot).put((byte) 1).put(value).array();
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Write w && w.slot == slot && Arrays.equals(w.value, value);
    }

    @Override
    public int hashCode() {
      return 31 * slot + Arrays.hashCode(value);
    }

    @Override
    public String toString() {
      return "Write[slot=" + slot + ", " + (value == null ? "deleted" : "value=" + value.length + " bytes") + "]";
    }
  }

  /** Key slot {@code slot} is free again. */
  record Free(int slot) implements LogRecord {
    @Override
    public byte[] encode() {
      return ByteBuffer.allocate(5).put(FREE).putInt(slot).array();
    }
  }
}
