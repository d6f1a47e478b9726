package io.pancakej.detworam;

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
import java.security.SecureRandom;
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

/** State across processes: reopen, crash and replay, lost or foreign state, changed parameters. */
class PersistenceTest {
  @TempDir
  Path dir;

  private final MemoryStore memoryA = new MemoryStore("memory:A");
  private final RecordingStore storeA = new RecordingStore(memoryA);

  /** Loads 200 keys (and deletes some) into store A; returns the expected contents. */
  private Map<Integer, byte[]> load() {
    Map<Integer, byte[]> model = new HashMap<>();
    try (DetWoOramClient c = DetWoOramClientTest.small(dir, 256, 256).store(storeA).build()) {
      writeRandom(c, model, new Random(21), 200, 200);
      for (int i = 0; i < 200; i += 7) {
        c.delete(DetWoOramClientTest.key(i));
        model.remove(i);
      }
    }
    return model;
  }

  private static void writeRandom(DetWoOramClient c, Map<Integer, byte[]> model, Random r, int keys, int writes) {
    for (int i = 0; i < writes; i++) {
      int k = i < keys ? i : r.nextInt(keys);
      byte[] v = DetWoOramClientTest.randomValue(r);
      c.put(DetWoOramClientTest.key(k), v);
      model.put(k, v);
    }
  }

  private DetWoOramClient reopen() {
    return DetWoOramClient.builder().store(storeA).stateDir(dir).masterKey(DetWoOramClientTest.MASTER)
        .createIfMissing(false).build();
  }

  private static void assertContents(DetWoOramClient c, Map<Integer, byte[]> model, int keys) {
    for (int i = 0; i < keys; i++) {
      if (model.containsKey(i)) {
        assertArrayEquals(model.get(i), c.get(DetWoOramClientTest.key(i)).orElseThrow(), "key " + i);
      } else {
        assertFalse(c.get(DetWoOramClientTest.key(i)).isPresent(), "absent key " + i);
      }
    }
  }

  @Test
  void reopening_theSameStateAndStore_returnsTheSameValues_andKeepsTheCounters() {
    Map<Integer, byte[]> model = load();
    long writes;
    try (DetWoOramClient c = reopen()) {
      assertEquals(model.size(), c.stats().keys());
      assertEquals(256, c.stats().capacity());
      assertContents(c, model, 200);
      c.put(DetWoOramClientTest.key(0), new byte[] {42});
      writes = c.stats().writes();
    }
    try (DetWoOramClient c = reopen()) {
      assertArrayEquals(new byte[] {42}, c.get(DetWoOramClientTest.key(0)).orElseThrow());
      assertEquals(writes, c.stats().writes(), "the write counter survives reopening");
    }
  }

  @Test
  void aCrash_afterACheckpoint_replaysEveryWriteTheStoreHolds() {
    Map<Integer, byte[]> model = new HashMap<>();
    DetWoOramClient crashed = DetWoOramClientTest.small(dir, 64, 64).store(storeA).build();
    writeRandom(crashed, model, new Random(5), 64, 250); // checkpoints every 32 writes; 26 writes after the last
    crashed.delete(DetWoOramClientTest.key(3));
    model.remove(3);
    long writes = crashed.stats().writes();
    // the process dies: no close, the state file is the checkpoint of write 224
    try (DetWoOramClient c = reopen()) {
      assertEquals(writes, c.stats().writes(), "the writes after the checkpoint were replayed");
      assertContents(c, model, 64);
      writeRandom(c, model, new Random(6), 64, 100);
      assertContents(c, model, 64);
    }
  }

