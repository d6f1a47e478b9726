package io.pancakej.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code bin/pancake store-bound}: both patterns measured on one store, their ratio printed. */
class StoreBoundTest {
  @Test
  void rocksdb_measuresBothPatterns_andPrintsTheirRatio(@TempDir Path dir) {
    Cli.Run r = Cli.run("store-bound", "--records", "200", "--requests", "400", "--threads", "2",
        "--work", dir.toString());
    assertEquals(0, r.exitCode(), r.toString());
    Matcher insecure = Pattern.compile("insecure pattern \\(1 get\\): +(\\d+) requests/s").matcher(r.out());
    Matcher pancake = Pattern.compile("PANCAKE pattern \\(3 gets \\+ 3 puts\\): +(\\d+) requests/s").matcher(r.out());
    Matcher ratio = Pattern.compile("ratio of the two \\(store work only\\): (\\d+\\.\\d{3})").matcher(r.out());
    assertTrue(insecure.find() && pancake.find() && ratio.find(), r.toString());
    double expected = Double.parseDouble(pancake.group(1)) / Double.parseDouble(insecure.group(1));
    assertEquals(expected, Double.parseDouble(ratio.group(1)), 0.002, r.toString());
    assertTrue(Files.isDirectory(dir.resolve("insecure")) && Files.isDirectory(dir.resolve("pancake")));
    assertTrue(r.err().contains("store-bound: pancake pattern, 400 keys, 2 threads..."), "progress\n" + r);
  }

  /**
   * The clocked skeleton serves no more than its ticks' real slots allow and sends no more ticks than
   * asked: at 200 ticks/s of one batch (at most 600 slots a second, half of them real on average),
   * two callers get well under 600 requests/s whatever the store's speed.
   */
  @Test
  void clocked_isCappedByItsTicks(@TempDir Path dir) {
    Cli.Run r = Cli.run("store-bound", "--clocked", "--records", "200", "--requests", "200", "--threads", "2",
        "--tick-rates", "200,1600", "--tick-batches", "1", "--work", dir.toString());
    assertEquals(0, r.exitCode(), r.toString());
    Matcher row = Pattern.compile("(?m)^ +(\\d+) +(\\d+) +(\\d+) +(\\d+) +(\\d+) +(\\d+\\.\\d\\d)$").matcher(r.out());
    double[] served = new double[2];
    for (int i = 0; i < 2; i++) {
      assertTrue(row.find(), r.toString());
      double asked = Double.parseDouble(row.group(1));
      double sent = Double.parseDouble(row.group(3));
      served[i] = Double.parseDouble(row.group(4));
      assertTrue(sent <= asked * 1.05 + 5, "ticks sent " + sent + " of " + asked + "\n" + r);
      assertTrue(served[i] <= 3 * sent + 5, "requests/s " + served[i] + " from " + sent + " one-batch ticks/s\n" + r);
    }
    assertTrue(served[0] < 600, "200 one-batch ticks/s serve at most 600 requests/s\n" + r);
    assertTrue(served[1] > served[0], "eight times the ticks serve more\n" + r);
    assertTrue(r.err().contains("store-bound: clocked, 1600 ticks/s of 1 batches..."), "progress\n" + r);
  }

  @Test
  void badArguments_exitTwo() {
    assertEquals(2, Cli.run("store-bound", "--store", "cassandra").exitCode());
    assertEquals(2, Cli.run("store-bound", "--records", "0").exitCode());
    assertEquals(2, Cli.run("store-bound", "--clocked", "--tick-rates", "0").exitCode());
    assertEquals(2, Cli.run("store-bound", "--clocked", "--tick-batches", "2,0").exitCode());
    assertEquals(2, Cli.run("store-bound", "--clocked", "--threads", "8", "--requests", "4").exitCode());
    Cli.Run withoutClocked = Cli.run("store-bound", "--tick-rates", "3200");
    assertEquals(2, withoutClocked.exitCode());
    assertTrue(withoutClocked.err().contains("--tick-rates and --tick-batches need --clocked"), withoutClocked.toString());
  }
}
