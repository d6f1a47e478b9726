package io.pancakej.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A run's throughput and latency after its first 20 seconds, from YCSB's status lines, and where they are published. */
class WarmTest {
  /** A status line as YCSB 0.17 prints it, {@code millis} after 2026-11-27 05:00:00.000. */
  private static String status(long millis, long ops) {
    long s = millis / 1000;
    return String.format("2026-11-27 05:%02d:%02d:%03d %d sec: %d operations; 1234.5 current ops/sec; [READ: Count=1]",
        s / 60, s % 60, millis % 1000, s, ops);
  }

  @Test
  void leavesOutTheFirstTwentySeconds_andTakesTheTimeFromTheStamps() {
    List<String> lines = new ArrayList<>();
    lines.add("Loading workload...");
    lines.add(status(0, 0));
    lines.add(status(10_000, 10_000)); // a slow start: 1 000 ops/s
    lines.add("[pancake] estimate: something in between");
    lines.add(status(20_250, 30_000));
    lines.add(status(30_250, 230_000)); // then 20 000 ops/s
    lines.add(status(40_250, 430_000));
    lines.add(status(45_900, 543_000)); // the last line, when the run ends (45 s by its own count: 20 520 ops/s)
    assertEquals(20_000, Warm.of(lines).throughput(), 1e-9);
  }

  @Test
  void isUndefined_forARunTooShortOrWithoutStatusLines() {
    assertTrue(Double.isNaN(Warm.of(List.of(status(0, 0), status(10_000, 5), status(20_000, 9),
        status(39_999, 20))).throughput()), "19.999 s after the warm-up: too short");
    assertEquals(1.0, Warm.of(List.of(status(0, 0), status(20_000, 0), status(40_000, 20))).throughput(), 1e-9);
    // YCSB's first line comes some 10 s late: its "20 sec" line is 19.86 s after it (05:50:55:841 ... 05:51:15:700)
    assertEquals(237 / 23.789, Warm.of(List.of("2026-11-27 05:50:55:841 0 sec: 0 operations; est completion in 0 second",
        "2026-11-27 05:51:15:700 20 sec: 100 operations; 5 current ops/sec;",
        "2026-11-27 05:51:39:489 43 sec: 337 operations; 10 current ops/sec;")).throughput(), 1e-9);
    assertTrue(Double.isNaN(Warm.of(List.of("[OVERALL], Throughput(ops/sec), 100")).throughput()), "no -s");
    assertTrue(Double.isNaN(Warm.of(List.of()).throughput()));
  }

  @Test
  void benchTables_carryTheWarmColumn_andAnOlderTableReplotsWithout(@TempDir Path out) throws Exception {
    Bench.Row insecure = new Bench.Row("insecure", "a", "", 30_000, 1, 2, 3, 4, 0, 1, 1, 1000, 10, 100, 1, 31_000, 250.4);
    Bench.Row pancake = new Bench.Row("pancake", "a", "", 18_000, 1, 2, 3, 4, 0, 1, 1, 1000, 10, 100, 1, Double.NaN, Double.NaN);
    Report.write(out, List.of(insecure, pancake), "setup", new Charts.Provenance("2 vCPUs", "2026-11-27"));
    List<String> csv = Files.readAllLines(out.resolve("results.csv"));
    assertTrue(csv.get(0).endsWith(",load_seconds,warm_ops_s,warm_avg_latency_us"), csv.get(0));
    assertTrue(csv.get(1).endsWith(",31000.0,250.4"), csv.get(1));
    assertTrue(csv.get(2).endsWith(",-,-"), csv.get(2));
    List<String> md = Files.readAllLines(out.resolve("results.md"));
    assertTrue(md.get(3).endsWith("| ops/s after 20 s | avg latency after 20 s us |"), md.get(3));
    assertTrue(md.get(5).endsWith("| 31000 | 250 |"), md.get(5));
    assertTrue(md.get(6).endsWith("| - | - |"), md.get(6));

    // tables written before the warm latency column (16 columns in the CSV), and before the warm
    // throughput column too (15)
    for (int cut = 1; cut <= 2; cut++) {
      List<String> older = new ArrayList<>();
      for (String line : csv) {
        String l = line;
        for (int i = 0; i < cut; i++) {
          l = l.substring(0, l.lastIndexOf(','));
        }
        older.add(l);
      }
      Files.write(out.resolve("results.csv"), older);
      Files.delete(out.resolve("throughput.png"));
      assertEquals(0, new picocli.CommandLine(new Bench()).execute("--replot", "--out", out.toString()), "cut " + cut);
      assertTrue(Files.exists(out.resolve("throughput.png")), "cut " + cut);
    }
  }

  /** A status line with its interval's latencies, as YCSB 0.17's status thread prints them. */
  private static String status(long millis, long ops, String latencies) {
    return status(millis, ops).replace("[READ: Count=1]", latencies);
  }

  @Test
  void latency_isTheWarmIntervalsAverage_weightedByTheirCounts() {
    List<String> lines = List.of(
        status(0, 0, ""),
        status(10_000, 1_000, "[READ: Count=1000, Max=90000, Min=10, Avg=9000.0, 90=1, 99=1, 99.9=1, 99.99=1]"),
        status(20_100, 2_000, "[READ: Count=1000, Max=90000, Min=10, Avg=8000.0, 90=1, 99=1, 99.9=1, 99.99=1]"),
        // warm from here: 300 requests at 500 and 100 at 900 us, then 300 at 600 and 100 at 700 us
        status(30_100, 2_400, "[READ: Count=300, Max=1000, Min=10, Avg=500.0, 90=1, 99=1, 99.9=1, 99.99=1] "
            + "[CLEANUP: Count=8, Max=9000, Min=10, Avg=4012.88, 90=1, 99=1, 99.9=1, 99.99=1] "
            + "[SCAN-FAILED: Count=70, Max=9, Min=1, Avg=2.5, 90=1, 99=1, 99.9=1, 99.99=1] "
            + "[UPDATE: Count=100, Max=1000, Min=10, Avg=900.0, 90=1, 99=1, 99.9=1, 99.99=1]"),
        status(40_100, 2_800, "[READ-MODIFY-WRITE: Count=50, Max=1, Min=1, Avg=99999.0, 90=1, 99=1, 99.9=1, 99.99=1] "
            + "[UPDATE-FAILED: Count=300, Max=1000, Min=10, Avg=600.0, 90=1, 99=1, 99.9=1, 99.99=1] "
            + "[READ-NOT_FOUND: Count=100, Max=1000, Min=10, Avg=700.0, 90=1, 99=1, 99.9=1, 99.99=1]"));
    assertEquals((300 * 500.0 + 100 * 900 + 300 * 600 + 100 * 700) / 800, Warm.of(lines).latency(), 1e-9);
    assertEquals(40.0, Warm.of(lines).throughput(), 1e-9);
    assertTrue(Double.isNaN(Warm.of(lines.subList(0, 4)).latency()), "10 s after the warm-up: too short");
    assertTrue(Double.isNaN(Warm.of(List.of(status(0, 0), status(20_000, 0), status(40_000, 20))).latency()),
        "status lines without latencies");
  }
}
