package io.pancakej;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;

import io.pancakej.baseline.EncryptedClient;
import io.pancakej.crypto.MasterKey;
import io.pancakej.store.ForwardingStore;
import io.pancakej.store.KvStore;
import io.pancakej.store.RedisStore;
import io.pancakej.store.RocksDbStore;
import io.pancakej.store.Stores;
import io.pancakej.testing.RedisServerFixture;
import redis.clients.jedis.Jedis;

/**
 * Creating a state never writes over a store that holds data (issue #15): a lost state file, a
 * second proxy with its own state directory (same key or another), or another scheme's data are
 * refused with a message that says what was found and how to go on, and the store is left byte
 * for byte as it was. A create that is rejected leaves nothing behind: no key file, no RocksDB
 * directory, no state directory that was not there before.
 */
class StateCreationTest {
  private static final HexFormat HEX = HexFormat.of();
  private static RedisServerFixture redis;

  @TempDir
  Path dir;

  @BeforeAll
  static void startRedis() {
    redis = new RedisServerFixture();
  }

  @AfterAll
  static void stopRedis() {
    redis.close();
  }

  private static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static Properties rocksdb(Path rocksdbDir, Path stateDir) {
    Properties p = new Properties();
    p.setProperty(Stores.STORE_PROPERTY, "rocksdb");
    p.setProperty(Stores.ROCKSDB_DIR_PROPERTY, rocksdbDir.toString());
    p.setProperty("rocksdb.cache.mb", "8");
    p.setProperty(PancakeConfig.STATE_DIR_PROPERTY, stateDir.toString());
    p.setProperty(PancakeConfig.CAPACITY_PROPERTY, "40");
    p.setProperty(PancakeConfig.PACER_RATE_PROPERTY, "500");
    return p;
  }

  private static Properties redis(int db, Path stateDir) {
    Properties p = redis.properties();
    p.setProperty(Stores.REDIS_DB_PROPERTY, Integer.toString(db));
    p.setProperty(PancakeConfig.STATE_DIR_PROPERTY, stateDir.toString());
    p.setProperty(PancakeConfig.CAPACITY_PROPERTY, "40");
    p.setProperty(PancakeConfig.PACER_RATE_PROPERTY, "500");
    return p;
  }

  private static PancakeClient open(Properties p) {
    return PancakeClient.open(PancakeConfig.fromProperties(p));
  }

  private static void load(Properties p) {
    try (PancakeClient c = open(p)) {
      c.put(b("alice"), b("1"));
      c.put(b("bob"), b("2"));
    }
  }

  private static void assertReadsBack(Properties p) {
    try (PancakeClient c = open(p)) {
      assertArrayEquals(b("1"), c.get(b("alice")).orElseThrow());
      assertArrayEquals(b("2"), c.get(b("bob")).orElseThrow());
    }
  }

  private static void assertMentions(Exception e, String... words) {
    for (String w : words) {
      assertTrue(e.getMessage().contains(w), "message should mention '" + w + "': " + e.getMessage());
    }
  }

  /** Every key and value of a closed RocksDB directory, hex. */
  private static Map<String, String> contents(Path rocksdbDir) throws RocksDBException {
    Map<String, String> out = new TreeMap<>();
    try (Options o = new Options(); RocksDB db = RocksDB.openReadOnly(o, rocksdbDir.toString());
        RocksIterator it = db.newIterator()) {
      for (it.seekToFirst(); it.isValid(); it.next()) {
        out.put(HEX.formatHex(it.key()), HEX.formatHex(it.value()));
      }
    }
    return out;
  }

  /** Every key and value of Redis database {@code db}, hex. */
  private static Map<String, String> contents(int db) {
    Map<String, String> out = new TreeMap<>();
    try (Jedis j = redis.jedis()) {
      j.select(db);
      for (byte[] k : j.keys(b("*"))) {
        out.put(HEX.formatHex(k), HEX.formatHex(j.get(k)));
      }
    }
    return out;
  }

  /** Every path under {@code root}, relative, with each file's bytes. */
  private static Map<String, String> tree(Path root) throws IOException {
    Map<String, String> out = new TreeMap<>();
    if (!Files.exists(root)) {
      return out;
    }
    try (Stream<Path> s = Files.walk(root)) {
      for (Path p : s.collect(Collectors.toList())) {
        out.put(root.relativize(p).toString(), Files.isRegularFile(p) ? HEX.formatHex(Files.readAllBytes(p)) : "dir");
      }
    }
    return out;
  }

  /** Moves the state file and log away, as a lost or deleted state would; returns where to. */
  private static Path loseStateFile(Path stateDir, Path backup) throws IOException {
    Files.createDirectories(backup);
    try (Stream<Path> s = Files.list(stateDir)) {
      for (Path f : s.collect(Collectors.toList())) {
        String name = f.getFileName().toString();
        if (name.equals("state.bin") || name.startsWith("wal.")) {
          Files.move(f, backup.resolve(name));
        }
      }
    }
    return backup;
  }

