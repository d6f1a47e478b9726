package io.pancakej;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.opentest4j.AssertionFailedError;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kill test: a separate process writes unique increasing values and is killed with SIGKILL at
 * random moments, several times; after each kill, every write it acknowledged reads back with its
 * latest acknowledged value (or a later one it was writing when it died).
 */
class CrashSafetyTest {
  private static final int KEYS = 400;
  private static final int ROUNDS = 4;

  @TempDir
  Path dir;

  @Test
  void acknowledgedWrites_surviveSigkill_repeatedly() throws Exception {
    long acks = killRepeatedly("write", ROUNDS);
    System.out.println("crash safety: " + ROUNDS + " kills, " + acks + " acknowledged writes checked");
  }

  /**
   * Without the log the kill loses acknowledged writes: reads come back without them, or -- when a
   * replica holds a value of a key binding the state forgot -- fail with an IntegrityException.
   * Either way the check notices.
   */
  @Test
  void withoutTheLog_acknowledgedWritesAreLost_soTheCheckHasTeeth() {
    Throwable loss = assertThrows(Throwable.class, () -> killRepeatedly("off", 1));
    assertTrue(loss instanceof AssertionFailedError || loss instanceof IntegrityException,
        "unexpected failure without the log: " + loss);
  }

  private long killRepeatedly(String walSync, int rounds) throws Exception {
    Path state = dir.resolve("state-" + walSync);
    Path rocks = dir.resolve("rocksdb-" + walSync);
    java.util.Properties props = new java.util.Properties();
    props.setProperty(PancakeConfig.STATE_DIR_PROPERTY, state.toString());
    props.setProperty("pancake.store", "rocksdb");
    props.setProperty("rocksdb.dir", rocks.toString());
    props.setProperty(PancakeConfig.CAPACITY_PROPERTY, Integer.toString(KEYS));
    PancakeClient.open(PancakeConfig.fromProperties(props)).close();

    Map<Integer, Long> acked = new HashMap<>();
    Random rnd = new Random(42);
    long totalAcks = 0;
    // a killed JVM never deletes the RocksDB library it extracted into its temporary directory: give
    // it the test's, which JUnit deletes, rather than the machine's /tmp (15 MB a kill)
    Path childTmp = Files.createDirectories(dir.resolve("tmp-" + walSync));
    for (int round = 1; round <= rounds; round++) {
      Process child = new ProcessBuilder(System.getProperty("java.home") + "/bin/java",
          "-Djava.io.tmpdir=" + childTmp, "-cp",
          System.getProperty("java.class.path"), KillWorker.class.getName(), state.toString(), rocks.toString(),
          Integer.toString(KEYS), Integer.toString(round), walSync)
          .redirectError(ProcessBuilder.Redirect.INHERIT).start();
      BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
      assertEquals("READY", out.readLine(), "worker did not start");
      long delayMillis = 200 + rnd.nextInt(1000);
      Thread killer = new Thread(() -> {
        try {
          Thread.sleep(delayMillis);
          // SIGKILL from outside: Process.destroyForcibly would also close our end of its pipes
          new ProcessBuilder("kill", "-9", Long.toString(child.pid())).start().waitFor();
        } catch (Exception e) {
          child.destroyForcibly();
        }
      });
      // per worker thread: the operation it had begun and not seen acknowledged (key, value; -1 = delete)
      Map<Integer, long[]> inFlight = new HashMap<>();
      String line;
      long acksThisRound = 0;
      while ((line = out.readLine()) != null) {
        String[] f = line.split(" ");
        if (f.length != 4) {
          continue; // the line the kill cut short
        }
        int thread = Integer.parseInt(f[1]);
        int key = Integer.parseInt(f[2]);
        long value = Long.parseLong(f[3]);
        if (f[0].equals("BEGIN")) {
          inFlight.put(thread, new long[] {key, value});
        } else if (f[0].equals("ACK")) {
          inFlight.remove(thread);
          acked.put(key, value);
          if (acksThisRound++ == 0) {
            killer.start(); // the kill lands at a random moment of a running workload
          }
        }
      }
      assertTrue(acksThisRound > 0, "round " + round + " acknowledged nothing");
      killer.join();
      assertTrue(child.waitFor(30, TimeUnit.SECONDS));
      totalAcks += acksThisRound;
      Map<Integer, Long> mayHaveLanded = new HashMap<>();
      for (long[] op : inFlight.values()) {
        mayHaveLanded.put((int) op[0], op[1]);
      }
      java.util.Properties reopen = withCreate(props, false);
      reopen.setProperty(PancakeConfig.WAL_SYNC_PROPERTY, walSync);
      try (PancakeClient client = PancakeClient.open(PancakeConfig.fromProperties(reopen))) {
        for (Map.Entry<Integer, Long> e : acked.entrySet()) {
          int key = e.getKey();
          Optional<byte[]> got = client.get(("k" + key).getBytes(StandardCharsets.UTF_8));
          long value = got.map(v -> Long.parseLong(new String(v, StandardCharsets.UTF_8))).orElse(-1L);
          long want = e.getValue();
          Long unacknowledged = mayHaveLanded.get(key);
          assertTrue(value == want || (unacknowledged != null && value == unacknowledged), "round " + round
              + ": key " + key + " reads " + value + "; acknowledged " + want + ", in flight " + unacknowledged);
          acked.put(key, value);
        }
      }
    }
    return totalAcks;
  }

  private static java.util.Properties withCreate(java.util.Properties p, boolean create) {
    java.util.Properties q = new java.util.Properties();
    q.putAll(p);
    q.setProperty(PancakeConfig.CREATE_PROPERTY, Boolean.toString(create));
    return q;
  }
}