  @Test
  void aCrash_inTheMiddleOfAWrite_leavesTheOldOrTheNewValue_andEverythingElse() {
    for (int prefix = 0; prefix <= 2; prefix++) {
      Path state = dir.resolve("prefix" + prefix);
      MemoryStore memory = new MemoryStore("memory:p" + prefix);
      int cut = prefix;
      boolean[] dying = {false};
      RecordingStore dies = new RecordingStore(memory) {
        @Override
        public void multiPut(java.util.List<byte[]> keys, java.util.List<byte[]> values) {
          if (dying[0]) { // the process dies after `cut` of the step's blocks reached the store
            super.multiPut(keys.subList(0, cut), values.subList(0, cut));
            throw new IllegalStateException("killed");
          }
          super.multiPut(keys, values);
        }
      };
      Map<Integer, byte[]> model = new HashMap<>();
      DetWoOramClient c = DetWoOramClientTest.small(state, 16, 8).store(dies).build(); // k = 2: 3 blocks a write
      writeRandom(c, model, new Random(prefix), 16, 37);
      dying[0] = true;
      assertThrows(IllegalStateException.class, () -> c.put(DetWoOramClientTest.key(5), new byte[] {7}));
      byte[] old = model.get(5);
      try (DetWoOramClient reopened = DetWoOramClient.builder().store(new RecordingStore(memory)).stateDir(state)
          .masterKey(DetWoOramClientTest.MASTER).build()) {
        byte[] got = reopened.get(DetWoOramClientTest.key(5)).orElseThrow();
        if (prefix == 0) {
          assertArrayEquals(old, got, "nothing reached the store: the old value");
        } else {
          assertArrayEquals(new byte[] {7}, got, "the holding block reached the store: the write is replayed");
          model.put(5, got);
        }
        assertContents(reopened, model, 16);
        writeRandom(reopened, model, new Random(9), 16, 40);
        assertContents(reopened, model, 16);
      }
    }
  }

  @Test
  void aStateTooFarBehindTheStore_isRefusedClearly() throws IOException {
    Map<Integer, byte[]> model = new HashMap<>();
    try (DetWoOramClient c = DetWoOramClientTest.small(dir, 32, 8).store(storeA).build()) {
      writeRandom(c, model, new Random(1), 32, 40);
    }
    byte[] early = Files.readAllBytes(StateFile.file(dir));
    try (DetWoOramClient c = reopen()) {
      writeRandom(c, model, new Random(2), 32, 40);
    }
    Files.write(StateFile.file(dir), early); // an old backup: 40 writes (more than M = 8) behind the store
    StateException e = assertThrows(StateException.class, this::reopen);
    assertTrue(e.getMessage().contains("too far back") && e.getMessage().contains("restore"), e.getMessage());
  }

  @Test
  void creatingOverAStoreThatHoldsData_isRefused_writesNothing_andTheRestoredStateReadsBack() throws Exception {
    Map<Integer, byte[]> model = load();
    Path stateFile = StateFile.file(dir);
    byte[] saved = Files.readAllBytes(stateFile);
    Files.delete(stateFile);
    storeA.clear();
    StateException e = assertThrows(StateException.class,
        () -> DetWoOramClientTest.small(dir, 256, 256).store(storeA).build());
    for (String w : new String[] {"not empty", "memory:A", "one proxy per store",
        dir.toAbsolutePath().normalize().toString()}) {
      assertTrue(e.getMessage().contains(w), "message should mention '" + w + "': " + e.getMessage());
    }
    assertTrue(storeA.ops().isEmpty(), "a refused create touched the store " + storeA.ops().size() + " times");
    assertFalse(Files.exists(stateFile), "a refused create must not save a state");
    Path other = dir.resolve("other");
    assertThrows(StateException.class, () -> DetWoOramClient.builder().store(storeA).stateDir(other).capacity(8)
        .build());
    assertFalse(Files.exists(other.resolve("master.key")), "a refused create left a key file");

    Files.write(stateFile, saved);
    try (DetWoOramClient c = reopen()) {
      assertContents(c, model, 200);
    }
  }

