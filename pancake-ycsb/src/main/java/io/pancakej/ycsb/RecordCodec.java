package io.pancakej.ycsb;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

import io.pancakej.IntegrityException;
import site.ycsb.ByteArrayByteIterator;
import site.ycsb.ByteIterator;

/**
 * Serializes a YCSB record (field name to bytes) as one value:
 * {@code varint(fieldCount) || (varint(nameLength) || utf8(name) || varint(valueLength) || value)*}.
 * A default YCSB record (10 fields named {@code field0..field9} of 100 bytes) takes 1081 bytes.
 * Field order is preserved; a field name appears at most once.
 */
public final class RecordCodec {
  private RecordCodec() {}

  /** Copies the field values out of YCSB's (single-use) iterators. */
  public static Map<String, byte[]> toBytes(Map<String, ByteIterator> record) {
    Map<String, byte[]> out = new LinkedHashMap<>(record.size() * 2);
    for (Map.Entry<String, ByteIterator> e : record.entrySet()) {
      out.put(e.getKey(), e.getValue().toArray());
    }
    return out;
  }

  /** Encodes a record given as YCSB iterators (which this consumes). */
  public static byte[] encode(Map<String, ByteIterator> record) {
    return encodeBytes(toBytes(record));
  }

  /** Encodes a record of byte-array fields. */
  public static byte[] encodeBytes(Map<String, byte[]> record) {
    int size = varintSize(record.size());
    byte[][] names = new byte[record.size()][];
    int i = 0;
    for (Map.Entry<String, byte[]> e : record.entrySet()) {
      if (e.getKey() == null || e.getValue() == null) {
        throw new IllegalArgumentException("a YCSB record may not hold a null field name or value");
      }
      names[i] = e.getKey().getBytes(StandardCharsets.UTF_8);
      size += varintSize(names[i].length) + names[i].length + varintSize(e.getValue().length) + e.getValue().length;
      i++;
    }
    byte[] out = new byte[size];
    int pos = putVarint(out, 0, record.size());
    i = 0;
    for (byte[] value : record.values()) {
      pos = putVarint(out, pos, names[i].length);
      System.arraycopy(names[i], 0, out, pos, names[i].length);
      pos += names[i].length;
      pos = putVarint(out, pos, value.length);
      System.arraycopy(value, 0, out, pos, value.length);
      pos += value.length;
      i++;
    }
    return out;
  }

  /** Decodes every field. */
  public static Map<String, byte[]> decode(byte[] encoded) {
    return decode(encoded, null);
  }

  /**
   * Decodes the fields named in {@code fields} ({@code null}: all of them); fields the record
   * lacks are left out. Raises {@link IntegrityException} on a malformed encoding.
   */
  public static Map<String, byte[]> decode(byte[] encoded, Set<String> fields) {
    Reader r = new Reader(encoded);
    int count = r.varint();
    Map<String, byte[]> out = new LinkedHashMap<>(Math.min(count, 64) * 2);
    for (int i = 0; i < count; i++) {
      String name = new String(r.bytes(r.varint()), StandardCharsets.UTF_8);
      byte[] value = r.bytes(r.varint());
      if (fields == null || fields.contains(name)) {
        out.put(name, value);
      }
    }
    if (r.pos != encoded.length) {
      throw new IntegrityException("stored YCSB record is malformed: " + (encoded.length - r.pos) + " trailing bytes");
    }
    return out;
  }

  /** Decodes into YCSB's result map, keeping only {@code fields} ({@code null}: all). */
  public static void decodeInto(byte[] encoded, Set<String> fields, Map<String, ByteIterator> result) {
    for (Map.Entry<String, byte[]> e : decode(encoded, fields).entrySet()) {
      result.put(e.getKey(), new ByteArrayByteIterator(e.getValue()));
    }
  }

  /**
   * The stored record with the fields of {@code update} added or replaced (a YCSB update carries
   * a subset of the fields). Pure: safe to call more than once on the same input.
   */
  public static byte[] merge(byte[] stored, Map<String, byte[]> update) {
    Map<String, byte[]> record = decode(stored);
    record.putAll(update);
    return encodeBytes(record);
  }

  private static int varintSize(int v) {
    int n = 1;
    while ((v & ~0x7f) != 0) {
      v >>>= 7;
      n++;
    }
    return n;
  }

  private static int putVarint(byte[] out, int pos, int v) {
    while ((v & ~0x7f) != 0) {
      out[pos++] = (byte) ((v & 0x7f) | 0x80);
      v >>>= 7;
    }
    out[pos++] = (byte) v;
    return pos;
  }

  private static final class Reader {
    final byte[] in;
    int pos;

    Reader(byte[] in) {
      this.in = in;
    }

    int varint() {
      int v = 0;
      for (int shift = 0; shift < 32; shift += 7) {
        if (pos >= in.length) {
          throw malformed();
        }
        byte b = in[pos++];
        v |= (b & 0x7f) << shift;
        if (b >= 0) {
          if (v < 0) {
            throw malformed();
          }
          return v;
        }
      }
      throw malformed();
    }

    byte[] bytes(int n) {
      if (n > in.length - pos) {
        throw malformed();
      }
      byte[] out = new byte[n];
      System.arraycopy(in, pos, out, 0, n);
      pos += n;
      return out;
    }

    private IntegrityException malformed() {
      return new IntegrityException("stored YCSB record is malformed (truncated or bad length at byte " + pos + ")");
    }
  }
}
