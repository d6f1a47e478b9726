package io.pancakej.pathoram;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;

import io.pancakej.StateException;
import io.pancakej.crypto.Aead;
import io.pancakej.state.SealedFile;

/**
 * The client's state on disk: tree height, capacity, key and value sizes, the store it belongs
 * to ({@link io.pancakej.store.KvStore#describe()}), the key-to-block binding, the position map,
 * block versions, the stash and the counters. The file is a plaintext magic followed by one
 * AES-GCM seal (magic as associated data) under a key derived from the master key, and is
 * replaced atomically (temporary file, fsync, rename).
 */
final class StateFile {
  static final String FILE_NAME = "pathoram.state";
  private static final byte[] MAGIC = "PJPORAM1".getBytes(StandardCharsets.US_ASCII);
  private static final int FORMAT = 1;

  /** Everything needed to resume: fixed parameters, bookkeeping, counters. */
  record Snapshot(int height, int valueSize, int keySize, String store, long accesses, int maxStash,
      BlockTable table) {}

  private StateFile() {}

  static Path file(Path stateDir) {
    return stateDir.resolve(FILE_NAME);
  }

  static void write(Path stateDir, Aead aead, Snapshot s) {
    byte[] plain;
    try {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream(64 + s.table().capacity * 16);
      DataOutputStream out = new DataOutputStream(bytes);
      out.writeInt(FORMAT);
      out.writeInt(s.height());
      out.writeInt(s.table().capacity);
      out.writeInt(s.valueSize());
      out.writeInt(s.keySize());
      out.writeUTF(s.store());
      out.writeLong(s.accesses());
      out.writeInt(s.maxStash());
      BlockTable t = s.table();
      for (int id = 0; id < t.capacity; id++) {
        out.writeInt(t.position[id]);
        out.writeInt(t.version[id]);
        byte[] key = t.keyOf[id];
        out.writeInt(key == null ? -1 : key.length);
        if (key != null) {
          out.write(key);
        }
      }
      out.writeInt(t.stash.size());
      for (Map.Entry<Integer, byte[]> e : t.stash.entrySet()) {
        out.writeInt(e.getKey());
        out.writeInt(e.getValue().length);
        out.write(e.getValue());
      }
      out.flush();
      plain = bytes.toByteArray();
    } catch (IOException e) {
      throw new StateException("cannot encode Path ORAM state", e);
    }
    SealedFile.write(stateDir, FILE_NAME, MAGIC, aead, plain, "Path ORAM");
  }

  static Snapshot read(Path stateDir, Aead aead) {
    Path f = file(stateDir);
    byte[] plain = SealedFile.read(f, MAGIC, aead, "Path ORAM");
    try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(plain))) {
      int format = in.readInt();
      if (format != FORMAT) {
        throw new StateException("Path ORAM state file " + f + " has format " + format + ", expected " + FORMAT);
      }
      int height = in.readInt();
      int capacity = in.readInt();
      int valueSize = in.readInt();
      int keySize = in.readInt();
      String store = in.readUTF();
      long accesses = in.readLong();
      int maxStash = in.readInt();
      if (height < 0 || height > TreeLayout.MAX_HEIGHT || capacity < 1 || capacity > (1 << TreeLayout.MAX_HEIGHT)) {
        throw new StateException("Path ORAM state file " + f + " is malformed (height " + height
            + ", capacity " + capacity + ")");
      }
      BlockTable t = new BlockTable(capacity);
      for (int id = 0; id < capacity; id++) {
        t.position[id] = in.readInt();
        t.version[id] = in.readInt();
        int keyLength = in.readInt();
        if (keyLength >= 0) {
          t.keyOf[id] = in.readNBytes(keyLength);
          if (t.keyOf[id].length != keyLength) {
            throw new EOFException();
          }
        }
      }
      t.rebuildIndex();
      int stashSize = in.readInt();
      for (int i = 0; i < stashSize; i++) {
        int id = in.readInt();
        int length = in.readInt();
        byte[] value = in.readNBytes(length);
        if (value.length != length) {
          throw new EOFException();
        }
        t.stash.put(id, value);
      }
      return new Snapshot(height, valueSize, keySize, store, accesses, maxStash, t);
    } catch (IOException | RuntimeException e) {
      if (e instanceof StateException) {
        throw (StateException) e;
      }
      throw new StateException("Path ORAM state file " + f + " is malformed: " + e, e);
    } finally {
      Arrays.fill(plain, (byte) 0);
    }
  }
}
