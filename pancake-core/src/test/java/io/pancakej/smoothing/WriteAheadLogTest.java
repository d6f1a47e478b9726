package io.pancakej.smoothing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.function.LongFunction;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

import io.pancakej.StateException;
import io.pancakej.WalSync;
import io.pancakej.crypto.Aead;

/** Replay of the write-ahead log after crashes: torn tails, empty files, rotation, unreadable records. */
class WriteAheadLogTest {
  @TempDir
  Path dir;

  /** One key per file, as the proxy derives them. */
  private final LongFunction<Aead> aead = seq -> {
    byte[] k = new byte[32];
    Arrays.fill(k, (byte) seq);
    return new Aead(k);
  };

  private static LogRecord write(int i) {
    return new LogRecord.Write(i, new byte[] {(byte) i});
  }

  private List<Integer> replayedFrom(long seq) {
    List<Integer> out = new ArrayList<>();
    WriteAheadLog.replay(dir, aead, seq, r -> out.add(r.slot()));
    return out;
  }

  /** Writes records 1..n to wal.1 and tears the last one in half, as a crash mid-append does. */
  private void tornLog(int n) throws IOException {
    try (WriteAheadLog log = WriteAheadLog.open(dir, aead, WalSync.WRITE, 1)) {
      for (int i = 1; i <= n; i++) {
        log.append(write(i));
      }
    }
    Path file = dir.resolve("wal.1");
    byte[] data = Files.readAllBytes(file);
    Files.write(file, Arrays.copyOf(data, data.length - 10));
  }

  /** Appends {@code plain} to wal.{@code seq} sealed and framed by hand: length(4) || AES-GCM, file number as associated data. */
  private void appendByHand(long seq, byte[] plain) throws IOException {
    byte[] sealed = aead.apply(seq).encrypt(plain, ("pancake-j wal " + seq).getBytes(StandardCharsets.US_ASCII));
    byte[] framed = ByteBuffer.allocate(4 + sealed.length).putInt(sealed.length).put(sealed).array();
    Path file = dir.resolve("wal." + seq);
    byte[] old = Files.exists(file) ? Files.readAllBytes(file) : new byte[0];
    byte[] all = Arrays.copyOf(old, old.length + framed.length);
    System.arraycopy(framed, 0, all, old.length, framed.length);
    Files.write(file, all);
  }

  /** With a record in wal.2, wal.1 is no longer the newest file: what ends it early is damage, named. */
  private void assertWal1IsDamage_onceANewerFileHasContent() {
    try (WriteAheadLog log = WriteAheadLog.open(dir, aead, WalSync.WRITE, 2)) {
      log.append(write(9));
    }
    StateException e = assertThrows(StateException.class, () -> replayedFrom(1));
    assertTrue(e.getMessage().contains("wal.1"), e.getMessage());
  }

  @Test
  void typedRecords_roundTripThroughAFile() {
    List<LogRecord> written = List.of(new LogRecord.Bind(4, "k".getBytes(StandardCharsets.UTF_8)),
        new LogRecord.Write(4, "v".getBytes(StandardCharsets.UTF_8)), new LogRecord.Write(4, new byte[0]),
        new LogRecord.Write(4, null), new LogRecord.Free(4));
    try (WriteAheadLog log = WriteAheadLog.open(dir, aead, WalSync.WRITE, 1)) {
      written.forEach(log::append);
    }
    List<LogRecord> read = new ArrayList<>();
    WriteAheadLog.replay(dir, aead, 1, read::add);
    assertEquals(written, read);
  }

  @Test
  void aFileFramedByHand_inTheOnDiskLayout_replays() throws IOException {
    // the framing and the record layout written out byte by byte: what logs on disk hold
    appendByHand(1, HexFormat.of().parseHex("0100000003" + "6b6579")); // Bind(3, "key")
    appendByHand(1, HexFormat.of().parseHex("0200000003" + "01" + "76")); // Write(3, "v")
    appendByHand(1, HexFormat.of().parseHex("0200000003" + "00")); // Write(3, deleted)
    appendByHand(1, HexFormat.of().parseHex("0300000003")); // Free(3)
    List<LogRecord> read = new ArrayList<>();
    WriteAheadLog.replay(dir, aead, 1, read::add);
    assertEquals(List.of(new LogRecord.Bind(3, "key".getBytes(StandardCharsets.US_ASCII)),
        new LogRecord.Write(3, "v".getBytes(StandardCharsets.US_ASCII)), new LogRecord.Write(3, null),
        new LogRecord.Free(3)), read);
  }

