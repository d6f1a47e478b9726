package io.pancakej.smoothing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.pancakej.PancakeClient;
import io.pancakej.PancakeConfig;
import io.pancakej.crypto.MasterKey;
import io.pancakej.store.MemoryStore;

/**
 * A state directory written by the code before typed log records (test resource
 * {@code state-format4}, see its README) still reads and recovers: the log's records decode to
 * what was written, and a proxy opened over it, with the store as it was, serves the logged values.
 */
class StateFormatCompatibilityTest {
  private static final String FIXTURE = "state-format4/";
  private static final List<String> FILES = List.of("state.bin", "epoch.bin", "master.key", "wal.4");

  @TempDir
  Path tmp;

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] resource(String name) {
    try (InputStream in = StateFormatCompatibilityTest.class.getResourceAsStream(FIXTURE + name)) {
      if (in == null) {
        throw new IllegalStateException("test resource " + FIXTURE + name + " is missing");
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A copy of the fixture's state directory (a test must not write into its resources). */
  private Path stateDir() throws IOException {
    Path state = tmp.resolve("state");
    Files.createDirectories(state);
    for (String f : FILES) {
      Files.write(state.resolve(f), resource(f));
    }
    if (Files.getFileStore(state).supportsFileAttributeView("posix")) {
      // a master key must be readable by its owner only, and resources are copied world-readable
      Files.setPosixFilePermissions(state.resolve("master.key"), PosixFilePermissions.fromString("rw-------"));
    }
    return state;
  }

  /** The memory store as the fixture's proxy left it. */
  private static MemoryStore store() {
    MemoryStore store = new MemoryStore("memory");
    for (String line : new String(resource("store.hex"), StandardCharsets.US_ASCII).split("\n")) {
      String[] kv = line.trim().split(" ");
      store.put(HexFormat.of().parseHex(kv[0]), HexFormat.of().parseHex(kv[1]));
    }
    return store;
  }

  @Test
  void theOldLog_decodesToTheRecordsThatWereWritten() throws IOException {
    Path state = stateDir();
    MasterKey key = MasterKey.load(state.resolve("master.key"));
    ProxyState saved;
    try (StateDirectory dir = StateDirectory.lock(state)) {
      saved = dir.load(key);
    }
    assertEquals(4, saved.walSequence());
    List<LogRecord> records = new ArrayList<>();
    assertEquals(4, WriteAheadLog.replay(state, Proxy.walKeys(key, saved.stateId()), 4, records::add));
    assertEquals(List.of(
        new LogRecord.Bind(5, utf8("k5")),
        new LogRecord.Write(5, utf8("v5")),
        new LogRecord.Write(2, utf8("v1-fourth")),
        new LogRecord.Write(0, null),
        new LogRecord.Write(7, null),
        new LogRecord.Free(7),
        new LogRecord.Write(2, utf8("v1-third"))), records);
    // and each decodes from, and encodes to, exactly the bytes it was read from: re-sealing the
    // same plaintexts gives a file the old code would read the same way
    for (LogRecord r : records) {
      assertEquals(r, LogRecord.decode(r.encode()));
    }
  }

  @Test
  void theOldStateDirectory_recovers_andServesTheLoggedValues() throws IOException {
    Path state = stateDir();
    PancakeConfig config = PancakeConfig.builder().stateDir(state).valueSize(16).keySize(8).pacerRate(1000)
        .adapt(false).store(store()).build();
    try (PancakeClient client = PancakeClient.open(config)) {
      assertEquals("v1-third", new String(client.get(utf8("k1")).orElseThrow(), StandardCharsets.UTF_8));
      assertEquals("v5", new String(client.get(utf8("k5")).orElseThrow(), StandardCharsets.UTF_8));
      assertEquals(Optional.empty(), client.get(utf8("k2")), "deleted in the log");
      assertEquals(Optional.empty(), client.get(utf8("k3")), "deleted and freed before the checkpoint");
      assertEquals(Optional.empty(), client.get(utf8("k4")), "deleted and freed in the log");
      assertEquals(8, client.stats().capacity(), "the saved state's capacity");
    }
  }

  @Test
  void theOldStateDirectory_withATornLastRecord_recoversWithoutIt() throws IOException {
    Path state = stateDir();
    byte[] wal = Files.readAllBytes(state.resolve("wal.4"));
    Files.write(state.resolve("wal.4"), Arrays.copyOf(wal, wal.length - 7)); // a crash mid-append
    PancakeConfig config = PancakeConfig.builder().stateDir(state).valueSize(16).keySize(8).pacerRate(1000)
        .adapt(false).store(store()).build();
    try (PancakeClient client = PancakeClient.open(config)) {
      assertEquals("v1-fourth", new String(client.get(utf8("k1")).orElseThrow(), StandardCharsets.UTF_8));
      assertTrue(client.get(utf8("k4")).isEmpty());
    }
  }

  @Test
  void theOldStateDirectory_labelOwners_countTheBindingsItsLogHolds() throws IOException {
    Path state = stateDir();
    PancakeClient.LabelOwners owners = PancakeClient.labelOwners(state, MasterKey.load(state.resolve("master.key")));
    // the 16 replica labels are the store's entries, the canary aside
    Set<String> stored = new HashSet<>();
    for (String line : new String(resource("store.hex"), StandardCharsets.US_ASCII).split("\n")) {
      stored.add(line.trim().split(" ")[0]);
    }
    Set<String> labels = new HashSet<>();
    Map<String, Integer> owned = new HashMap<>();
    for (int i = 0; i < owners.labels().size(); i++) {
      labels.add(HexFormat.of().formatHex(owners.labels().get(i)));
      byte[] k = owners.keys().get(i);
      if (k != null) {
        owned.merge(new String(k, StandardCharsets.UTF_8), 1, Integer::sum);
      }
    }
    assertEquals(16, owners.labels().size());
    assertEquals(16, labels.size());
    assertTrue(stored.containsAll(labels) && stored.size() == 17, "replica labels are the stored ones, with the canary");
    // k5 was bound after the checkpoint (in the log), k4 freed after it; k2's deletion never reached
    // every replica, so its slot is still bound
    assertEquals(Set.of("k1", "k2", "k5"), owned.keySet());
  }
}