  private static void restore(Path backup, Path stateDir) throws IOException {
    try (Stream<Path> s = Files.list(backup)) {
      for (Path f : s.collect(Collectors.toList())) {
        Files.move(f, stateDir.resolve(f.getFileName()));
      }
    }
  }

  // ------------------------------------------------------------------ RocksDB

  @Test
  void rocksdb_lostStateFile_createIsRefused_storeIntact_andTheRestoredStateReadsBack() throws Exception {
    Path store = dir.resolve("rocksdb");
    Path state = dir.resolve("state");
    Properties p = rocksdb(store, state);
    load(p);
    Path backup = loseStateFile(state, dir.resolve("backup"));
    Map<String, String> before = contents(store);
    Map<String, String> stateBefore = tree(state);

    StateException e = assertThrows(StateException.class, () -> open(p));
    assertMentions(e, "store rocksdb:" + store.toAbsolutePath().normalize(), state.toAbsolutePath().normalize().toString(),
        "not empty", "created with this master key", "one proxy per store", "restore the state directory",
        "delete the RocksDB directory " + store.toAbsolutePath().normalize());

    assertEquals(before, contents(store), "the store must be left byte for byte as it was");
    assertEquals(stateBefore, tree(state), "a refused create must not write into the state directory");
    restore(backup, state);
    assertReadsBack(p);
  }

  @Test
  void rocksdb_secondStateDirectory_withItsOwnKey_isRefused_andLeavesNothingBehind() throws Exception {
    Path store = dir.resolve("rocksdb");
    Properties first = rocksdb(store, dir.resolve("state"));
    load(first);
    Map<String, String> before = contents(store);

    Path second = dir.resolve("second-state");
    StateException e = assertThrows(StateException.class, () -> open(rocksdb(store, second)));
    assertMentions(e, "not empty", "entries", "another master key", "one proxy per store",
        second.toAbsolutePath().normalize().toString());
    assertFalse(e.getMessage().contains("created with this master key"), e.getMessage());

    assertEquals(before, contents(store));
    assertFalse(Files.exists(second), "the refused create left " + tree(second));
    assertReadsBack(first);
  }

  @Test
  void rocksdb_secondStateDirectory_withTheSameKeyFile_isRefused_namingTheKey() throws Exception {
    Path store = dir.resolve("rocksdb");
    Path state = dir.resolve("state");
    Properties first = rocksdb(store, state);
    load(first);
    Map<String, String> before = contents(store);

    Properties second = rocksdb(store, dir.resolve("second-state"));
    second.setProperty(PancakeConfig.KEY_FILE_PROPERTY, state.resolve("master.key").toString());
    StateException e = assertThrows(StateException.class, () -> open(second));
    assertMentions(e, "created with this master key", state.resolve("master.key").toAbsolutePath().normalize().toString(),
        "one proxy per store");

    assertEquals(before, contents(store));
    assertFalse(Files.exists(dir.resolve("second-state")));
    assertReadsBack(first);
  }

  @Test
  void interruptedCreation_keepsItsKey_andTheNextCreateSaysTheCreationDidNotFinish() {
    Path store = dir.resolve("rocksdb");
    Path state = dir.resolve("state");
    AtomicInteger puts = new AtomicInteger();
    KvStore failing = new ForwardingStore(RocksDbStore.open(store, 8)) {
      @Override
      public void multiPut(List<byte[]> keys, List<byte[]> values) {
        if (puts.incrementAndGet() == 2) { // 2n = 800 replicas are written in chunks of 512
          throw new StoreException("injected: the store went away");
        }
        super.multiPut(keys, values);
      }

      @Override
      public void put(byte[] key, byte[] value) {
        standardPut(key, value); // counted like the chunks
      }
    };
    assertThrows(StoreException.class, () -> PancakeClient.open(
        PancakeConfig.builder().stateDir(state).capacity(400).store(failing).build()));
    assertTrue(Files.exists(state.resolve("master.key")), "the key the written replicas are sealed under is kept");
    assertFalse(Files.isRegularFile(state.resolve("state.bin")));

    StateException e = assertThrows(StateException.class, () -> PancakeClient.open(
        PancakeConfig.builder().stateDir(state).capacity(400).store(RocksDbStore.open(store, 8)).build()));
    assertMentions(e, "not the last one", "did not finish", "one proxy per store", "delete the RocksDB directory");
  }

  // ------------------------------------------------------------------ Redis

  @Test
  void redis_lostStateFile_createIsRefused_dbIntact_andTheRestoredStateReadsBack() throws Exception {
    redis.flushAll();
    Path state = dir.resolve("state");
    Properties p = redis(0, state);
    load(p);
    Path backup = loseStateFile(state, dir.resolve("backup"));
    Map<String, String> before = contents(0);
    Map<String, String> stateBefore = tree(state);

    StateException e = assertThrows(StateException.class, () -> open(p));
    assertMentions(e, "store redis:" + redis.address() + "/0", state.toAbsolutePath().normalize().toString(),
        "created with this master key", "one proxy per store", "restore the state directory",
        "FLUSHDB on Redis database 0 of " + redis.address());

    assertEquals(before, contents(0), "the store must be left byte for byte as it was");
    assertEquals(stateBefore, tree(state));
    restore(backup, state);
    assertReadsBack(p);
  }

