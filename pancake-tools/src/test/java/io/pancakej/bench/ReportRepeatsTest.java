package io.pancakej.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** --repeat: per-run ratios to insecure, their median, and the median run per scheme and workload. */
class ReportRepeatsTest {
  private static Bench.Row row(String scheme, String workload, double throughput) {
    return new Bench.Row(scheme, workload, "", throughput, 1, 2, 3, 4, 0, 1, 1, 1000, 10, 100, 1);
  }

  private static final List<List<Bench.Row>> RUNS = List.of(
      List.of(row("insecure", "c", 1000), row("pancake", "c", 300)),   // 0.300
      List.of(row("insecure", "c", 2000), row("pancake", "c", 400)),   // 0.200
      List.of(row("insecure", "c", 1500), row("pancake", "c", 600)));  // 0.400

  @Test
  void ratiosAreTakenWithinEachRun_andTheirMedianIsReported(@TempDir Path out) throws Exception {
    List<Double> ratios = Report.ratiosByRun(RUNS).get("pancake c");
    assertEquals(0.3, ratios.get(0), 1e-12);
    assertEquals(0.2, ratios.get(1), 1e-12);
    assertEquals(0.4, ratios.get(2), 1e-12);
    assertEquals(0.3, Report.median(ratios), 1e-12);
    assertEquals(0.25, Report.median(List.of(0.2, 0.3, 0.1, 0.4)), 1e-12);

    Report.writeRepeats(out, RUNS, "setup");
    String md = Files.readString(out.resolve("repeats.md"));
    assertTrue(md.contains("| pancake | C | 300, 400, 600 | 0.300, 0.200, 0.400 | 0.300 |"), md);
    assertTrue(md.contains("| insecure | C | 1000, 2000, 1500 | 1.000, 1.000, 1.000 | 1.000 |"), md);
  }

  @Test
  void theMedianRun_isAnActualRunPerSchemeAndWorkload() {
    List<Bench.Row> median = Report.medianRuns(RUNS);
    assertEquals(2, median.size());
    assertEquals(1500, median.get(0).throughput(), 0);
    assertEquals(400, median.get(1).throughput(), 0);
    // an even count takes the lower middle run
    assertEquals(1000, Report.medianRuns(RUNS.subList(0, 2)).get(0).throughput(), 0);
  }
}
