package io.pancakej;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.pancakej.store.RocksDbStore;
import io.pancakej.store.Stores;

/**
 * Bad input to a PANCAKE client, one case per test: each fails with a clear message, and
 * afterwards the data written before reads back with the right key, state and store (a failed
 * open does not rewrite the state file or the store).
 */
class PancakeBadInputTest {
  private static final byte[] KEY = KvClient.utf8("alice");
  private static final byte[] VALUE = KvClient.utf8("acknowledged value");

  @TempDir
  Path dir;
  private Path state;
  private Path store;

  @BeforeEach
  void writeData() {
    state = dir.resolve("state");
    store = dir.resolve("rocksdb");
    try (PancakeClient client = PancakeClient.open(config(state, store).build())) {
      client.put(KEY, VALUE);
    }
  }

  private static PancakeConfig.Builder config(Path state, Path rocksdb) {
    return PancakeConfig.builder().stateDir(state).capacity(50).pacerRate(500)
        .store(RocksDbStore.open(rocksdb, 8));
  }

  /** The acknowledged data reads back through the original state, key and store. */
  private void assertNothingLost() {
    try (PancakeClient client = PancakeClient.open(config(state, store).build())) {
      assertArrayEquals(VALUE, client.get(KEY).orElseThrow(), "the value written before the bad input");
    }
  }

  private static void assertMentions(Exception e, String... words) {
    for (String w : words) {
      assertTrue(e.getMessage().contains(w), "message should mention '" + w + "': " + e.getMessage());
    }
  }

  @Test
  void nullOrEmptyKey_orNullValue_isRejected_andNothingLost() {
    try (PancakeClient client = PancakeClient.open(config(state, store).build())) {
      assertMentions(assertThrows(IllegalArgumentException.class, () -> client.get(null)), "key");
      assertMentions(assertThrows(IllegalArgumentException.class, () -> client.get(new byte[0])), "key");
      assertMentions(assertThrows(IllegalArgumentException.class, () -> client.put(new byte[0], VALUE)), "key");
      assertMentions(assertThrows(IllegalArgumentException.class, () -> client.put(KEY, null)), "value");
      assertMentions(assertThrows(IllegalArgumentException.class, () -> client.delete(null)), "key");
      assertMentions(assertThrows(IllegalArgumentException.class, () -> client.update(new byte[0], v -> v)), "key");
      assertArrayEquals(VALUE, client.get(KEY).orElseThrow());
    }
    assertNothingLost();
  }

  @Test
  void oversizedKey_isRejected_namingTheProperty_andNothingLost() {
    try (PancakeClient client = PancakeClient.open(config(state, store).build())) {
      byte[] big = new byte[PancakeConfig.DEFAULT_KEY_SIZE + 1];
      ValueTooLargeException e = assertThrows(ValueTooLargeException.class, () -> client.put(big, VALUE));
      assertMentions(e, PancakeConfig.KEY_SIZE_PROPERTY, Integer.toString(big.length));
      assertThrows(ValueTooLargeException.class, () -> client.get(big));
      assertArrayEquals(VALUE, client.get(KEY).orElseThrow());
    }
    assertNothingLost();
  }

  @Test
  void oversizedValue_isRejected_namingTheProperty_andTheOldValueStays() {
    try (PancakeClient client = PancakeClient.open(config(state, store).build())) {
      byte[] big = new byte[PancakeConfig.DEFAULT_VALUE_SIZE + 1];
      ValueTooLargeException e = assertThrows(ValueTooLargeException.class, () -> client.put(KEY, big));
      assertMentions(e, PancakeConfig.VALUE_SIZE_PROPERTY, Integer.toString(big.length));
      ValueTooLargeException merged = assertThrows(ValueTooLargeException.class, () -> client.update(KEY, v -> big));
      assertMentions(merged, PancakeConfig.VALUE_SIZE_PROPERTY);
      assertArrayEquals(VALUE, client.get(KEY).orElseThrow(), "the old value stays");
    }
    assertNothingLost();
  }

  @Test
  void unknownStore_failsNamingThePropertyAndTheChoices_andNothingLost() {
    Properties p = new Properties();
    p.setProperty(PancakeConfig.STATE_DIR_PROPERTY, state.toString());
    p.setProperty(Stores.STORE_PROPERTY, "nosuch");
    ConfigException e = assertThrows(ConfigException.class, () -> PancakeClient.open(PancakeConfig.fromProperties(p)));
    assertMentions(e, "unknown store 'nosuch'", Stores.STORE_PROPERTY, "rocksdb", "redis-cluster");
    assertNothingLost();
  }

