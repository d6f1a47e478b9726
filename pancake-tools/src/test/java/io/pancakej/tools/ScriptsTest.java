package io.pancakej.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import redis.clients.jedis.Jedis;
import redis.clients.jedis.exceptions.JedisConnectionException;

/**
 * Smoke test of the bin/ scripts as a user runs them: alias, bin/pancake, bin/lib.sh, java. Runs on
 * the test classpath (PANCAKE_CLASSPATH) so no build starts inside the build.
 */
class ScriptsTest {
  private static final Path BIN = Path.of(System.getProperty("user.dir")).resolveSibling("bin");

  private record Result(int exitCode, String stdout, String stderr) {
    @Override
    public String toString() {
      return "exit " + exitCode + "\n--- stdout\n" + stdout + "\n--- stderr\n" + stderr;
    }
  }

  private static Result script(Path dir, String name, String... args) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>(List.of(BIN.resolve(name).toString()));
    cmd.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile());
    pb.environment().put("PANCAKE_CLASSPATH", System.getProperty("java.class.path"));
    pb.environment().put("JAVA_OPTS", "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC");
    Process p = pb.redirectError(dir.resolve("stderr.txt").toFile()).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(120, TimeUnit.SECONDS), name + " finished");
    return new Result(p.exitValue(), out, java.nio.file.Files.readString(dir.resolve("stderr.txt")));
  }

  @Test
  void aliases_reachTheirSubcommand_withItsExitCodes(@TempDir Path dir) throws Exception {
    for (String alias : List.of("compare", "store-bound")) { // every subcommand's help: PancakeCommandTest
      Result help = script(dir, alias, "--help");
      assertEquals(0, help.exitCode(), alias + "\n" + help);
      assertTrue(help.stdout().contains("Usage: pancake " + alias), alias + "\n" + help);
    }
    Result bad = script(dir, "compare", "--schemes", "insecure,nosuch");
    assertEquals(2, bad.exitCode(), bad.toString());
    assertTrue(bad.stderr().contains("unknown scheme nosuch"), bad.toString());
    assertEquals(0, script(dir, "pancake", "--help").exitCode());
    assertEquals(2, script(dir, "pancake").exitCode());
  }

  @Test
  void ycsb_loadsLikeStockYcsb_andFailsLoudly(@TempDir Path dir) throws Exception {
    Path workload = Path.of(System.getProperty("user.dir")).resolveSibling("workloads").resolve("workloada");
    Result load = script(dir, "ycsb", "load", "insecure", "-P", workload.toString(), "-p", "recordcount=20",
        "-jvm-args", "-Xmx128m", "-threads", "2");
    assertEquals(0, load.exitCode(), load.toString());
    assertTrue(load.stderr().lines().findFirst().orElseThrow().contains(" -Xmx128m -cp "), load.toString());
    assertTrue(load.stdout().contains("[INSERT], Return=OK, 20"), load.toString());
    assertTrue(dir.resolve("data/insecure/rocksdb").toFile().isDirectory(), "data under the current directory");
    Result missing = script(dir, "ycsb", "run", "insecure", "-P", "nosuch");
    assertEquals(1, missing.exitCode(), missing.toString());
    assertEquals(2, script(dir, "ycsb", "load", "nosuch").exitCode());
  }

  @Test
  void redisLocal_startsFlushesAndStopsAServer(@TempDir Path dir) throws Exception {
    Result start = script(dir, "redis-local", "start");
    assertEquals(0, start.exitCode(), start.toString());
    String[] portPid = start.stdout().trim().split(" ");
    assertEquals(2, portPid.length, start.toString());
    int port = Integer.parseInt(portPid[0]);
    try (Jedis j = new Jedis("127.0.0.1", port)) {
      j.set("k", "v");
      Result flush = script(dir, "redis-local", "flush", portPid[0]);
      assertEquals(0, flush.exitCode(), flush.toString());
      assertEquals(0, j.dbSize());
    } finally {
      assertEquals(0, script(dir, "redis-local", "stop", portPid[1]).exitCode());
    }
    ProcessHandle.of(Long.parseLong(portPid[1])).ifPresent(h -> h.onExit().join());
    try (Jedis j = new Jedis("127.0.0.1", port)) {
      j.ping();
      throw new AssertionError("the server still answers after stop");
    } catch (JedisConnectionException expected) {
      // stopped
    }
    assertEquals(2, script(dir, "redis-local").exitCode());
  }
}
