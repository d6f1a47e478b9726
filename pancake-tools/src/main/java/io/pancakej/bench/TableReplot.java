package io.pancakej.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code bench --replot} for the sensitivity experiments, whose figures are published as markdown
 * only: batch.md and updatecache.md are read back into the values a run had and drawn by the code
 * that draws them after a run ({@link Report#writeBatchCharts}, {@link CacheSensitivity#writeCharts}).
 * The tables themselves are left as they are.
 */
final class TableReplot {
  private static final Pattern CACHE_SETUP =
      Pattern.compile("n = ([0-9]+) keys, ([0-9]+) operations on ([0-9]+) threads");
  private static final Pattern SEPARATOR = Pattern.compile("^\\|[-:| ]+\\|$");

  private TableReplot() {}

  /** The body rows of the markdown table(s) in {@code md}: cells stripped, header and separator lines left out. */
  static List<String[]> rows(List<String> md) {
    List<String[]> rows = new ArrayList<>();
    boolean header = true;
    for (String line : md) {
      String l = line.strip();
      if (!l.startsWith("|")) {
        header = true;
        continue;
      }
      if (header) {
        header = false; // the column names
        continue;
      }
      if (SEPARATOR.matcher(l).matches()) {
        continue;
      }
      String[] c = l.substring(1, l.endsWith("|") ? l.length() - 1 : l.length()).split("\\|", -1);
      for (int i = 0; i < c.length; i++) {
        c[i] = c[i].strip();
      }
      rows.add(c);
    }
    return rows;
  }

  /** batch.md's rows as {@link Report#writeBatch} had them: PANCAKE, variant "B=b", the figures the table shows. */
  static List<Bench.Row> batchRows(List<String> md) {
    List<Bench.Row> rows = new ArrayList<>();
    for (String[] c : rows(md)) {
      if (c.length < 6) {
        throw new IllegalArgumentException("not a row of batch.md: | " + String.join(" | ", c) + " |");
      }
      rows.add(new Bench.Row("pancake", c[0].toLowerCase(Locale.ROOT), "B=" + Integer.parseInt(c[1]), num(c[2]),
          Double.NaN, num(c[3]), Double.NaN, num(c[4]), 0, Double.NaN, num(c[5]), Double.NaN, 0, 0, Double.NaN));
    }
    if (rows.isEmpty()) {
      throw new IllegalArgumentException("batch.md has no rows");
    }
    return rows;
  }

  /** batch-throughput.png and batch-latency.png from batch.md: a comment, the setup in backticks, the table. */
  static void batch(Path out, List<String> md, Charts.Provenance provenance) throws IOException {
    String setup = md.size() > 1 ? md.get(1).replace("`", "") : "";
    Report.writeBatchCharts(out, batchRows(md), setup, provenance);
  }

  /**
   * updatecache.md's points in the order a run wrote them: first those against the write fraction (one
   * zipf parameter), then those against the zipf parameter (one write fraction).
   */
  static List<List<CacheSensitivity.Point>> cachePoints(List<String> md) {
    List<CacheSensitivity.Point> points = new ArrayList<>();
    for (String[] c : rows(md)) {
      if (c.length < 5) {
        throw new IllegalArgumentException("not a row of updatecache.md: | " + String.join(" | ", c) + " |");
      }
      points.add(new CacheSensitivity.Point(num(c[0]), num(c[1]), num(c[2]), Integer.parseInt(c[3]),
          num(c[4]) * 1024));
    }
    int split = 0;
    while (split < points.size() && points.get(split).skew() == points.get(0).skew()) {
      split++;
    }
    List<CacheSensitivity.Point> bySkew = points.subList(split, points.size());
    for (CacheSensitivity.Point p : bySkew) {
      if (p.writeFraction() != bySkew.get(0).writeFraction()) {
        throw new IllegalArgumentException("updatecache.md: expected rows of one zipf parameter, then rows of one "
            + "write fraction; row " + p + " has neither");
      }
    }
    if (split < 2 || bySkew.size() < 2) {
      throw new IllegalArgumentException("updatecache.md: expected rows against the write fraction, then rows "
          + "against the zipf parameter; found " + split + " and " + bySkew.size());
    }
    return List.of(points.subList(0, split), bySkew);
  }

  /** updatecache-write-fraction.png and updatecache-skew.png from {@code md} (updatecache.md). */
  static void cache(Path out, List<String> md, Charts.Provenance provenance) throws IOException {
    Matcher m = CACHE_SETUP.matcher(md.size() > 1 ? md.get(1) : "");
    if (!m.find()) {
      throw new IllegalArgumentException(
          "updatecache.md: line 2 does not say \"n = N keys, OPS operations on T threads\"");
    }
    List<List<CacheSensitivity.Point>> points = cachePoints(md);
    String setup = CacheSensitivity.setup(Integer.parseInt(m.group(1)), Long.parseLong(m.group(2)),
        Integer.parseInt(m.group(3)));
    CacheSensitivity.writeCharts(out, setup, points.get(0), points.get(1), provenance);
  }

  private static double num(String cell) {
    return cell.equals("-") ? Double.NaN : Double.parseDouble(cell.replace(",", ""));
  }
}
