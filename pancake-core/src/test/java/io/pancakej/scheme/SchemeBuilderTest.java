package io.pancakej.scheme;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.pancakej.ConfigException;
import io.pancakej.StateException;
import io.pancakej.StoreException;
import io.pancakej.crypto.MasterKey;
import io.pancakej.store.MemoryStore;

class SchemeBuilderTest {
  @TempDir
  Path dir;

  /** The smallest scheme: capacity up to 2^4. */
  static final class TestBuilder extends SchemeBuilder<TestBuilder> {
    TestBuilder() {
      super("Test ORAM", "data/test-state", 4);
    }

    TestBuilder read(Properties props) {
      return readProperties(props);
    }

    SchemeSettings snapshot() {
      return settings();
    }
  }

  private static Properties props(String... namesAndValues) {
    Properties p = new Properties();
    for (int i = 0; i < namesAndValues.length; i += 2) {
      p.setProperty(namesAndValues[i], namesAndValues[i + 1]);
    }
    return p;
  }

  @Test
  void noProperties_leaveTheDefaults_andNoSizeOrCapacity() {
    SchemeSettings s = new TestBuilder().read(props()).snapshot();
    assertEquals(Path.of("data/test-state"), s.stateDir());
    assertTrue(s.createIfMissing());
    assertNull(s.capacity());
    assertNull(s.valueSize(), "unset: an existing state keeps its own");
    assertNull(s.keySize());
    assertEquals(1200, s.valueSizeOr(1200));
    assertEquals(Path.of("data/test-state/master.key"), s.keyFile());
    assertNull(s.store());
  }

  @Test
  void sharedProperties_mapOntoTheSetters() {
    SchemeSettings s = new TestBuilder().read(props("pancake.state.dir", " " + dir + " ", "pancake.state.create", "false",
        "pancake.capacity", "16", "pancake.value.size", "64", "pancake.key.size", "24",
        "pancake.key.file", dir.resolve("k").toString())).snapshot();
    assertEquals(dir, s.stateDir());
    assertFalse(s.createIfMissing());
    assertEquals(16, s.capacity());
    assertEquals(16, s.explicitCapacity());
    assertEquals(64, s.valueSize());
    assertEquals(24, s.keySize());
    assertEquals(dir.resolve("k"), s.keyFile());
  }

  @Test
  void ycsbCounts_giveTheCapacityOfANewStateOnly_andAreCheckedWhenOneIsCreated() {
    SchemeSettings s = new TestBuilder().read(props("recordcount", "10", "insertcount", "5")).snapshot();
    assertEquals(15, s.capacity());
    assertFalse(s.capacityExplicit());
    assertNull(s.explicitCapacity(), "an existing state of another capacity is not refused");
    assertEquals(15, s.newStateCapacity());
    assertEquals(12, new TestBuilder().read(props("recordcount", "10", "insertcount", "5", "pancake.capacity", "12"))
        .snapshot().explicitCapacity(), "an explicit capacity wins");
    SchemeSettings big = new TestBuilder().read(props("recordcount", "17")).snapshot();
    assertEquals(17, big.capacity(), "too large for this scheme, but only an error when a state is created");
    String m = assertThrows(ConfigException.class, big::newStateCapacity).getMessage();
    assertTrue(m.contains("pancake.capacity") && m.contains("2^4") && m.contains("Test ORAM") && m.contains("17"), m);
    m = assertThrows(ConfigException.class, new TestBuilder().snapshot()::newStateCapacity).getMessage();
    assertTrue(m.contains("a new Test ORAM needs a capacity") && m.contains("pancake.capacity"), m);
  }

  /** A workload with inserts in its run (YCSB D, E) gets room for them: 2 x operationcount x insertproportion, as YCSB's own key chooser. */
  @Test
  void ycsbRunInserts_getRoomInTheDefaultCapacity() {
    Properties d = props("recordcount", "1000", "operationcount", "1000", "insertproportion", "0.05");
    assertEquals(1100, new TestBuilder().read(d).snapshot().capacity());
    assertEquals(1000, new TestBuilder().read(props("recordcount", "1000", "operationcount", "1000",
        "insertproportion", "0")).snapshot().capacity(), "no inserts, no room");
    assertEquals(1000, new TestBuilder().read(props("recordcount", "1000", "insertproportion", "0.05"))
        .snapshot().capacity(), "no operation count, no room");
    d.setProperty("pancake.capacity", "12");
    assertEquals(12, new TestBuilder().read(d).snapshot().capacity(), "an explicit capacity wins");
    String m = assertThrows(ConfigException.class, () -> new TestBuilder().read(props("recordcount", "10",
        "operationcount", "10", "insertproportion", "1.5"))).getMessage();
    assertTrue(m.contains("insertproportion") && m.contains("1.5"), m);
  }