  @Test
  void capacityOtherThanTheStates_failsNamingBothValues_whileYcsbsRecordCountIsOnlyADefault() throws IOException {
    Path file = state.resolve("state.bin");
    byte[] sealed = Files.readAllBytes(file);
    ConfigException e = assertThrows(ConfigException.class,
        () -> PancakeClient.open(config(state, store).capacity(60).build()));
    assertMentions(e, "pancake.capacity=50", "pancake.capacity=60", state.toAbsolutePath().normalize().toString());
    assertArrayEquals(sealed, Files.readAllBytes(file), "a failed open leaves the state file alone");

    Properties p = new Properties();
    p.setProperty(PancakeConfig.STATE_DIR_PROPERTY, state.toString());
    p.setProperty(Stores.STORE_PROPERTY, "rocksdb");
    p.setProperty(Stores.ROCKSDB_DIR_PROPERTY, store.toString());
    p.setProperty(PancakeConfig.YCSB_RECORD_COUNT, "60"); // a YCSB run phase with other counts: not an error
    try (PancakeClient client = PancakeClient.open(PancakeConfig.fromProperties(p))) {
      assertArrayEquals(VALUE, client.get(KEY).orElseThrow());
    }
    p.setProperty(PancakeConfig.CAPACITY_PROPERTY, "60");
    assertMentions(assertThrows(ConfigException.class, () -> PancakeClient.open(PancakeConfig.fromProperties(p))),
        "pancake.capacity=50", "pancake.capacity=60");
    p.setProperty(PancakeConfig.CAPACITY_PROPERTY, "50");
    try (PancakeClient client = PancakeClient.open(PancakeConfig.fromProperties(p))) {
      assertArrayEquals(VALUE, client.get(KEY).orElseThrow());
    }
    assertNothingLost();
  }

  @Test
  void corruptedStateFile_failsNamingTheFile_andIsNotOverwritten() throws IOException {
    Path file = state.resolve("state.bin");
    byte[] original = Files.readAllBytes(file);
    for (int position : new int[] {0, original.length / 2, original.length - 1}) {
      byte[] bad = original.clone();
      bad[position] ^= 0x01;
      Files.write(file, bad);
      PancakeException e = assertThrows(PancakeException.class, () -> PancakeClient.open(config(state, store).build()),
          "byte " + position + " flipped");
      assertTrue(e instanceof StateException, "a damaged state is a StateException: " + e);
      assertMentions(e, file.toAbsolutePath().normalize().toString());
      assertTrue(e.getMessage().contains("damaged"), e.getMessage());
      assertArrayEquals(bad, Files.readAllBytes(file), "a failed open leaves the state file alone");
    }
    Files.write(file, original); // e.g. restored from a backup
    assertNothingLost();
  }

  @Test
  void truncatedStateFile_failsSayingSo_andIsNotOverwritten() throws IOException {
    Path file = state.resolve("state.bin");
    byte[] original = Files.readAllBytes(file);
    for (int length : new int[] {0, 5, original.length / 2, original.length - 1}) {
      byte[] cut = java.util.Arrays.copyOf(original, length);
      Files.write(file, cut);
      StateException e = assertThrows(StateException.class, () -> PancakeClient.open(config(state, store).build()),
          "cut to " + length + " bytes");
      assertMentions(e, "truncated", file.toAbsolutePath().normalize().toString());
      assertArrayEquals(cut, Files.readAllBytes(file), "a failed open leaves the state file alone");
    }
    Files.write(file, original);
    assertNothingLost();
  }

  @Test
  void wrongMasterKey_failsSayingTheKeyDoesNotMatch_andNothingLost() {
    Path otherState = dir.resolve("other-state");
    try (PancakeClient other = PancakeClient.open(config(otherState, dir.resolve("other-rocksdb")).build())) {
      other.put(KEY, KvClient.utf8("another state's value"));
    }
    IntegrityException e = assertThrows(IntegrityException.class, () -> PancakeClient.open(
        config(state, store).keyFile(otherState.resolve("master.key")).build()));
    assertMentions(e, "master key does not match");
    assertNothingLost();
  }

  @Test
  void stateOfAnotherStore_failsNamingBothStores_andNeitherIsTouched() {
    Path otherStore = dir.resolve("other-rocksdb");
    StateException e = assertThrows(StateException.class, () -> PancakeClient.open(config(state, otherStore).build()));
    assertMentions(e, "belongs to store", store.toAbsolutePath().normalize().toString(),
        otherStore.toAbsolutePath().normalize().toString());
    assertNothingLost();
  }

  @Test
  void storeOfAnotherState_failsAtOpen_andNothingLost() throws IOException {
    // a copy of the state directory is opened against a store the copy was never loaded into
    Path copy = dir.resolve("state-copy");
    Files.createDirectories(copy);
    Files.copy(state.resolve("state.bin"), copy.resolve("state.bin"));
    Files.copy(state.resolve("master.key"), copy.resolve("master.key"));
    Path emptyStore = dir.resolve("empty-rocksdb");
    PancakeException e = assertThrows(PancakeException.class, () -> PancakeClient.open(config(copy, emptyStore).build()));
    assertTrue(e instanceof StateException, e.toString());
    assertNothingLost();
  }

  @Test
  void storeThatCannotOpen_failsWithTheStoresError_whileTheStateLoads_andNothingLost() throws IOException {
    // the saved state is decrypted on another thread while the store opens: a store that fails
    // must be the error reported, and the state directory is unlocked once that thread is done
    Path notADirectory = Files.writeString(dir.resolve("not-a-directory"), "a file");
    Properties props = new Properties();
    props.setProperty("pancake.store", "rocksdb");
    props.setProperty("rocksdb.dir", notADirectory.toString());
    PancakeException e = assertThrows(PancakeException.class, () -> PancakeClient.open(
        PancakeConfig.builder().stateDir(state).capacity(50).pacerRate(500).storeProperties(props).build()));
    assertTrue(e instanceof StoreException || e instanceof ConfigException, e.toString());
    assertMentions(e, "not-a-directory");
    assertNothingLost();
  }
}
