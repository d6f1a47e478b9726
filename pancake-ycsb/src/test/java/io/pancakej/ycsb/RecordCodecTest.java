package io.pancakej.ycsb;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import org.junit.jupiter.api.Test;

import io.pancakej.IntegrityException;
import site.ycsb.ByteIterator;
import site.ycsb.StringByteIterator;

class RecordCodecTest {

  private static Map<String, byte[]> ycsbRecord(int fields, int length, long seed) {
    Random random = new Random(seed);
    Map<String, byte[]> record = new LinkedHashMap<>();
    for (int i = 0; i < fields; i++) {
      byte[] v = new byte[length];
      random.nextBytes(v);
      record.put("field" + i, v);
    }
    return record;
  }

  private static void assertSameRecord(Map<String, byte[]> expected, Map<String, byte[]> actual) {
    assertEquals(expected.keySet(), actual.keySet());
    for (String f : expected.keySet()) {
      assertArrayEquals(expected.get(f), actual.get(f), f);
    }
  }

  @Test
  void emptyRecord_roundTrips() {
    byte[] encoded = RecordCodec.encodeBytes(Map.of());
    assertEquals(1, encoded.length);
    assertTrue(RecordCodec.decode(encoded).isEmpty());
  }

  @Test
  void defaultYcsbRecord_roundTrips_andFitsTheDefaultValueSize() {
    Map<String, byte[]> record = ycsbRecord(10, 100, 1);
    byte[] encoded = RecordCodec.encodeBytes(record);
    assertEquals(1081, encoded.length);
    assertTrue(encoded.length <= 1200);
    assertSameRecord(record, RecordCodec.decode(encoded));
    assertEquals(List.copyOf(record.keySet()), List.copyOf(RecordCodec.decode(encoded).keySet()), "field order kept");
  }

  @Test
  void unicodeFieldNames_andLongValues_roundTrip() {
    Map<String, byte[]> record = new LinkedHashMap<>();
    record.put("naïve-字段-🥞", "pancake".getBytes(StandardCharsets.UTF_8));
    record.put("", new byte[0]);
    record.put("long", new byte[70_000]);
    assertSameRecord(record, RecordCodec.decode(RecordCodec.encodeBytes(record)));
  }

  @Test
  void encode_consumesYcsbIterators() {
    Map<String, ByteIterator> values = new HashMap<>();
    values.put("field0", new StringByteIterator("abc"));
    Map<String, byte[]> decoded = RecordCodec.decode(RecordCodec.encode(values));
    assertArrayEquals("abc".getBytes(StandardCharsets.UTF_8), decoded.get("field0"));
  }

  @Test
  void decode_keepsOnlyRequestedFields() {
    Map<String, byte[]> record = ycsbRecord(10, 100, 2);
    Map<String, byte[]> some = RecordCodec.decode(RecordCodec.encodeBytes(record), Set.of("field3", "field7", "nosuch"));
    assertEquals(Set.of("field3", "field7"), some.keySet());
    assertArrayEquals(record.get("field7"), some.get("field7"));
  }

  @Test
  void merge_replacesGivenFields_andKeepsTheRest() {
    Map<String, byte[]> record = ycsbRecord(10, 100, 3);
    Map<String, byte[]> update = new LinkedHashMap<>();
    update.put("field4", "new".getBytes(StandardCharsets.UTF_8));
    update.put("extra", "added".getBytes(StandardCharsets.UTF_8));
    Map<String, byte[]> merged = RecordCodec.decode(RecordCodec.merge(RecordCodec.encodeBytes(record), update));
    Map<String, byte[]> expected = new LinkedHashMap<>(record);
    expected.putAll(update);
    assertSameRecord(expected, merged);
  }

  @Test
  void merge_isPure() {
    byte[] stored = RecordCodec.encodeBytes(ycsbRecord(3, 10, 4));
    byte[] copy = stored.clone();
    Map<String, byte[]> update = Map.of("field1", new byte[] {1});
    assertArrayEquals(RecordCodec.merge(stored, update), RecordCodec.merge(stored, update));
    assertArrayEquals(copy, stored);
  }

  @Test
  void malformedEncoding_raisesIntegrityException() {
    byte[] encoded = RecordCodec.encodeBytes(ycsbRecord(2, 10, 5));
    assertThrows(IntegrityException.class, () -> RecordCodec.decode(Arrays.copyOf(encoded, encoded.length - 1)));
    assertThrows(IntegrityException.class, () -> RecordCodec.decode(Arrays.copyOf(encoded, encoded.length + 1)));
    assertThrows(IntegrityException.class, () -> RecordCodec.decode(new byte[] {(byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff}));
    assertThrows(IntegrityException.class, () -> RecordCodec.decode(new byte[0]));
  }
}