  @Test
  void reopening_withAnotherMasterKey_throwsIntegrityException() {
    load();
    MasterKey other = MasterKey.generate(new SecureRandom());
    IntegrityException e = assertThrows(IntegrityException.class,
        () -> DetWoOramClient.builder().store(storeA).stateDir(dir).masterKey(other).build());
    assertTrue(e.getMessage().contains("master key"), e.getMessage());
  }

  @Test
  void aTruncatedOrCorruptedStateFile_throwsAClearException() throws IOException {
    load();
    Path file = StateFile.file(dir);
    byte[] bytes = Files.readAllBytes(file);
    bytes[bytes.length / 2] ^= 1;
    Files.write(file, bytes);
    assertThrows(IntegrityException.class, this::reopen);
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
      ch.truncate(bytes.length / 2);
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
  void theStateOfStoreA_openedOnStoreB_throwsStateException() {
    load();
    StateException e = assertThrows(StateException.class, () -> DetWoOramClient.builder()
        .store(new MemoryStore("memory:B")).stateDir(dir).masterKey(DetWoOramClientTest.MASTER).build());
    assertTrue(e.getMessage().contains("memory:A") && e.getMessage().contains("memory:B"), e.getMessage());
  }

  @Test
  void aMissingState_withCreateFalse_asksForTheLoadPhase() {
    StateException e = assertThrows(StateException.class, this::reopen);
    assertTrue(e.getMessage().contains("load"), e.getMessage());
  }

  @Test
  void changedSizes_capacityOrHoldingArea_areRefused_namingTheProperty() {
    load();
    String[][] cases = {{"pancake.value.size", "64"}, {"pancake.key.size", "8"}, {"pancake.capacity", "512"},
        {"pancake.detworam.holding", "128"}};
    for (String[] c : cases) {
      DetWoOramClient.Builder b = DetWoOramClient.builder().store(storeA).stateDir(dir)
          .masterKey(DetWoOramClientTest.MASTER);
      int v = Integer.parseInt(c[1]);
      switch (c[0]) {
        case "pancake.value.size": b.valueSize(v); break;
        case "pancake.key.size": b.keySize(v); break;
        case "pancake.capacity": b.capacity(v); break;
        default: b.holding(v);
      }
      StateException e = assertThrows(StateException.class, b::build);
      assertTrue(e.getMessage().contains(c[0] + "=") && e.getMessage().contains(c[1]), e.getMessage());
    }
    try (DetWoOramClient c = DetWoOramClient.builder().store(storeA).stateDir(dir)
        .masterKey(DetWoOramClientTest.MASTER).capacity(256).holding(256).build()) {
      assertEquals(256, c.stats().capacity(), "the same parameters are accepted");
    }
  }

  @Test
  void openFromProperties_usesTheNamedStoreYcsbRecordCountAndTheHoldingProperty() {
    Properties p = new Properties();
    p.setProperty("pancake.store", "memory");
    p.setProperty("pancake.state.dir", dir.toString());
    p.setProperty("recordcount", "100");
    p.setProperty("insertcount", "20");
    p.setProperty("pancake.value.size", "64");
    p.setProperty("pancake.key.size", "24");
    p.setProperty("pancake.detworam.holding", "40");
    try (DetWoOramClient c = DetWoOramClient.open(p)) {
      assertEquals(120, c.stats().capacity());
      assertEquals(40, c.stats().holdingSlots());
      assertEquals(3, c.stats().refreshesPerWrite());
      c.put(DetWoOramClientTest.key(1), new byte[64]);
    }
    assertTrue(Files.exists(dir.resolve("master.key")));
    // a second open from properties gets a new, empty memory store: the blocks went with the first
    // one, so the state is refused at open, saying why (not as missing blocks at the first read)
    p.setProperty("pancake.state.create", "false");
    StateException e = assertThrows(StateException.class, () -> DetWoOramClient.open(p));
    assertTrue(e.getMessage().startsWith("pancake.store=memory keeps its data in this process only"), e.getMessage());
    assertTrue(e.getMessage().contains(dir.toAbsolutePath().toString()), e.getMessage());
  }
}