  @Test
  void badValues_areRefusedAtTheSetter_namingTheProperty() {
    TestBuilder b = new TestBuilder();
    assertEquals(16, b.capacity(16).snapshot().capacity());
    for (int bad : new int[] {0, 17}) {
      String m = assertThrows(ConfigException.class, () -> b.capacity(bad)).getMessage();
      assertEquals("pancake.capacity must be between 1 and 2^4, got " + bad, m);
    }
    assertTrue(assertThrows(ConfigException.class, () -> b.valueSize(0)).getMessage().contains("pancake.value.size"));
    assertTrue(assertThrows(ConfigException.class, () -> b.keySize(65_536)).getMessage().contains("pancake.key.size"));
    assertThrows(NullPointerException.class, () -> b.stateDir(null));
    for (String[] bad : new String[][] {{"pancake.capacity", "lots"}, {"pancake.capacity", "17"},
        {"pancake.state.create", "maybe"}, {"pancake.value.size", "0"}, {"recordcount", "ten"}}) {
      String m = assertThrows(ConfigException.class, () -> new TestBuilder().read(props(bad))).getMessage();
      assertTrue(m.contains(bad[0]) && m.contains(bad[1]), m);
    }
  }

  @Test
  void open_needsAStore_andClosesItWhenOpeningFails() {
    assertTrue(assertThrows(ConfigException.class, () -> new TestBuilder().open(s -> s)).getMessage()
        .contains("the Test ORAM client needs a store"));
    MemoryStore store = new MemoryStore();
    TestBuilder b = new TestBuilder().store(store);
    assertEquals(store, b.open(SchemeSettings::store));
    assertThrows(IllegalStateException.class, () -> b.open(s -> {
      throw new IllegalStateException("open failed");
    }));
    assertThrows(StoreException.class, () -> store.get(new byte[] {1}), "the store was closed");
  }

  @Test
  void checkCanCreate_refusesWhenCreatingIsOff_orTheStoreHoldsData() {
    MemoryStore store = new MemoryStore();
    Path stateFile = dir.resolve("test.state");
    assertEquals(8, new TestBuilder().stateDir(dir).capacity(8).store(store).snapshot().checkCanCreate(stateFile));
    String m = assertThrows(StateException.class, () -> new TestBuilder().stateDir(dir).createIfMissing(false)
        .capacity(8).store(store).snapshot().checkCanCreate(stateFile)).getMessage();
    assertTrue(m.contains("no Test ORAM state") && m.contains("pancake.state.create=false"), m);
    store.put(new byte[] {1}, new byte[] {2});
    m = assertThrows(StateException.class,
        () -> new TestBuilder().stateDir(dir).capacity(8).store(store).snapshot().checkCanCreate(stateFile)).getMessage();
    for (String w : new String[] {"not empty", "one proxy per store", "test.state", store.describe()}) {
      assertTrue(m.contains(w), "should mention '" + w + "': " + m);
    }
  }

  @Test
  void masterKey_isCreatedForANewState_reloadedLater_andAMissingOneIsAnErrorForAnExistingState() throws Exception {
    SchemeSettings s = new TestBuilder().stateDir(dir).snapshot();
    Path stateFile = dir.resolve("test.state");
    MasterKey created = s.masterKey(null, stateFile, false);
    assertTrue(Files.exists(dir.resolve("master.key")));
    assertEquals(created.fingerprint(), s.masterKey(null, stateFile, true).fingerprint());
    Files.delete(dir.resolve("master.key"));
    String m = assertThrows(StateException.class, () -> s.masterKey(null, stateFile, true)).getMessage();
    assertTrue(m.contains("master key file") && m.contains("missing"), m);
    assertEquals(created, s.masterKey(created, stateFile, true), "a given key wins");
  }

  @Test
  void checkSame_andCheckStore_refuseWhatDiffersFromTheSavedState() {
    SchemeSettings s = new TestBuilder().stateDir(dir).store(new MemoryStore()).snapshot();
    s.checkSame("pancake.value.size", null, 64);
    s.checkSame("pancake.value.size", 64, 64);
    String m = assertThrows(StateException.class, () -> s.checkSame("pancake.value.size", 32, 64)).getMessage();
    assertTrue(m.contains("pancake.value.size=64") && m.contains("32 is configured"), m);
    s.checkStore(s.store().describe());
    m = assertThrows(StateException.class, () -> s.checkStore("redis:elsewhere:6379/0")).getMessage();
    assertTrue(m.contains("belongs to store 'redis:elsewhere:6379/0'") && m.contains("pancake.state.dir"), m);
  }
}
