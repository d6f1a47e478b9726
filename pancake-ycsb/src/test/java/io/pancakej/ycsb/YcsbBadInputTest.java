package io.pancakej.ycsb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a user sees on bad input: a clear message naming what to change, never a hang. */
class YcsbBadInputTest {
  private static final Path LAUNCHER = Path.of(System.getProperty("user.dir")).resolveSibling("bin").resolve("ycsb");

  private static Map<String, String> small(String store) {
    Map<String, String> p = new LinkedHashMap<>();
    p.put("recordcount", "20");
    p.put("operationcount", "20");
    p.put("pancake.store", store);
    return p;
  }

  private static String runLauncher(int expectedExit, String... args) throws Exception {
    String[] cmd = new String[args.length + 1];
    cmd[0] = LAUNCHER.toString();
    System.arraycopy(args, 0, cmd, 1, args.length);
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    assertTrue(p.waitFor(30, TimeUnit.SECONDS), "launcher finished");
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(expectedExit, p.exitValue(), out);
    return out;
  }

  @Test
  void launcher_rejectsUnknownBinding_withUsage() throws Exception {
    String out = runLauncher(2, "load", "nosuch", "-P", "workloads/workloada");
    assertTrue(out.contains("unknown binding 'nosuch'"), out);
    assertTrue(out.contains("usage: bin/ycsb load|run <binding>"), out);
  }

  @Test
  void launcher_rejectsUnknownCommand_andNoArguments_withUsage() throws Exception {
    assertTrue(runLauncher(2, "frobnicate", "insecure").contains("unknown command 'frobnicate'"));
    assertTrue(runLauncher(2).contains("usage:"));
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
