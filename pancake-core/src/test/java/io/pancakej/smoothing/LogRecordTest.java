package io.pancakej.smoothing;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;

import org.junit.jupiter.api.Test;

import io.pancakej.StateException;

/** The write-ahead log's record layout, byte for byte (what existing logs on disk hold). */
class LogRecordTest {
  private static final HexFormat HEX = HexFormat.of();

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  /** {@code record} encodes to {@code hex}, and {@code hex} decodes to {@code record}. */
  private static void assertLayout(String hex, LogRecord record) {
    assertEquals(hex, HEX.formatHex(record.encode()));
    assertEquals(record, LogRecord.decode(HEX.parseHex(hex)));
  }

  @Test
  void bind_isType1_slot_thenTheKey() {
    assertLayout("01" + "00000005" + "6b35", new LogRecord.Bind(5, utf8("k5")));
    assertLayout("01" + "7fffffff", new LogRecord.Bind(Integer.MAX_VALUE, new byte[0]));
  }

  @Test
  void write_isType2_slot_presentFlag_thenTheValue() {
    assertLayout("02" + "00000002" + "01" + "76312d7468697264", new LogRecord.Write(2, utf8("v1-third")));
    assertLayout("02" + "00000002" + "01", new LogRecord.Write(2, new byte[0]));
  }

  @Test
  void aDeletion_isAWriteWithFlag0_andNoValue() {
    assertLayout("02" + "00000007" + "00", new LogRecord.Write(7, null));
  }

  @Test
  void free_isType3_andTheSlot() {
    assertLayout("03" + "00000007", new LogRecord.Free(7));
  }

  @Test
  void anEmptyValue_andADeletion_stayApart() {
    assertTrue(!new LogRecord.Write(1, new byte[0]).equals(new LogRecord.Write(1, null)));
  }

  private static String decodeError(String hex) {
    return assertThrows(StateException.class, () -> LogRecord.decode(HEX.parseHex(hex))).getMessage();
  }

  @Test
  void malformedRecords_areRefused_neverReadAsSomethingElse() {
    assertTrue(decodeError("").contains("shorter than a type and a key slot"));
    assertTrue(decodeError("03000000").contains("malformed record of 4 bytes"));
    assertTrue(decodeError("0900000001").contains("unknown record type 9"));
    assertTrue(decodeError("0200000001").contains("neither a value nor a deletion"));
    assertTrue(decodeError("020000000102").contains("neither a value nor a deletion"));
    assertTrue(decodeError("02000000010061").contains("neither a value nor a deletion"));
    assertTrue(decodeError("030000000100").contains("more than its key slot"));
  }

  @Test
  void decode_copiesWhatItKeeps() {
    byte[] plain = HEX.parseHex("0100000001" + "6b");
    LogRecord.Bind b = (LogRecord.Bind) LogRecord.decode(plain);
    plain[5] = 0;
    assertArrayEquals(utf8("k"), b.key());
  }

  @Test
  void toString_showsSizes_notContents() {
    String s = new LogRecord.Write(1, utf8("secret")).toString() + new LogRecord.Bind(1, utf8("secret"));
    assertTrue(!s.contains("secret") && s.contains("6 bytes"), s);
  }
}
