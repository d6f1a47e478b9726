package io.pancakej.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A run's throughput after its first 20 seconds, from YCSB's status lines, and where it is published. */
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
    assertEquals(20_000, Warm.throughput(lines), 1e-9);
  }

  @Test
  void isUndefined_forARunTooShortOrWithoutStatusLines() {
    assertTrue(Double.isNaN(Warm.throughput(List.of(status(0, 0), status(10_000, 5), status(20_000, 9),
        status(39_999, 20)))), "19.999 s after the warm-up: too short");
    assertEquals(1.0, Warm.throughput(List.of(status(0, 0), status(20_000, 0), status(40_000, 20))), 1e-9);
    // YCSB's first line comes some 10 s late: its "20 sec" line is 19.86 s after it (05:50:55:841 ... 05:51:15:700)
    assertEquals(237 / 23.789, Warm.throughput(List.of("2026-11-27 05:50:55:841 0 sec: 0 operations; est completion in 0 second",
        "2026-11-27 05:51:15:700 20 sec: 100 operations; 5 current ops/sec;",
        "2026-11-27 05:51:39:489 43 sec: 337 operations; 10 current ops/sec;")), 1e-9);
    assertTrue(Double.isNaN(Warm.throughput(List.of("[OVERALL], Throughput(ops/sec), 100"))), "no -s");
    assertTrue(Double.isNaN(Warm.throughput(List.of())));
  }

  @Test
  void benchTables_carryTheWarmColumn_andAnOlderTableReplotsWithout(@TempDir Path out) throws Exception {
    Bench.Row insecure = new Bench.Row("insecure", "a", "", 30_000, 1, 2, 3, 4, 0, 1, 1, 1000, 10, 100, 1, 31_000);
    Bench.Row pancake = new Bench.Row("pancake", "a", "", 18_000, 1, 2, 3, 4, 0, 1, 1, 1000, 10, 100, 1, Double.NaN);
    Report.write(out, List.of(insecure, pancake), "setup", new Charts.Provenance("2 vCPUs", "2026-11-27"));
    List<String> csv = Files.readAllLines(out.resolve("results.csv"));
    assertTrue(csv.get(0).endsWith(",load_seconds,warm_ops_s"), csv.get(0));
    assertTrue(csv.get(1).endsWith(",31000.0"), csv.get(1));
    assertTrue(csv.get(2).endsWith(",-"), csv.get(2));
    List<String> md = Files.readAllLines(out.resolve("results.md"));
    assertTrue(md.get(3).endsWith("| ops/s after 20 s |"), md.get(3));
    assertTrue(md.get(5).endsWith("| 31000 |"), md.get(5));
    assertTrue(md.get(6).endsWith("| - |"), md.get(6));

    // a table written before the warm column: 15 columns in the CSV, 14 in the table
    List<String> older = new ArrayList<>();
    for (String line : csv) {
      older.add(line.substring(0, line.lastIndexOf(',')));
    }
    Files.write(out.resolve("results.csv"), older);
    Files.delete(out.resolve("throughput.png"));
    assertEquals(0, new picocli.CommandLine(new Bench()).execute("--replot", "--out", out.toString()));
    assertTrue(Files.exists(out.resolve("throughput.png")));
  }
}
