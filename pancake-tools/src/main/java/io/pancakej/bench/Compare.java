package io.pancakej.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

import picocli.CommandLine.Command;

/**
 * {@code bin/pancake compare} ({@code bin/compare}): {@link Bench}'s main comparison with its
 * options and defaults, then one table on stdout -- throughput, throughput as a ratio to insecure,
 * average and p99 latency of reads and updates, errors. The tables and charts {@code bench} writes
 * stay in {@code --out}.
 */
@Command(name = "compare", mixinStandardHelpOptions = true, sortOptions = false,
    description = {"Side-by-side YCSB comparison of the schemes on one store, one table on stdout.",
        "bench's main comparison with bench's options, then ops/s, ratio to insecure, read and update latency and "
            + "errors per scheme and workload on stdout."})
public final class Compare extends Bench {
  @Override
  public Integer call() throws Exception {
    Integer rc = super.call();
    if (rc == 0 && !noMain && !replot) {
      System.out.println();
      System.out.println(describeSetup() + " (tables, charts and raw outputs in " + out + ", " + work + ")");
      printTable(out.resolve("results.csv"), System.out);
    }
    return rc;
  }

  /** Prints the first columns of {@code bench}'s results.csv as an aligned table. */
  static void printTable(Path csv, PrintStream to) throws IOException {
    List<String> lines = Files.readAllLines(csv);
    String format = "%-10s %-8s %12s %9s %12s %12s %14s %14s %7s%n";
    to.printf(Locale.ROOT, format, "scheme", "workload", "ops/s", "x insec.", "read avg us", "read p99 us",
        "update avg us", "update p99 us", "errors");
    for (String line : lines.subList(1, lines.size())) {
      String[] c = line.split(",", -1);
      to.printf(Locale.ROOT, format, c[0], c[1], round(c[2], 0), round(c[3], 3), round(c[4], 0), round(c[5], 0),
          round(c[6], 0), round(c[7], 0), c[8]);
    }
  }

  private static String round(String cell, int decimals) {
    try {
      double v = Double.parseDouble(cell);
      return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%." + decimals + "f", v);
    } catch (NumberFormatException e) {
      return "-";
    }
  }
}
