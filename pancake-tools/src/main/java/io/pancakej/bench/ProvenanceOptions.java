package io.pancakej.bench;

import java.nio.file.Path;

import picocli.CommandLine.Option;

/**
 * {@code --machine} and {@code --date}: where and when a run's charts and tables say it ran. A
 * picocli mixin, shared by {@code bench} and {@code bench-dynamic} (their replots included).
 */
final class ProvenanceOptions {
  @Option(names = "--machine",
      description = "the machine description the charts and tables carry (default: detected, e.g. "
          + "\"2 vCPUs (AMD EPYC), 23 GiB RAM, Linux 6.18, Java 17.0.15\"; with --replot: the one each table records)")
  String machine;
  @Option(names = "--date",
      description = "the date (YYYY-MM-DD) the charts and tables carry (default: today, UTC; with --replot: the one "
          + "each table records)")
  String date;

  /**
   * --machine and --date where given, else {@code base}'s.
   *
   * @throws IllegalArgumentException on a malformed date
   */
  Charts.Provenance over(Charts.Provenance base) {
    return new Charts.Provenance(machine != null ? machine : base.machine(), date != null ? date : base.date());
  }

  /**
   * The machine and date of a table written earlier: those it records ({@code recorded}, null if
   * none), overridden by --machine and --date.
   *
   * @throws IllegalArgumentException when it records none and they are not both given, or on a
   *     malformed date
   */
  Charts.Provenance forTable(Path file, Charts.Provenance recorded) {
    if (recorded == null && (machine == null || date == null)) {
      throw new IllegalArgumentException(file
          + " does not record the machine and date of its run: give them with --machine and --date");
    }
    return recorded == null ? new Charts.Provenance(machine, date) : over(recorded);
  }
}