  @Test
  void anAuthenticRecordThatDoesNotParse_failsReplay_namingFileAndByte_evenAtTheNewestTail() throws IOException {
    appendByHand(1, HexFormat.of().parseHex("0300000003"));
    appendByHand(1, HexFormat.of().parseHex("0700000003")); // no such record type
    StateException e = assertThrows(StateException.class, () -> replayedFrom(1));
    assertTrue(e.getMessage().contains("wal.1") && e.getMessage().contains("at byte 37")
        && e.getMessage().contains("unknown record type 7"), e.getMessage());
  }

  @Test
  void aTornTail_ofTheNewestFile_isDropped() throws IOException {
    tornLog(3);
    assertEquals(List.of(1, 2), replayedFrom(1));
  }

  @Test
  void aTornTail_followedOnlyByEmptyFiles_isStillTheNewestAndDropped() throws IOException {
    tornLog(3);
    // an open after the crash created wal.2 and failed before its checkpoint
    WriteAheadLog.open(dir, aead, WalSync.WRITE, 2).close();
    assertTrue(Files.exists(dir.resolve("wal.2")));
    assertEquals(List.of(1, 2), replayedFrom(1));
  }

  @Test
  void aTornRecord_beforeAFileWithContent_isDamageNotATail() throws IOException {
    tornLog(3);
    assertWal1IsDamage_onceANewerFileHasContent();
  }

  @Test
  void rotation_keepsRecordsInTheirOwnFiles_andReplaysAllInOrder() {
    try (WriteAheadLog log = WriteAheadLog.open(dir, aead, WalSync.WRITE, 1)) {
      log.append(write(1));
      assertEquals(2, log.rotate());
      log.append(write(2));
      assertEquals(2, log.sequence());
    }
    assertEquals(List.of(1, 2), replayedFrom(1));
    assertEquals(List.of(2), replayedFrom(2));
    assertTrue(WriteAheadLog.isEmpty(dir, 3));
    assertTrue(!WriteAheadLog.isEmpty(dir, 2));
  }

  @Test
  void eachFileIsSealedUnderItsOwnKey() {
    try (WriteAheadLog log = WriteAheadLog.open(dir, aead, WalSync.WRITE, 1)) {
      log.append(write(1));
      log.rotate();
      log.append(write(2));
      log.append(write(3));
    }
    assertEquals(List.of(1, 2, 3), replayedFrom(1));
    // file 2 read with file 1's key: its first record fails authentication, and it is not a torn tail
    assertThrows(StateException.class,
        () -> WriteAheadLog.replay(dir, s -> aead.apply(1), 1, r -> { }));
  }

  @Test
  void aFullFile_isFollowedByANewOne_underItsOwnKey_andReplayReadsThemAllInOrder() throws IOException {
    // each record here is length(4) + plaintext(7) + nonce and tag(28) = 39 bytes: a 100-byte limit lets a file take two
    try (WriteAheadLog log = WriteAheadLog.open(dir, aead, WalSync.WRITE, 1, 100)) {
      for (int i = 1; i <= 7; i++) {
        log.append(write(i));
      }
      assertEquals(4, log.sequence());
      log.syncTo(Long.MAX_VALUE);
      log.closeRetired();
    }
    for (int s = 1; s <= 3; s++) {
      assertEquals(2 * 39, Files.size(dir.resolve("wal." + s)), "no file passes the limit: wal." + s);
    }
    assertEquals(39, Files.size(dir.resolve("wal.4")));
    assertEquals(List.of(1, 2, 3, 4, 5, 6, 7), replayedFrom(1));
    // wal.2 is sealed under key 2, not key 1
    assertThrows(StateException.class, () -> WriteAheadLog.replay(dir, s -> aead.apply(1), 1, r -> { }));
    WriteAheadLog.deleteBefore(dir, 4);
    assertEquals(List.of(7), replayedFrom(1));
  }

  /** Appends records 1..n to wal.{@code seq} and leaves the file as a killed process would: its mapped chunk uncut. */
  private long uncutLog(long seq, int n) throws IOException {
    Path file = dir.resolve("wal." + seq);
    try (WriteAheadLog log = WriteAheadLog.open(dir, aead, WalSync.WRITE, seq)) {
      for (int i = 1; i <= n; i++) {
        log.append(write(i));
      }
      assertEquals(WriteAheadLog.CHUNK_BYTES, Files.size(file), "a mapped chunk is allocated ahead");
      byte[] inChunk = Files.readAllBytes(file); // what the page cache holds, as a crash leaves it
      long records = log.size();
      log.close();
      assertEquals(records, Files.size(file), "closing cuts the file back to its records");
      Files.write(file, inChunk);
      return records;
    }
  }

