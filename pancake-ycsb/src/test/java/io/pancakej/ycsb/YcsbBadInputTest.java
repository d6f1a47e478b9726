package io.pancakej.ycsb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a user sees on bad input: a clear message naming what to change, never a hang. The
 * launcher's own usage errors ({@code bin/ycsb}) are tested in pancake-tools ({@code YcsbTest}).
 */
class YcsbBadInputTest {
  private static Map<String, String> small(String store) {
    Map<String, String> p = new LinkedHashMap<>();
    p.put("recordcount", "20");
    p.put("operationcount", "20");
    p.put("pancake.store", store);
    return p;
  }

  @Test
  void unknownStore_endsTheProcess_namingTheProperty(@TempDir Path dir) throws Exception {
    Map<String, String> p = small("nosuch");
    YcsbProcess.Result r = YcsbProcess.run(dir, "load", InsecureBinding.class.getName(), "workloada", 2, p);
    assertEquals(1, r.exitCode(), r.toString());
    assertTrue(r.stderr().contains("unknown store 'nosuch' in property pancake.store"), r.toString());
    assertFalse(r.stderr().contains("\tat "), "no stack trace\n" + r);
  }

  @Test
  void oversizedRecord_isBadRequest_namingValueSize(@TempDir Path dir) throws Exception {
    Map<String, String> p = small("rocksdb");
    p.put("pancake.value.size", "500");
    YcsbProcess.Result r = YcsbProcess.run(dir, "load", InsecureBinding.class.getName(), "workloada", 2, p);
    assertEquals(0, r.exitCode(), r.toString());
    // YCSB stops a loading thread at its first failed insert: one BAD_REQUEST per thread
    assertEquals(Long.valueOf(2), r.returns().get("INSERT=BAD_REQUEST"), r.toString());
    assertFalse(r.returns().containsKey("INSERT=OK"), r.toString());
    assertTrue(r.stderr().contains("raise property pancake.value.size"), r.toString());
    assertEquals(1, r.stderr().lines().filter(l -> l.startsWith("[insecure]")).count(), "reported once\n" + r);
  }

  @Test
  void encryptedRun_withoutLoad_endsWithMissingKeyError(@TempDir Path dir) throws Exception {
    YcsbProcess.Result r = YcsbProcess.run(dir, "run", EncryptedBinding.class.getName(), "workloadc", 2, small("rocksdb"));
    assertEquals(1, r.exitCode(), r.toString());
    assertTrue(r.stderr().contains("no master key file"), r.toString());
    assertTrue(r.stderr().contains("bin/ycsb load encrypted"), r.toString());
    assertFalse(dir.resolve("data/encrypted/state/master.key").toFile().exists(), "run must not create a key");
  }
}
