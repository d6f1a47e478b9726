package io.pancakej.bench;

import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A run's figures once warm, from YCSB's status lines after the first {@value #SECONDS} seconds: the
 * operations counted over the time they took, and their average latency. The JVM's start, the open
 * and the JIT's warm-up fall in those seconds, so these are the figures to set beside ones measured
 * after a warm-up (the C++ reference's, issue #19: 15 s of warm-up, then 20 s measured). Whole-run
 * figures stay the table's main ones.
 */
final class Warm {
  /** Seconds of the run left out. */
  static final int SECONDS = 20;

  /** YCSB's status line: {@code yyyy-MM-dd HH:mm:ss:SSS <n> sec: <ops> operations; ...}. */
  private static final Pattern STATUS =
      Pattern.compile("^(\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}:\\d{3}) (\\d+) sec: (\\d+) operations;");
  private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss:SSS");
  /**
   * One operation's latencies over a status line's interval, as YCSB's status thread prints them
   * ({@code [READ: Count=n, Max=.., Min=.., Avg=a, ...]}; failures as {@code READ-FAILED}, or per
   * error as {@code READ-NOT_FOUND} with {@code reportlatencyforeacherror}).
   */
  private static final Pattern INTERVAL =
      Pattern.compile("\\[([A-Za-z_-]+): Count=(\\d+), Max=\\d+, Min=\\d+, Avg=([0-9.]+)");
  /**
   * The requests counted, by the name before any {@code -}: READ-MODIFY-WRITE is left out (its READ
   * and UPDATE are counted on their own), and so are scans, which no binding here serves (stock YCSB
   * records their refusals, the in-flight client does not).
   */
  private static final Set<String> REQUESTS = Set.of("READ", "UPDATE", "INSERT", "DELETE");

  /** Whether a status line's operation name is one of {@link #REQUESTS}, failed or not. */
  private static boolean isRequest(String name) {
    int dash = name.indexOf('-');
    return REQUESTS.contains(dash < 0 ? name : name.substring(0, dash)) && !name.equals("READ-MODIFY-WRITE");
  }

  private Warm() {}

  /** A status line: its stamp, YCSB's whole-second count, the operations done, the rest of the line. */
  private record Status(LocalDateTime at, long second, long ops, String rest) {}

  private static List<Status> statusLines(List<String> lines) {
    List<Status> out = new ArrayList<>();
    for (String line : lines) {
      Matcher m = STATUS.matcher(line);
      if (!m.find()) {
        continue;
      }
      try {
        out.add(new Status(LocalDateTime.parse(m.group(1), STAMP), Long.parseLong(m.group(2)),
            Long.parseLong(m.group(3)), line.substring(m.end())));
      } catch (DateTimeParseException e) {
        // not a status line after all
      }
    }
    return out;
  }

  /**
   * The index of the first status line that counts at least {@value #SECONDS} s of the run (YCSB's
   * own count, which starts with the run), or -1 unless at least {@value #SECONDS} s of stamps lie
   * between it and the last line (a short run, or no status lines: YCSB's {@code -s} was not given).
   */
  private static int warmFrom(List<Status> s) {
    for (int i = 0; i < s.size(); i++) {
      if (s.get(i).second() >= SECONDS) {
        long millis = ChronoUnit.MILLIS.between(s.get(i).at(), s.get(s.size() - 1).at());
        return millis < SECONDS * 1000L ? -1 : i;
      }
    }
    return -1;
  }

  /** A run's warm throughput (ops/s) and its requests' average latency (us) there; NaN where undefined. */
  record Figures(double throughput, double latency) {}

  /**
   * Both figures from one reading of the lines: the throughput is the operations between the first
   * status line that counts at least {@value #SECONDS} s of the run and the last, over their stamps'
   * time (the count is in whole seconds); the latency is the average of the requests those lines'
   * intervals report (each line gives its interval's count and average per operation), weighted by
   * their counts. NaN when {@link #warmFrom} finds no such stretch, and the latency also when its
   * lines give none.
   */
  static Figures of(List<String> lines) {
    List<Status> s = statusLines(lines);
    int from = warmFrom(s);
    if (from < 0) {
      return new Figures(Double.NaN, Double.NaN);
    }
    Status first = s.get(from);
    Status last = s.get(s.size() - 1);
    double throughput = (last.ops() - first.ops()) * 1000.0 / ChronoUnit.MILLIS.between(first.at(), last.at());
    double sum = 0;
    long count = 0;
    for (Status line : s.subList(from + 1, s.size())) {
      Matcher m = INTERVAL.matcher(line.rest());
      while (m.find()) {
        if (isRequest(m.group(1))) {
          long n = Long.parseLong(m.group(2));
          sum += n * Double.parseDouble(m.group(3));
          count += n;
        }
      }
    }
    return new Figures(throughput, count == 0 ? Double.NaN : sum / count);
  }
}
