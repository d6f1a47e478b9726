package io.pancakej.ycsb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.Vector;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.pancakej.KvClient;
import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.DBException;
import site.ycsb.Status;
import site.ycsb.StringByteIterator;

class KvClientBindingTest {

  private static Properties memory() {
    Properties p = new Properties();
    p.setProperty("pancake.store", "memory");
    p.setProperty(KvClientBinding.EXIT_ON_INIT_FAILURE_PROPERTY, "false");
    return p;
  }

  private static <T extends KvClientBinding> T binding(T db, Properties props) throws DBException {
    db.setProperties(props);
    db.init();
    return db;
  }

  private static Map<String, ByteIterator> record(String... fieldsAndValues) {
    Map<String, ByteIterator> m = new HashMap<>();
    for (int i = 0; i < fieldsAndValues.length; i += 2) {
      m.put(fieldsAndValues[i], new StringByteIterator(fieldsAndValues[i + 1]));
    }
    return m;
  }

  private static Map<String, String> strings(Map<String, ByteIterator> m) {
    Map<String, String> out = new HashMap<>();
    m.forEach((k, v) -> out.put(k, new String(v.toArray(), StandardCharsets.UTF_8)));
    return out;
  }

  @Test
  void crud_mapsToYcsbStatuses(@TempDir Path dir) throws Exception {
    for (KvClientBinding db : new KvClientBinding[] {new InsecureBinding(), new EncryptedBinding()}) {
      Properties props = memory();
      props.setProperty("pancake.key.file", dir.resolve("master.key").toString());
      binding(db, props);
      try {
        Map<String, ByteIterator> result = new HashMap<>();
        assertEquals(Status.NOT_FOUND, db.read("usertable", "user1", null, result));
        assertEquals(Status.NOT_FOUND, db.update("usertable", "user1", record("field0", "x")));
        assertEquals(Status.OK, db.insert("usertable", "user1", record("field0", "a", "field1", "b", "field2", "c")));
        assertEquals(Status.OK, db.update("usertable", "user1", record("field1", "B")));
        assertEquals(Status.OK, db.read("usertable", "user1", null, result));
        assertEquals(Map.of("field0", "a", "field1", "B", "field2", "c"), strings(result));
        result.clear();
        assertEquals(Status.OK, db.read("usertable", "user1", Set.of("field2"), result));
        assertEquals(Map.of("field2", "c"), strings(result));
        assertEquals(Status.NOT_IMPLEMENTED, db.scan("usertable", "user1", 10, null, new Vector<>()));
        assertEquals(Status.OK, db.delete("usertable", "user1"));
        assertEquals(Status.NOT_FOUND, db.delete("usertable", "user1"));
        assertEquals(Status.BAD_REQUEST, db.read("usertable", "", null, result));
      } finally {
        db.cleanup();
      }
    }
  }

  @Test
  void threadInstances_shareOneClient_closedByTheLastCleanup() throws Exception {
    InsecureBinding a = binding(new InsecureBinding(), memory());
    InsecureBinding b = binding(new InsecureBinding(), memory());
    KvClient shared = a.client();
    assertSame(shared, b.client());
    assertEquals(Status.OK, a.insert("t", "k", record("f", "v")));
    assertEquals(Status.OK, b.read("t", "k", null, new HashMap<>()));
    a.cleanup();
    a.cleanup(); // idempotent per instance
    assertEquals(Status.OK, b.read("t", "k", null, new HashMap<>()), "still open for b");
    b.cleanup();
    assertThrows(RuntimeException.class, () -> shared.get("k".getBytes(StandardCharsets.UTF_8)), "closed");
    InsecureBinding c = binding(new InsecureBinding(), memory());
    try {
      assertFalse(shared == c.client(), "a new client after the last cleanup");
    } finally {
      c.cleanup();
    }
  }

  @Test
  void oversizedRecord_isBadRequest_andNamesTheProperty() throws Exception {
    Properties props = memory();
    props.setProperty("pancake.value.size", "50");
    InsecureBinding db = binding(new InsecureBinding(), props);
    PrintStream err = System.err;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
    try {
      assertEquals(Status.BAD_REQUEST, db.insert("t", "big", record("field0", "x".repeat(100))));
      assertEquals(Status.BAD_REQUEST, db.insert("t", "big", record("field0", "x".repeat(100))));
    } finally {
      System.setErr(err);
      db.cleanup();
    }
    String text = captured.toString(StandardCharsets.UTF_8);
    assertTrue(text.contains("pancake.value.size"), text);
    assertEquals(1, text.lines().count(), "reported once: " + text);
  }

  @Test
  void unknownStore_failsInit_namingTheProperty() {
    Properties props = memory();
    props.setProperty("pancake.store", "nosuch");
    DB db = new InsecureBinding();
    db.setProperties(props);
    DBException e = assertThrows(DBException.class, db::init);
    assertTrue(e.getMessage().contains("pancake.store"), e.getMessage());
    assertTrue(e.getMessage().contains("nosuch"), e.getMessage());
  }

  @Test
  void runPhase_withoutLoadedState_failsClearly(@TempDir Path dir) {
    Properties props = memory();
    props.setProperty("pancake.state.dir", dir.resolve("never-loaded").toString());
    props.setProperty("dotransactions", "true");
    DB db = new EncryptedBinding();
    db.setProperties(props);
    DBException e = assertThrows(DBException.class, db::init);
    assertTrue(e.getMessage().contains("master key"), e.getMessage());
    assertTrue(e.getMessage().contains("pancake.state.create=false"), e.getMessage());
  }

  @Test
  void effectiveProperties_separateBindings_andForbidCreationInTheRunPhase() {
    Properties ycsb = new Properties();
    ycsb.setProperty("dotransactions", "true");
    Properties p = new EncryptedBinding().effectiveProperties(ycsb);
    assertEquals("data/encrypted/rocksdb", p.getProperty("rocksdb.dir"));
    assertEquals("data/encrypted/state", p.getProperty("pancake.state.dir"));
    assertEquals("false", p.getProperty("pancake.state.create"));
    ycsb.setProperty("dotransactions", "false");
    ycsb.setProperty("rocksdb.dir", "/somewhere");
    Properties load = new PancakeBinding().effectiveProperties(ycsb);
    assertEquals("/somewhere", load.getProperty("rocksdb.dir"));
    assertEquals("data/pancake/state", load.getProperty("pancake.state.dir"));
    assertEquals(null, load.getProperty("pancake.state.create"));
  }

  @Test
  void describe_keepsCauses_onOneLine() {
    RuntimeException e = new RuntimeException("outer", new IllegalStateException("inner\nline"));
    assertEquals("RuntimeException: outer; caused by IllegalStateException: inner line", KvClientBinding.describe(e));
  }
}
