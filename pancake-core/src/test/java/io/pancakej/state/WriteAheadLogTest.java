package io.pancakej.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.LongFunction;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.pancakej.StateException;
import io.pancakej.crypto.Aead;

/** Replay of the write-ahead log after crashes: torn tails, empty files, rotation. */
class WriteAheadLogTest {
  @TempDir
  Path dir;

  /** One key per file, as the proxy derives them. */
  private final LongFunction<Aead> aead = seq -> {
    byte[] k = new byte[32];
    Arrays.fill(k, (byte) seq);
    return new Aead(k);
  };

  private List<Integer> replayedFrom(long seq) {
    List<Integer> out = new ArrayList<>();
    WriteAheadLog.replay(dir, aead, seq, r -> out.add((int) r.payload().get()));
    return out;
  }

  /** Writes records 1..n to wal.1 and tears the last one in half, as a crash mid-append does. */
  private void tornLog(int n) throws IOException {
    try (WriteAheadLog log = WriteAheadLog.open(dir, aead, WriteAheadLog.Sync.WRITE, 1)) {
      for (int i = 1; i <= n; i++) {
        log.append(WriteAheadLog.WRITE, new byte[] {(byte) i});
      }
    }
    Path file = dir.resolve("wal.1");
    byte[] data = Files.readAllBytes(file);
    Files.write(file, Arrays.copyOf(data, data.length - 10));
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
    WriteAheadLog.open(dir, aead, WriteAheadLog.Sync.WRITE, 2).close();
    assertTrue(Files.exists(dir.resolve("wal.2")));
    assertEquals(List.of(1, 2), replayedFrom(1));
  }

  @Test
  void aTornRecord_beforeAFileWithContent_isDamageNotATail() throws IOException {
    tornLog(3);
    try (WriteAheadLog log = WriteAheadLog.open(dir, aead, WriteAheadLog.Sync.WRITE, 2)) {
      log.append(WriteAheadLog.WRITE, new byte[] {9});
    }
    StateException e = assertThrows(StateException.class, () -> replayedFrom(1));
    assertTrue(e.getMessage().contains("wal.1"), e.getMessage());
  }

  @Test
  void rotation_keepsRecordsInTheirOwnFiles_andReplaysAllInOrder() {
    try (WriteAheadLog log = WriteAheadLog.open(dir, aead, WriteAheadLog.Sync.WRITE, 1)) {
      log.append(WriteAheadLog.WRITE, new byte[] {1});
      assertEquals(2, log.rotate());
      log.append(WriteAheadLog.WRITE, new byte[] {2});
      assertEquals(2, log.sequence());
    }
    assertEquals(List.of(1, 2), replayedFrom(1));
    assertEquals(List.of(2), replayedFrom(2));
    assertTrue(WriteAheadLog.isEmpty(dir, 3));
    assertTrue(!WriteAheadLog.isEmpty(dir, 2));
  }

  @Test
  void eachFileIsSealedUnderItsOwnKey() {
    try (WriteAheadLog log = WriteAheadLog.open(dir, aead, WriteAheadLog.Sync.WRITE, 1)) {
      log.append(WriteAheadLog.WRITE, new byte[] {1});
      log.rotate();
      log.append(WriteAheadLog.WRITE, new byte[] {2});
      log.append(WriteAheadLog.WRITE, new byte[] {3});
    }
    assertEquals(List.of(1, 2, 3), replayedFrom(1));
    // file 2 read with file 1's key: its first record fails authentication, and it is not a torn tail
    assertThrows(StateException.class,
        () -> WriteAheadLog.replay(dir, s -> aead.apply(1), 1, r -> { }));
  }
}
