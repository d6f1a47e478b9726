package io.pancakej.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code bench-dynamic --replot}: the charts of a run drawn again, by {@link DynamicCharts}, from the
 * files the run left (results.md, detection.csv, fig6c-*.csv), which stay as they are.
 */
final class DynamicReplot {
  private static final Pattern SETUP = Pattern.compile("n = ([0-9]+) keys \\(6a/6b/control\\), w = ([0-9]+)");
  private static final Pattern SWAPS = Pattern.compile("^## 6c: swapping, n = ([0-9]+) keys");

  private DynamicReplot() {}

  /**
   * Redraws the charts of {@code dir}; returns the files drawn. The machine and date are those
   * results.md records, overridden by {@code options}' --machine and --date.
   *
   * @throws IllegalArgumentException when results.md is absent, records no machine and date and none
   *     are given, or the files do not hold what a run writes
   */
  static List<String> replot(Path dir, ProvenanceOptions options) throws IOException {
    Path results = dir.resolve("results.md");
    if (!Files.isRegularFile(results)) {
      throw new IllegalArgumentException("cannot replot " + dir + ": " + results + " does not exist");
    }
    List<String> md = Files.readAllLines(results);
    Charts.Provenance recorded = md.isEmpty() ? null : Charts.Provenance.parse(md.get(0));
    Charts.Provenance where = options.forTable(results, recorded);
    List<String> drawn = new ArrayList<>();
    Path csv = dir.resolve("detection.csv");
    if (Files.isRegularFile(csv)) {
      detections(dir, md, Files.readAllLines(csv), where, drawn);
    }
    swaps(dir, md, where, drawn);
    if (drawn.isEmpty()) {
      throw new IllegalArgumentException("cannot replot " + dir + ": neither detection.csv nor a 6c table with its "
          + "fig6c-*.csv holds anything to draw");
    }
    return drawn;
  }

  private static void detections(Path dir, List<String> md, List<String> csv, Charts.Provenance where,
      List<String> drawn) throws IOException {
    List<Dynamic.Detection> a = new ArrayList<>();
    List<Dynamic.Detection> b = new ArrayList<>();
    for (String line : csv.subList(Math.min(1, csv.size()), csv.size())) {
      String[] c = line.split(",");
      if (c.length != 8) {
        throw new IllegalArgumentException("not a row of detection.csv: " + line);
      }
      Dynamic.Detection d = new Dynamic.Detection(c[1], Double.parseDouble(c[2]), Long.parseLong(c[3]),
          Long.parseLong(c[4]), Long.parseLong(c[5]), Double.parseDouble(c[6]), Double.parseDouble(c[7]));
      (c[0].equals("6a") ? a : b).add(d);
    }
    if (a.isEmpty() && b.isEmpty()) {
      return;
    }
    Matcher m = SETUP.matcher(String.join("\n", md));
    if (!m.find()) {
      throw new IllegalArgumentException(dir.resolve("results.md") + ": no \"n = N keys (6a/6b/control), w = W\"");
    }
    int keys = Integer.parseInt(m.group(1));
    int window = Integer.parseInt(m.group(2));
    if (!a.isEmpty()) {
      DynamicCharts.skewDrop(dir, keys, window, a, where);
      drawn.add(DynamicCharts.SKEW_DROP);
    }
    if (!b.isEmpty()) {
      DynamicCharts.kappa(dir, keys, window, b, where);
      drawn.add(DynamicCharts.KAPPA);
    }
  }

  /** Fig. 6c: each change of results.md's 6c table, with the samples of its CSV. */
  private static void swaps(Path dir, List<String> md, Charts.Provenance where, List<String> drawn)
      throws IOException {
    int start = -1;
    int n = 0;
    for (int i = 0; i < md.size() && start < 0; i++) {
      Matcher m = SWAPS.matcher(md.get(i));
      if (m.find()) {
        start = i + 1;
        n = Integer.parseInt(m.group(1));
      }
    }
    if (start < 0) {
      return;
    }
    int end = start;
    while (end < md.size() && !md.get(end).startsWith("## ")) {
      end++;
    }
    for (String[] row : TableReplot.rows(md.subList(start, end))) {
      String file = DynamicCharts.swapFile(row[0]);
      Path samples = dir.resolve(file.replace(".png", ".csv"));
      if (!Files.isRegularFile(samples)) {
        throw new IllegalArgumentException("cannot replot " + file + ": " + samples + " does not exist");
      }
      DynamicCharts.swap(dir.resolve(file), row[0], n, samples(Files.readAllLines(samples)), where);
      drawn.add(file);
    }
  }

  /** The samples of a fig6c-*.csv, in the columns of {@link Dynamic.Sample}. */
  static List<Dynamic.Sample> samples(List<String> csv) {
    List<Dynamic.Sample> out = new ArrayList<>();
    for (String line : csv.subList(Math.min(1, csv.size()), csv.size())) {
      String[] c = line.split(",");
      if (c.length != 9) {
        throw new IllegalArgumentException("not a row of a fig6c CSV: " + line);
      }
      out.add(new Dynamic.Sample(Double.parseDouble(c[0]), Long.parseLong(c[1]), Long.parseLong(c[2]),
          Integer.parseInt(c[3]), Long.parseLong(c[4]), Integer.parseInt(c[5]), Long.parseLong(c[6]),
          Integer.parseInt(c[7]), Long.parseLong(c[8])));
    }
    return out;
  }
}
