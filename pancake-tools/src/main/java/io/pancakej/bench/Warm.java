package io.pancakej.bench;

import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A run's throughput once warm: the operations YCSB's status lines count after the first
 * {@value #SECONDS} seconds, over the time they took. The JVM's start, the open and the JIT's
 * warm-up fall in those seconds, so this is the figure to set beside a number measured after a
 * warm-up (the C++ reference's, issue #19: 15 s of warm-up, then 20 s measured). Whole-run ops/s
 * stays the table's main figure.
 */
final class Warm {
  /** Seconds of the run left out. */
  static final int SECONDS = 20;

  /** YCSB's status line: {@code yyyy-MM-dd HH:mm:ss:SSS <n> sec: <ops> operations; ...}. */
  private static final Pattern STATUS =
      Pattern.compile("^(\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}:\\d{3}) (\\d+) sec: (\\d+) operations;");
  private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss:SSS");

  private Warm() {}

  /**
   * Ops/s between the first status line that counts at least {@value #SECONDS} s of the run (YCSB's
   * own count, which starts with the run) and the last, timed by their stamps (the count is in whole
   * seconds); NaN unless at least {@value #SECONDS} s lie between those two (a short run, or no
   * status lines: YCSB's {@code -s} was not given).
   */
  static double throughput(List<String> lines) {
    LocalDateTime from = null;
    long fromOps = 0;
    LocalDateTime last = null;
    long lastOps = 0;
    for (String line : lines) {
      Matcher m = STATUS.matcher(line);
      if (!m.find()) {
        continue;
      }
      LocalDateTime at;
      try {
        at = LocalDateTime.parse(m.group(1), STAMP);
      } catch (DateTimeParseException e) {
        continue;
      }
      long ops = Long.parseLong(m.group(3));
      if (from == null && Long.parseLong(m.group(2)) >= SECONDS) {
        from = at;
        fromOps = ops;
      }
      last = at;
      lastOps = ops;
    }
    if (from == null) {
      return Double.NaN;
    }
    long millis = ChronoUnit.MILLIS.between(from, last);
    return millis < SECONDS * 1000L ? Double.NaN : (lastOps - fromOps) * 1000.0 / millis;
  }
}
