package io.pancakej;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.pancakej.store.MemoryStore;
import io.pancakej.store.Stores;

/**
 * {@code pancake.store=memory} keeps its data in the process that opened it, while the state
 * directory stays on disk: a second run of a program over the same state directory is refused at
 * open, saying why, instead of failing later on data that is gone.
 */
class MemoryStoreSecondRunTest {
  @TempDir
  Path dir;

  private static Properties memory(Path state) {
    Properties p = new Properties();
    p.setProperty(Stores.STORE_PROPERTY, "memory");
    p.setProperty(PancakeConfig.STATE_DIR_PROPERTY, state.toString());
    p.setProperty(PancakeConfig.CAPACITY_PROPERTY, "16");
    p.setProperty(PancakeConfig.VALUE_SIZE_PROPERTY, "16");
    p.setProperty(PancakeConfig.KEY_SIZE_PROPERTY, "16");
    return p;
  }

  /** One run of a program: opens, writes {@code key}, reads it back, closes. */
  private static void run(Properties props, String key) {
    try (PancakeClient client = PancakeClient.open(PancakeConfig.fromProperties(props))) {
      client.put(KvClient.utf8(key), KvClient.utf8("v-" + key));
      assertArrayEquals(KvClient.utf8("v-" + key), client.get(KvClient.utf8(key)).orElseThrow());
    }
  }

  /** The state directory's files and contents (the lock file aside). */
  private static Map<String, String> files(Path state) throws IOException {
    Map<String, String> out = new TreeMap<>();
    try (Stream<Path> list = Files.list(state)) {
      for (Path f : (Iterable<Path>) list::iterator) {
        String name = f.getFileName().toString();
        if (!name.equals("state.lock")) {
          out.put(name, java.util.HexFormat.of().formatHex(Files.readAllBytes(f)));
        }
      }
    }
    return out;
  }

  @Test
  void aSecondRun_overTheSameStateDirectory_isRefusedAtOpen_sayingTheMemoryStoreIsSingleProcess() throws Exception {
    Path state = dir.resolve("state");
    run(memory(state), "first");
    Map<String, String> before = files(state);
    assertTrue(Files.isRegularFile(state.resolve("state.bin")), "the first run left a state on disk");

    StateException e = assertThrows(StateException.class, () -> run(memory(state), "second"));
    String m = e.getMessage();
    assertTrue(m.startsWith("pancake.store=memory keeps its data in this process only"), m);
    assertTrue(m.contains("state directory " + state.toAbsolutePath() + " already holds a state"), m);
    assertTrue(m.contains("pancake.store=rocksdb"), "says what to use instead: " + m);
    assertEquals(before, files(state), "the refused open changed nothing on disk");
  }

  @Test
  void runsThatEachGetANewStateDirectory_allWork() {
    run(memory(dir.resolve("run1")), "a");
    run(memory(dir.resolve("run2")), "b");
  }

  @Test
  void aMemoryStoreTheApplicationKeeps_stillCarriesAStateAcrossClients() {
    MemoryStore server = new MemoryStore();
    Path state = dir.resolve("state");
    PancakeConfig.Builder config = PancakeConfig.builder().stateDir(state).capacity(16).valueSize(16).keySize(16);
    try (PancakeClient client = PancakeClient.open(config.store(server).build())) {
      client.put(KvClient.utf8("k"), KvClient.utf8("v"));
    }
    try (PancakeClient client = PancakeClient.open(config.store(server.reopen()).build())) {
      assertArrayEquals(KvClient.utf8("v"), client.get(KvClient.utf8("k")).orElseThrow());
    }
  }
}
