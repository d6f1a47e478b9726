package io.pancakej.pathoram;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.pancakej.IntegrityException;
import io.pancakej.StateException;
import io.pancakej.crypto.MasterKey;
import io.pancakej.store.MemoryStore;

class PersistenceTest {
  @TempDir
  Path dir;

  private final RecordingStore storeA = new RecordingStore(new MemoryStore("memory:A"));

  /** Loads 200 keys (and deletes some) into store A; returns the expected contents. */
  private Map<Integer, byte[]> load() {
    Map<Integer, byte[]> model = new HashMap<>();
    Random r = new Random(21);
    try (PathOramClient c = PathOramClientTest.small(dir, 256, 21).store(storeA).build()) {
      for (int i = 0; i < 200; i++) {
        byte[] v = PathOramClientTest.randomValue(r);
        c.put(PathOramClientTest.key(i), v);
        model.put(i, v);
      }
      for (int i = 0; i < 200; i += 7) {
        c.delete(PathOramClientTest.key(i));
        model.remove(i);
      }
    }
    return model;
  }

  private PathOramClient reopen() {
    return PathOramClient.builder().store(storeA).stateDir(dir).createIfMissing(false).build();
  }

  @Test
  void creatingOverAStoreThatHoldsData_isRefused_writesNothing_andTheRestoredStateReadsBack() throws Exception {
    Map<Integer, byte[]> model = load();
    Path stateFile = StateFile.file(dir);
    byte[] saved = Files.readAllBytes(stateFile);
    Files.delete(stateFile); // the state file is lost; the key file and the tree stay
    storeA.clear();
    StateException e = assertThrows(StateException.class,
        () -> PathOramClientTest.small(dir, 256, 21).store(storeA).build());
    for (String w : new String[] {"not empty", "memory:A", "one proxy per store",
        dir.toAbsolutePath().normalize().toString()}) {
      assertTrue(e.getMessage().contains(w), "message should mention '" + w + "': " + e.getMessage());
    }
    assertTrue(storeA.ops().stream().noneMatch(op -> op.kind() != RecordingStore.Kind.GET), "a refused create wrote "
        + storeA.ops().size() + " operations");
    assertFalse(Files.exists(stateFile), "a refused create must not save a state");

    // with another state directory and no key file yet: refused before a key file is created
    Path other = dir.resolve("other");
    assertThrows(StateException.class, () -> PathOramClientTest.small(other, 256, 21).store(storeA).build());
    assertFalse(Files.exists(other.resolve("master.key")), "a refused create left a key file");

    Files.write(stateFile, saved);
    try (PathOramClient c = reopen()) {
      for (Map.Entry<Integer, byte[]> entry : model.entrySet()) {
        assertArrayEquals(entry.getValue(), c.get(PathOramClientTest.key(entry.getKey())).orElseThrow());
      }
    }
  }

  @Test
  void reopening_theSameStateAndStore_returnsTheSameValues() {
    Map<Integer, byte[]> model = load();
    try (PathOramClient c = reopen()) {
      assertEquals(model.size(), c.stats().keys());
      assertEquals(256, c.stats().capacity());
      for (int i = 0; i < 200; i++) {
        if (model.containsKey(i)) {
          assertArrayEquals(model.get(i), c.get(PathOramClientTest.key(i)).orElseThrow(), "key " + i);
        } else {
          assertFalse(c.get(PathOramClientTest.key(i)).isPresent(), "deleted key " + i);
        }
      }
      c.put(PathOramClientTest.key(0), new byte[] {42});
    }
    try (PathOramClient c = reopen()) {
      assertArrayEquals(new byte[] {42}, c.get(PathOramClientTest.key(0)).orElseThrow());
      assertTrue(c.stats().accesses() > 400, "counters survive reopening");
    }
  }

  @Test
  void reopening_withAnotherMasterKey_throwsIntegrityException() {
    load();
    MasterKey other = MasterKey.generate(new java.security.SecureRandom());
    IntegrityException e = assertThrows(IntegrityException.class,
        () -> PathOramClient.builder().store(storeA).stateDir(dir).masterKey(other).build());
    assertTrue(e.getMessage().contains("master key"), e.getMessage());
    Path otherFile = dir.resolve("other.key");
    MasterKey.loadOrCreate(otherFile);
    assertThrows(IntegrityException.class,
        () -> PathOramClient.builder().store(storeA).stateDir(dir).keyFile(otherFile).build());
  }

  @Test
  void aTruncatedStateFile_throwsAClearException() throws IOException {
    load();
    Path file = dir.resolve(StateFile.FILE_NAME);
    long size = Files.size(file);
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
      ch.truncate(size / 2);
    }
    IntegrityException e = assertThrows(IntegrityException.class, this::reopen);
    assertTrue(e.getMessage().contains("truncated"), e.getMessage());
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
      ch.truncate(3);
    }
    StateException s = assertThrows(StateException.class, this::reopen);
    assertTrue(s.getMessage().contains("truncated"), s.getMessage());
  }

  @Test
  void aCorruptedStateFile_throwsIntegrityException() throws IOException {
    load();
    Path file = dir.resolve(StateFile.FILE_NAME);
    byte[] bytes = Files.readAllBytes(file);
    bytes[bytes.length / 2] ^= 1;
    Files.write(file, bytes);
    assertThrows(IntegrityException.class, this::reopen);
  }

  @Test
  void theStateOfStoreA_openedOnStoreB_throwsStateException() {
    load();
    RecordingStore storeB = new RecordingStore(new MemoryStore("memory:B"));
    StateException e = assertThrows(StateException.class,
        () -> PathOramClient.builder().store(storeB).stateDir(dir).build());
    assertTrue(e.getMessage().contains("memory:A") && e.getMessage().contains("memory:B"), e.getMessage());
  }

  @Test
  void aMissingState_withCreateFalse_asksForTheLoadPhase() {
    StateException e = assertThrows(StateException.class, this::reopen);
    assertTrue(e.getMessage().contains("load"), e.getMessage());
  }

  @Test
  void aChangedValueSize_isRefused() {
    load();
    StateException e = assertThrows(StateException.class,
        () -> PathOramClient.builder().store(storeA).stateDir(dir).valueSize(64).build());
    assertTrue(e.getMessage().contains("pancake.value.size"), e.getMessage());
  }

  @Test
  void openFromProperties_usesTheNamedStoreAndYcsbRecordCount() {
    Properties p = new Properties();
    p.setProperty("pancake.store", "memory");
    p.setProperty("pancake.state.dir", dir.toString());
    p.setProperty("recordcount", "100");
    p.setProperty("insertcount", "20");
    p.setProperty("pancake.value.size", "64");
    p.setProperty("pancake.key.size", "24");
    p.setProperty("pancake.seed", "5");
    try (PathOramClient c = PathOramClient.open(p)) {
      assertEquals(120, c.stats().capacity());
      assertEquals(7, c.stats().treeHeight());
      c.put(PathOramClientTest.key(1), new byte[64]);
    }
    assertTrue(Files.exists(dir.resolve("master.key")));
    // a second open from properties gets a new, empty memory store: the tree went with the first
    // one, so the state is refused at open, saying why
    p.setProperty("pancake.state.create", "false");
    StateException e = assertThrows(StateException.class, () -> PathOramClient.open(p));
    assertTrue(e.getMessage().startsWith("pancake.store=memory keeps its data in this process only"), e.getMessage());
    assertTrue(e.getMessage().contains(dir.toAbsolutePath().toString()), e.getMessage());
  }
}