  @Test
  @DisabledOnOs(value = OS.WINDOWS, disabledReason = "WriteAheadLog.MAPS_FILES")
  void writeMapsTheFile_andZerosAfterTheRecords_endTheFile_inAnyFile() throws IOException {
    uncutLog(1, 3);
    try (WriteAheadLog log = WriteAheadLog.open(dir, aead, WalSync.WRITE, 2)) {
      log.append(write(4));
    }
    assertEquals(List.of(1, 2, 3, 4), replayedFrom(1), "an older file's zeros are its end, not damage");
  }

  @Test
  @DisabledOnOs(value = OS.WINDOWS, disabledReason = "WriteAheadLog.MAPS_FILES")
  void aTornRecord_followedByTheChunksZeros_isTheNewestFilesTornTail_butDamageInAnOlderFile() throws IOException {
    int records = (int) uncutLog(1, 3);
    byte[] data = Files.readAllBytes(dir.resolve("wal.1"));
    Arrays.fill(data, records - 10, records, (byte) 0); // the last record's copy cut short
    Files.write(dir.resolve("wal.1"), data);
    assertEquals(List.of(1, 2), replayedFrom(1));

    assertWal1IsDamage_onceANewerFileHasContent();
  }

  @Test
  @DisabledOnOs(value = OS.WINDOWS, disabledReason = "WriteAheadLog.MAPS_FILES")
  void zerosBetweenRecords_ofAnOlderFile_areDamage() throws IOException {
    int records = (int) uncutLog(1, 3);
    byte[] data = Files.readAllBytes(dir.resolve("wal.1"));
    // the third record moved 8 bytes on: zeros before it no longer end the file
    int third = records / 3 * 2;
    System.arraycopy(data, third, data, third + 8, records - third);
    Arrays.fill(data, third, third + 8, (byte) 0);
    Files.write(dir.resolve("wal.1"), data);
    assertWal1IsDamage_onceANewerFileHasContent();
  }

  @Test
  void aRecordLargerThanAChunk_getsAChunkOfItsOwn() {
    byte[] big = new byte[WriteAheadLog.CHUNK_BYTES + 100];
    big[big.length - 1] = 7;
    try (WriteAheadLog log = WriteAheadLog.open(dir, aead, WalSync.WRITE, 1)) {
      log.append(write(1));
      log.append(new LogRecord.Write(2, big));
      log.append(write(3));
    }
    List<LogRecord> read = new ArrayList<>();
    WriteAheadLog.replay(dir, aead, 1, read::add);
    assertEquals(List.of(write(1), new LogRecord.Write(2, big), write(3)), read);
  }

  /** A write whose sealed record is about a kilobyte: some records span two chunks. */
  private static LogRecord kilobyte(int i) {
    byte[] value = new byte[1000];
    Arrays.fill(value, (byte) i);
    return new LogRecord.Write(i, value);
  }

  @Test
  @DisabledOnOs(value = OS.WINDOWS, disabledReason = "WriteAheadLog.MAPS_FILES")
  void appendsGoOnInTheChunkPreparedAhead_acrossChunks_withoutAllocatingOneThemselves() throws IOException {
    Path file = dir.resolve("wal.1");
    int n = 0;
    try (WriteAheadLog log = WriteAheadLog.open(dir, aead, WalSync.WRITE, 1)) {
      assertTrue(log.appendsByCopy());
      log.prepare();
      assertEquals(WriteAheadLog.CHUNK_BYTES, Files.size(file), "the first chunk allocated by prepare");
      log.append(kilobyte(++n));
      assertTrue(log.wantsPreparation(), "the append took the prepared chunk");
      log.prepare();
      assertEquals(2L * WriteAheadLog.CHUNK_BYTES, Files.size(file), "the spare after it");
      assertTrue(!log.wantsPreparation());
      while (log.size() < WriteAheadLog.CHUNK_BYTES + 5_000) { // into the spare, one record across the seam
        log.append(kilobyte(++n));
      }
      assertEquals(2L * WriteAheadLog.CHUNK_BYTES, Files.size(file), "the appends allocated nothing themselves");
      assertTrue(log.wantsPreparation(), "the spare was taken: the next one is wanted");
      assertTrue(log.size() % WriteAheadLog.CHUNK_BYTES != 0);
    }
    List<LogRecord> read = new ArrayList<>();
    WriteAheadLog.replay(dir, aead, 1, read::add);
    assertEquals(n, read.size());
    for (int i = 0; i < n; i++) {
      assertEquals(kilobyte(i + 1), read.get(i), "record " + (i + 1));
    }
  }