  @Test
  void redis_dbHoldingAnotherSchemesData_isRefused_namingTheCount_whileAnEmptyDbIsFine() throws Exception {
    redis.flushAll();
    try (EncryptedClient other = EncryptedClient.builder().store(RedisStore.open(redis(3, dir)))
        .masterKey(MasterKey.generate(new SecureRandom())).valueSize(64).keySize(16).build()) {
      other.put(b("carol"), b("3"));
      other.put(b("dave"), b("4"));
    }
    Map<String, String> before = contents(3);
    assertEquals(2, before.size());

    Path state = dir.resolve("state");
    StateException e = assertThrows(StateException.class, () -> open(redis(3, state)));
    assertMentions(e, "store redis:" + redis.address() + "/3", "holds 2 entries", "one proxy per store",
        "redis-cli -h " + redis.host() + " -p " + redis.port() + " -n 3 FLUSHDB");
    assertEquals(before, contents(3));
    assertFalse(Files.exists(state));

    // another logical database of the same server is another store
    load(redis(4, state));
    assertReadsBack(redis(4, state));
    assertEquals(before, contents(3));
  }

  // ------------------------------------------------------------------ rejected creates leave nothing

  @Test
  void rejectedCreates_leaveNoKeyFile_noStoreDirectory_andNoStateDirectory() throws Exception {
    Path keyDir = dir.resolve("keys");
    Path tooLongKey = Files.writeString(dir.resolve("long-key.tsv"), "1\t" + "k".repeat(PancakeConfig.DEFAULT_KEY_SIZE + 1) + "\n");
    StringBuilder many = new StringBuilder();
    for (int i = 0; i < 41; i++) {
      many.append("1\tkey").append(i).append('\n');
    }
    Path tooManyKeys = Files.writeString(dir.resolve("many.tsv"), many.toString());
    Path badWeight = Files.writeString(dir.resolve("bad.tsv"), "heavy\tkey\n");
    Path nonEmptyStore = dir.resolve("non-empty-rocksdb");
    load(rocksdb(nonEmptyStore, dir.resolve("owner-state")));

    record Case(String name, Class<? extends PancakeException> error, String property, String value, boolean sameStore) {}
    List<Case> cases = List.of(
        new Case("capacity above 2^29", ConfigException.class, PancakeConfig.CAPACITY_PROPERTY, "536870913", false),
        new Case("missing distribution file", ConfigException.class, PancakeConfig.DISTRIBUTION_FILE_PROPERTY,
            dir.resolve("absent.tsv").toString(), false),
        new Case("unreadable weight", ConfigException.class, PancakeConfig.DISTRIBUTION_FILE_PROPERTY, badWeight.toString(), false),
        new Case("key longer than pancake.key.size", ValueTooLargeException.class,
            PancakeConfig.DISTRIBUTION_FILE_PROPERTY, tooLongKey.toString(), false),
        new Case("more keys than the capacity", ConfigException.class, PancakeConfig.DISTRIBUTION_FILE_PROPERTY,
            tooManyKeys.toString(), false),
        new Case("store holds data", StateException.class, "unused", "", true));
    Map<String, String> nonEmptyBefore = contents(nonEmptyStore);
    for (Case c : cases) {
      Path state = dir.resolve("state-" + c.name().replace(' ', '-'));
      Path store = c.sameStore() ? nonEmptyStore : dir.resolve("rocksdb-" + c.name().replace(' ', '-'));
      Path keyFile = keyDir.resolve(c.name().replace(' ', '-') + ".key");
      Properties p = rocksdb(store, state);
      p.setProperty(PancakeConfig.KEY_FILE_PROPERTY, keyFile.toString());
      p.setProperty(c.property(), c.value());
      PancakeException e = assertThrows(PancakeException.class, () -> open(p), c.name());
      assertTrue(c.error().isInstance(e), c.name() + ": " + e);
      assertFalse(Files.exists(state), c.name() + ": state directory left behind: " + tree(state));
      assertFalse(Files.exists(keyFile), c.name() + ": key file left behind");
      assertFalse(Files.exists(keyDir), c.name() + ": key directory left behind");
      if (!c.sameStore()) {
        assertFalse(Files.exists(store), c.name() + ": RocksDB directory left behind: " + tree(store));
      }
    }
    assertEquals(nonEmptyBefore, contents(nonEmptyStore));
  }

  @Test
  void rejectedCreate_inAnExistingEmptyStateDirectory_leavesItEmpty() throws Exception {
    Path store = dir.resolve("rocksdb");
    load(rocksdb(store, dir.resolve("owner")));
    Path state = Files.createDirectories(dir.resolve("prepared-state"));
    assertThrows(StateException.class, () -> open(rocksdb(store, state)));
    assertEquals(new TreeSet<>(List.of("")), new TreeSet<>(tree(state).keySet()), "left in it: " + tree(state));
  }
}
