package io.pancakej.detworam;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.ArrayList;
import java.util.List;

import io.pancakej.StateException;
import io.pancakej.crypto.Aead;
import io.pancakej.state.SealedFile;

/**
 * The client's state on disk: N, M, key and value sizes, the store it belongs to
 * ({@link io.pancakej.store.KvStore#describe()}), the write counter, the key binding and position
 * map, and a write step that has not reached the store yet (see {@link DetWoOramClient}). The
 * file is a plaintext magic followed by one AES-GCM seal (magic as associated data) under a key
 * derived from the master key, and is replaced atomically (temporary file, fsync, rename).
 */
final class StateFile {
  static final String FILE_NAME = "detworam.state";
  private static final byte[] MAGIC = "PJDWORM1".getBytes(StandardCharsets.US_ASCII);
  private static final int FORMAT = 1;

  /** Everything needed to resume. {@code pending} is a failed write step's labels and values (may be empty). */
  record Snapshot(int holdingSlots, int valueSize, int keySize, String store, long steps, long reads,
      PositionMap map, List<byte[]> pendingLabels, List<byte[]> pendingValues) {}

  private StateFile() {}

  static Path file(Path stateDir) {
    return stateDir.resolve(FILE_NAME);
  }

  static void write(Path stateDir, Aead aead, Snapshot s) {
    byte[] plain;
    try {
      PositionMap m = s.map();
      ByteArrayOutputStream bytes = new ByteArrayOutputStream(64 + m.capacity * 16);
      DataOutputStream out = new DataOutputStream(bytes);
      out.writeInt(FORMAT);
      out.writeInt(m.capacity);
      out.writeInt(s.holdingSlots());
      out.writeInt(s.valueSize());
      out.writeInt(s.keySize());
      out.writeUTF(s.store());
      out.writeLong(s.steps());
      out.writeLong(s.reads());
      for (int id = 0; id < m.capacity; id++) {
        out.writeInt(m.where[id]);
        byte[] key = m.keyOf[id];
        out.writeInt(key == null ? -1 : key.length);
        if (key != null) {
          out.write(key);
        }
      }
      out.writeInt(s.pendingLabels().size());
      for (int i = 0; i < s.pendingLabels().size(); i++) {
        writeBytes(out, s.pendingLabels().get(i));
        writeBytes(out, s.pendingValues().get(i));
      }
      out.flush();
      plain = bytes.toByteArray();
    } catch (IOException e) {
      throw new StateException("cannot encode DetWoORAM state", e);
    }
    SealedFile.write(stateDir, FILE_NAME, MAGIC, aead, plain, "DetWoORAM");
  }

  private static void writeBytes(DataOutputStream out, byte[] b) throws IOException {
    out.writeInt(b.length);
    out.write(b);
  }

  private static byte[] readBytes(DataInputStream in) throws IOException {
    int length = in.readInt();
    if (length < 0) {
      throw new EOFException("negative length");
    }
    byte[] b = in.readNBytes(length);
    if (b.length != length) {
      throw new EOFException();
    }
    return b;
  }

  static Snapshot read(Path stateDir, Aead aead) {
    Path f = file(stateDir);
    byte[] plain = SealedFile.read(f, MAGIC, aead, "DetWoORAM");
    try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(plain))) {
      int format = in.readInt();
      if (format != FORMAT) {
        throw new StateException("DetWoORAM state file " + f + " has format " + format + ", expected " + FORMAT);
      }
      int capacity = in.readInt();
      int holding = in.readInt();
      int valueSize = in.readInt();
      int keySize = in.readInt();
      String store = in.readUTF();
      long steps = in.readLong();
      long reads = in.readLong();
      if (capacity < 1 || capacity > DetWoOramClient.MAX_CAPACITY || holding < 1
          || holding > DetWoOramClient.MAX_CAPACITY || steps < 0) {
        throw new StateException("DetWoORAM state file " + f + " is malformed (N " + capacity + ", M " + holding
            + ", steps " + steps + ")");
      }
      PositionMap m = new PositionMap(capacity, holding);
      for (int id = 0; id < capacity; id++) {
        m.where[id] = in.readInt();
        int keyLength = in.readInt();
        if (keyLength >= 0) {
          m.keyOf[id] = in.readNBytes(keyLength);
          if (m.keyOf[id].length != keyLength) {
            throw new EOFException();
          }
        }
      }
      m.rebuild();
      int pending = in.readInt();
      List<byte[]> labels = new ArrayList<>();
      List<byte[]> values = new ArrayList<>();
      for (int i = 0; i < pending; i++) {
        labels.add(readBytes(in));
        values.add(readBytes(in));
      }
      return new Snapshot(holding, valueSize, keySize, store, steps, reads, m, labels, values);
    } catch (IOException | RuntimeException e) {
      if (e instanceof StateException) {
        throw (StateException) e;
      }
      throw new StateException("DetWoORAM state file " + f + " is malformed: " + e, e);
    } finally {
      Arrays.fill(plain, (byte) 0);
    }
  }
}
