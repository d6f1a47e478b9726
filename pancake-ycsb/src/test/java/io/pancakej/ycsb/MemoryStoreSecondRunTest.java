package io.pancakej.ycsb;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.pancakej.KvClient;
import io.pancakej.PancakeClient;
import io.pancakej.PancakeConfig;
import io.pancakej.StateException;
import io.pancakej.baseline.EncryptedClient;
import io.pancakej.baseline.InsecureClient;
import io.pancakej.detworam.DetWoOramClient;
import io.pancakej.pathoram.PathOramClient;
import io.pancakej.store.MemoryStore;
import io.pancakej.store.Stores;

/**
 * {@code pancake.store=memory} keeps its data in the process that opened it, while a state
 * directory stays on disk: for every scheme that keeps a state there (PANCAKE, Path ORAM,
 * DetWoORAM, and the encrypted baseline, whose state is its key file), a second run of a program
 * over the same state directory is refused at open with the same message, saying why, instead of
 * failing later on data that is gone (DetWoORAM's missing holding slots) or quietly answering
 * "absent" for everything (encrypted). Here, not in pancake-core, because it covers every scheme.
 */
class MemoryStoreSecondRunTest {
  @TempDir
  Path dir;

  /** Each scheme that keeps a state on disk, opened from properties as a program would. */
  private static Map<String, Function<Properties, KvClient>> statefulSchemes() {
    Map<String, Function<Properties, KvClient>> m = new LinkedHashMap<>();
    m.put("pancake", p -> PancakeClient.open(PancakeConfig.fromProperties(p)));
    m.put("pathoram", PathOramClient::open);
    m.put("detworam", DetWoOramClient::open);
    m.put("encrypted", EncryptedClient::open);
    return m;
  }

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
  private static void run(Function<Properties, KvClient> scheme, Properties props, String key) {
    try (KvClient client = scheme.apply(props)) {
      client.put(KvClient.utf8(key), KvClient.utf8("v-" + key));
      assertArrayEquals(KvClient.utf8("v-" + key), client.get(KvClient.utf8(key)).orElseThrow());
    }
  }

  /** The state directory's files and contents (lock files aside). */
  private static Map<String, String> files(Path state) throws IOException {
    Map<String, String> out = new TreeMap<>();
    try (Stream<Path> list = Files.list(state)) {
      for (Path f : (Iterable<Path>) list::iterator) {
        String name = f.getFileName().toString();
        if (!name.endsWith(".lock")) {
          out.put(name, HexFormat.of().formatHex(Files.readAllBytes(f)));
        }
      }
    }
    return out;
  }

  @Test
  void aSecondRun_overTheSameStateDirectory_isRefusedAtOpen_sayingTheMemoryStoreIsSingleProcess() throws Exception {
    for (Map.Entry<String, Function<Properties, KvClient>> scheme : statefulSchemes().entrySet()) {
      String name = scheme.getKey();
      Path state = dir.resolve(name);
      run(scheme.getValue(), memory(state), "first");
      Map<String, String> before = files(state);
      assertTrue(before.containsKey("master.key"), name + ": the first run left a state on disk");

      StateException e = assertThrows(StateException.class, () -> run(scheme.getValue(), memory(state), "second"),
          name);
      String m = e.getMessage();
      assertTrue(m.startsWith("pancake.store=memory keeps its data in this process only"), name + ": " + m);
      assertTrue(m.contains("state directory " + state.toAbsolutePath() + " already holds a state"), name + ": " + m);
      assertTrue(m.contains("pancake.store=rocksdb"), name + " says what to use instead: " + m);
      assertEquals(before, files(state), name + ": the refused open changed nothing on disk");
    }
  }

  @Test
  void runsThatEachGetANewStateDirectory_allWork() {
    statefulSchemes().forEach((name, scheme) -> {
      run(scheme, memory(dir.resolve(name + "-run1")), "a");
      run(scheme, memory(dir.resolve(name + "-run2")), "b");
    });
  }

  @Test
  void theInsecureBaseline_keepsNothingOnDisk_soEachRunStartsOnAnEmptyStore() {
    Properties p = memory(dir.resolve("insecure"));
    run(InsecureClient::open, p, "first");
    try (KvClient second = InsecureClient.open(p)) {
      assertTrue(second.get(KvClient.utf8("first")).isEmpty(), "the first run's data went with its store");
    }
    assertTrue(Files.notExists(dir.resolve("insecure")), "no state directory");
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