  @Test
  @DisabledOnOs(value = OS.WINDOWS, disabledReason = "WriteAheadLog.MAPS_FILES")
  void aFullFile_rotatesToTheFilePreparedAhead_whichHoldsItsFirstChunk() throws IOException {
    try (WriteAheadLog log = WriteAheadLog.open(dir, aead, WalSync.WRITE, 1, 100)) {
      log.append(write(1));
      log.append(write(2));
      log.prepare(); // the first chunk reaches the 100-byte limit: the next file instead of a spare
      assertEquals(WriteAheadLog.CHUNK_BYTES, Files.size(dir.resolve("wal.2")), "wal.2 opened and allocated ahead");
      assertEquals(List.of(1, 2), replayedFrom(1), "a prepared file of zeros holds no record");
      log.append(write(3));
      assertEquals(2, log.sequence());
      assertEquals(WriteAheadLog.CHUNK_BYTES, Files.size(dir.resolve("wal.2")), "its chunk was used, not allocated again");
      log.closeRetired();
      assertEquals(2 * 39, Files.size(dir.resolve("wal.1")), "the retired file cut back to its records");
    }
    assertEquals(39, Files.size(dir.resolve("wal.2")));
    assertEquals(List.of(1, 2, 3), replayedFrom(1));
  }

  @Test
  @DisabledOnOs(value = OS.WINDOWS, disabledReason = "WriteAheadLog.MAPS_FILES")
  void aCrashWithTheNextFilePrepared_leavesZerosThatHoldNoRecord_soTheTornTailIsStillTheNewest() throws IOException {
    byte[] prepared;
    try (WriteAheadLog log = WriteAheadLog.open(dir, aead, WalSync.WRITE, 5)) {
      log.append(write(1));
      log.prepareNextFile(); // as a checkpoint does before it rotates
      prepared = Files.readAllBytes(dir.resolve("wal.6"));
      assertEquals(WriteAheadLog.CHUNK_BYTES, prepared.length);
    }
    assertTrue(Files.notExists(dir.resolve("wal.6")), "closing removes the file prepared ahead");
    Files.delete(dir.resolve("wal.5"));
    int records = (int) uncutLog(1, 3);
    Files.write(dir.resolve("wal.2"), prepared); // what a kill leaves after wal.1's prepare
    byte[] data = Files.readAllBytes(dir.resolve("wal.1"));
    Arrays.fill(data, records - 10, records, (byte) 0); // the last record's copy cut short
    Files.write(dir.resolve("wal.1"), data);
    assertEquals(List.of(1, 2), replayedFrom(1), "wal.1 is still the newest file with records: a torn tail");
    assertTrue(WriteAheadLog.isEmpty(dir, 2), "zeros are no record");
  }

  @Test
  @DisabledOnOs(value = OS.WINDOWS, disabledReason = "WriteAheadLog.MAPS_FILES")
  void rotations_racingThePreparationOfTheirFiles_loseNoRecord() throws Exception {
    // files of two records: the appends rotate about as fast as another thread prepares files
    int n = 600;
    java.util.concurrent.atomic.AtomicBoolean done = new java.util.concurrent.atomic.AtomicBoolean();
    try (WriteAheadLog log = WriteAheadLog.open(dir, aead, WalSync.WRITE, 1, 100)) {
      Thread preparer = new Thread(() -> {
        while (!done.get()) {
          log.prepare();
          log.prepareNextFile();
        }
      });
      preparer.start();
      try {
        for (int i = 1; i <= n; i++) {
          log.append(write(i));
        }
      } finally {
        done.set(true);
        preparer.join();
      }
      log.closeRetired();
    }
    List<Integer> expected = new ArrayList<>();
    for (int i = 1; i <= n; i++) {
      expected.add(i);
    }
    assertEquals(expected, replayedFrom(1));
  }

  @Test
  void offLogsNothing() {
    try (WriteAheadLog log = WriteAheadLog.open(dir, aead, WalSync.OFF, 1)) {
      assertEquals(0, log.append(write(1)));
    }
    assertTrue(WriteAheadLog.isEmpty(dir, 1));
    assertEquals(List.of(), replayedFrom(1));
  }
}
