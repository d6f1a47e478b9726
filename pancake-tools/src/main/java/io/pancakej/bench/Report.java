package io.pancakej.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.Styler;

/** Writes the bench results: markdown table, CSV and PNG charts in the style of the paper's figures. */
final class Report {
  private Report() {}

  static void write(Path out, List<Bench.Row> rows, String setup, Charts.Provenance provenance) throws IOException {
    Map<String, Double> base = new LinkedHashMap<>();
    for (Bench.Row r : rows) {
      if (r.scheme().equals("insecure")) {
        base.put(r.workload(), r.throughput());
      }
    }
    StringBuilder csv = new StringBuilder("scheme,workload,throughput_ops_s,ratio_to_insecure,read_avg_us,read_p99_us,"
        + "update_avg_us,update_p99_us,errors,server_round_trips_per_op,server_keys_per_op,server_bytes_per_op,"
        + "storage_entries,storage_bytes,load_seconds,warm_ops_s,warm_avg_latency_us\n");
    StringBuilder md = new StringBuilder("<!-- written by bin/bench; " + provenance.line() + " -->\n`" + setup + "`\n\n"
        + "| scheme | workload | ops/s | x insecure | read avg us | read p99 us | update avg us | update p99 us "
        + "| errors | server round trips/op | server keys/op | server KB/op | storage entries | storage MB "
        + "| ops/s after " + Warm.SECONDS + " s | avg latency after " + Warm.SECONDS + " s us |\n"
        + "|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n");
    for (Bench.Row r : rows) {
      double ratio = base.containsKey(r.workload()) ? r.throughput() / base.get(r.workload()) : Double.NaN;
      csv.append(String.join(",", r.scheme(), r.workload(), f(r.throughput(), 1), f(ratio, 4), f(r.readAvg(), 1),
          f(r.readP99(), 0), f(r.updateAvg(), 1), f(r.updateP99(), 0), String.valueOf(r.errors()),
          f(r.roundTripsPerOp(), 3), f(r.keysPerOp(), 3), f(r.bytesPerOp(), 0), String.valueOf(r.storageEntries()),
          String.valueOf(r.storageBytes()), f(r.loadSeconds(), 1), f(r.warmThroughput(), 1), f(r.warmLatency(), 1)))
          .append('\n');
      md.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %s | %s | %s | %d | %s | %s | %s | %d | %s | %s | %s |%n",
          r.scheme(), r.workload().toUpperCase(Locale.ROOT), f(r.throughput(), 0), f(ratio, 3), f(r.readAvg(), 0),
          f(r.readP99(), 0), f(r.updateAvg(), 0), f(r.updateP99(), 0), r.errors(), f(r.roundTripsPerOp(), 2),
          f(r.keysPerOp(), 2), f(r.bytesPerOp() / 1024, 2), r.storageEntries(),
          r.storageBytes() < 0 ? "-" : f(r.storageBytes() / 1048576.0, 1), f(r.warmThroughput(), 0),
          f(r.warmLatency(), 0)));
    }
    Files.writeString(out.resolve("results.csv"), csv);
    Files.writeString(out.resolve("results.md"), md);
    writeCharts(out, rows, setup, provenance);
  }

  /**
   * The rows with the throughput and latencies results.md shows: the CSV keeps one decimal, the table
   * rounds the exact figure, so a CSV value ending in .5 alone cannot tell which integer the table
   * printed. A table row that names another scheme or workload than the CSV's leaves that row as it is.
   */
  static List<Bench.Row> asPublished(List<Bench.Row> rows, List<String> md) {
    List<String[]> table = new ArrayList<>();
    for (String line : md) {
      if (line.startsWith("| ") && !line.startsWith("| scheme ")) {
        String[] c = line.split("\\|", -1);
        for (int i = 0; i < c.length; i++) {
          c[i] = c[i].strip();
        }
        table.add(c);
      }
    }
    List<Bench.Row> out = new ArrayList<>();
    for (int i = 0; i < rows.size(); i++) {
      Bench.Row r = rows.get(i);
      String[] c = i < table.size() ? table.get(i) : null;
      if (c == null || c.length < 9 || !c[1].equals(r.scheme()) || !c[2].equalsIgnoreCase(r.workload())) {
        out.add(r);
        continue;
      }
      out.add(new Bench.Row(r.scheme(), r.workload(), r.variant(), cell(c[3], r.throughput()), cell(c[5], r.readAvg()),
          cell(c[6], r.readP99()), cell(c[7], r.updateAvg()), cell(c[8], r.updateP99()), r.errors(),
          r.roundTripsPerOp(), r.keysPerOp(), r.bytesPerOp(), r.storageEntries(), r.storageBytes(), r.loadSeconds(),
          r.warmThroughput(), r.warmLatency()));
    }
    return out;
  }

  private static double cell(String text, double otherwise) {
    if (text.equals("-")) {
      return Double.NaN;
    }
    try {
      return Double.parseDouble(text);
    } catch (NumberFormatException e) {
      return otherwise;
    }
  }

  /** A bar's height as the table prints it (%.0f rounds half up; XChart's label pattern would round half even). */
  private static double shown(double v) {
    return Double.isNaN(v) ? v : Math.round(v);
  }

  static final String THROUGHPUT_TITLE = "Throughput (ops/s, log scale)";
  static final String LATENCY_TITLE = "Average latency (us, log scale)";
  static final String P99_TITLE = "p99 latency (us, log scale)";

  /** throughput.png, latency.png and latency-p99.png: each scheme in its colour, headed by setup, machine and date. */
  static void writeCharts(Path out, List<Bench.Row> rows, String setup, Charts.Provenance provenance)
      throws IOException {
    saveLog(throughputChart(rows), out.resolve("throughput.png"), THROUGHPUT_TITLE, setup, provenance);
    saveLog(latencyChart(rows, false), out.resolve("latency.png"), LATENCY_TITLE, setup, provenance);
    saveLog(latencyChart(rows, true), out.resolve("latency-p99.png"), P99_TITLE, setup, provenance);
  }

  /** Per scheme and workload, the run with the median throughput (the lower middle one for an even count). */
  static List<Bench.Row> medianRuns(List<List<Bench.Row>> runs) {
    List<Bench.Row> out = new ArrayList<>();
    for (Bench.Row first : runs.get(0)) {
      List<Bench.Row> same = rowsOf(runs, first.scheme(), first.workload());
      same.sort(java.util.Comparator.comparingDouble(Bench.Row::throughput));
      out.add(same.get((same.size() - 1) / 2));
    }
    return out;
  }

  /** One scheme and workload's row of every run, in run order. */
  private static List<Bench.Row> rowsOf(List<List<Bench.Row>> runs, String scheme, String workload) {
    List<Bench.Row> rows = new ArrayList<>();
    for (List<Bench.Row> run : runs) {
      for (Bench.Row r : run) {
        if (r.scheme().equals(scheme) && r.workload().equals(workload)) {
          rows.add(r);
        }
      }
    }
    return rows;
  }

  /** Every run's ratio to insecure (same run, same workload) per scheme and workload; NaN without insecure. */
  static Map<String, List<Double>> ratiosByRun(List<List<Bench.Row>> runs) {
    Map<String, List<Double>> ratios = new LinkedHashMap<>();
    for (List<Bench.Row> run : runs) {
      Map<String, Double> base = new LinkedHashMap<>();
      for (Bench.Row r : run) {
        if (r.scheme().equals("insecure")) {
          base.put(r.workload(), r.throughput());
        }
      }
      for (Bench.Row r : run) {
        Double b = base.get(r.workload());
        ratios.computeIfAbsent(r.scheme() + " " + r.workload(), k -> new ArrayList<>())
            .add(b == null ? Double.NaN : r.throughput() / b);
      }
    }
    return ratios;
  }

  static double median(List<Double> values) {
    List<Double> v = new ArrayList<>(values);
    v.sort(null);
    int n = v.size();
    return n % 2 == 1 ? v.get(n / 2) : (v.get(n / 2 - 1) + v.get(n / 2)) / 2;
  }

  /** repeats.md: each run's throughput and ratio to insecure, and the median ratio. */
  static void writeRepeats(Path out, List<List<Bench.Row>> runs, String setup) throws IOException {
    Map<String, List<Double>> ratios = ratiosByRun(runs);
    StringBuilder md = new StringBuilder("<!-- written by bin/bench --repeat -->\n`" + setup + "`, " + runs.size()
        + " runs; each ratio is to insecure's throughput in the same run\n\n"
        + "| scheme | workload | ops/s per run | x insecure per run | median x insecure |\n|---|---|--:|--:|--:|\n");
    for (Map.Entry<String, List<Double>> e : ratios.entrySet()) {
      String[] key = e.getKey().split(" ");
      List<String> ops = new ArrayList<>();
      for (Bench.Row r : rowsOf(runs, key[0], key[1])) {
        ops.add(f(r.throughput(), 0));
      }
      List<String> rs = new ArrayList<>();
      for (double r : e.getValue()) {
        rs.add(f(r, 3));
      }
      md.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s |%n", key[0], key[1].toUpperCase(Locale.ROOT),
          String.join(", ", ops), String.join(", ", rs), f(median(e.getValue()), 3)));
    }
    Files.writeString(out.resolve("repeats.md"), md);
  }

  static String f(double v, int digits) {
    if (Double.isNaN(v)) {
      return "-";
    }
    return String.format(Locale.ROOT, "%." + digits + "f", v);
  }

  private static Set<String> schemes(List<Bench.Row> rows) {
    Set<String> s = new LinkedHashSet<>();
    rows.forEach(r -> s.add(r.scheme()));
    return s;
  }

  private static CategoryChart barChart(String yTitle) {
    CategoryChart chart = new CategoryChartBuilder().width(900).height(540)
        .xAxisTitle("workload").yAxisTitle(yTitle).build();
    chart.getStyler().setYAxisLogarithmic(true);
    chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
    chart.getStyler().setLabelsVisible(true);
    chart.getStyler().setLabelsFontColorAutomaticEnabled(false);
    chart.getStyler().setChartBackgroundColor(java.awt.Color.WHITE);
    chart.getStyler().setPlotBackgroundColor(java.awt.Color.WHITE);
    chart.getStyler().setPlotGridVerticalLinesVisible(false);
    chart.getStyler().setYAxisDecimalPattern("#,##0");
    return chart;
  }

  /** Fig. 4 style: throughput per scheme and workload, log scale, each scheme in its colour. */
  static CategoryChart throughputChart(List<Bench.Row> rows) {
    CategoryChart chart = barChart("ops/s");
    for (String s : schemes(rows)) {
      List<String> xs = new ArrayList<>();
      List<Double> ys = new ArrayList<>();
      for (Bench.Row r : rows) {
        if (r.scheme().equals(s)) {
          xs.add("YCSB-" + r.workload().toUpperCase(Locale.ROOT));
          ys.add(shown(r.throughput()));
        }
      }
      chart.addSeries(s, xs, ys);
    }
    Charts.colourSchemes(chart);
    return chart;
  }

  /**
   * XChart's log axis needs an explicit minimum (bars start at zero otherwise): the decade below the
   * data. Writes nothing for a chart without data.
   */
  private static void saveLog(CategoryChart chart, Path file, String title, String setup,
      Charts.Provenance provenance) throws IOException {
    double min = Double.MAX_VALUE;
    double max = 0;
    for (var series : chart.getSeriesMap().values()) {
      for (Number y : series.getYData()) {
        if (y != null && y.doubleValue() > 0) {
          min = Math.min(min, y.doubleValue());
          max = Math.max(max, y.doubleValue());
        }
      }
    }
    if (min == Double.MAX_VALUE) {
      return;
    }
    chart.getStyler().setYAxisMin(Math.pow(10, Math.floor(Math.log10(min))));
    chart.getStyler().setYAxisMax(Math.pow(10, Math.ceil(Math.log10(max * 1.5))));
    Charts.save(chart, file, title, setup, provenance);
  }

  /** Fig. 5 style: latency of reads and updates per scheme, log scale, each scheme in its colour. */
  static CategoryChart latencyChart(List<Bench.Row> rows, boolean p99) {
    CategoryChart chart = barChart("us");
    chart.setXAxisTitle("workload / operation");
    for (String s : schemes(rows)) {
      List<String> xs = new ArrayList<>();
      List<Double> ys = new ArrayList<>();
      for (Bench.Row r : rows) {
        if (!r.scheme().equals(s)) {
          continue;
        }
        String w = r.workload().toUpperCase(Locale.ROOT);
        double read = shown(p99 ? r.readP99() : r.readAvg());
        double update = shown(p99 ? r.updateP99() : r.updateAvg());
        if (!Double.isNaN(read)) {
          xs.add(w + " read");
          ys.add(read);
        }
        if (!Double.isNaN(update)) {
          xs.add(w + " update");
          ys.add(update);
        }
      }
      chart.addSeries(s, xs, ys);
    }
    Charts.colourSchemes(chart);
    return chart;
  }

  /** Fig. 8 style: PANCAKE throughput and p99 latency against batch size B. */
  static void writeBatch(Path out, List<Bench.Row> rows, String setup, Charts.Provenance provenance)
      throws IOException {
    StringBuilder md = new StringBuilder("<!-- written by bin/bench --sensitivity batch; " + provenance.line()
        + " -->\n`" + setup + "`\n\n"
        + "| workload | B | ops/s | read p99 us | update p99 us | server keys/op |\n|---|--:|--:|--:|--:|--:|\n");
    for (Bench.Row r : rows) {
      md.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %s |%n", r.workload().toUpperCase(Locale.ROOT),
          r.variant().substring(2), f(r.throughput(), 0), f(r.readP99(), 0), f(r.updateP99(), 0), f(r.keysPerOp(), 2)));
    }
    Files.writeString(out.resolve("batch.md"), md);
    writeBatchCharts(out, rows, setup, provenance);
  }

  /**
   * batch-throughput.png and batch-latency.png from the rows of {@link #writeBatch} (variant "B=b"),
   * after a run and from a replotted batch.md ({@link TableReplot}).
   */
  static void writeBatchCharts(Path out, List<Bench.Row> rows, String setup, Charts.Provenance provenance)
      throws IOException {
    XYChart thr = new XYChartBuilder().width(800).height(480).xAxisTitle("B").yAxisTitle("ops/s").build();
    XYChart lat = new XYChartBuilder().width(800).height(480).xAxisTitle("B").yAxisTitle("p99 latency (us)").build();
    for (XYChart c : List.of(thr, lat)) {
      c.getStyler().setChartBackgroundColor(java.awt.Color.WHITE);
      c.getStyler().setPlotBackgroundColor(java.awt.Color.WHITE);
    }
    Map<String, List<Bench.Row>> byWorkload = new LinkedHashMap<>();
    rows.forEach(r -> byWorkload.computeIfAbsent(r.workload(), k -> new ArrayList<>()).add(r));
    for (Map.Entry<String, List<Bench.Row>> e : byWorkload.entrySet()) {
      List<Double> b = new ArrayList<>();
      List<Double> t = new ArrayList<>();
      List<Double> p = new ArrayList<>();
      for (Bench.Row r : e.getValue()) {
        b.add(Double.parseDouble(r.variant().substring(2)));
        t.add(r.throughput());
        p.add(Math.max(nz(r.readP99()), nz(r.updateP99())));
      }
      String name = "YCSB-" + e.getKey().toUpperCase(Locale.ROOT);
      thr.addSeries(name, b, t);
      lat.addSeries(name, b, p);
    }
    Charts.save(thr, out.resolve("batch-throughput.png"), "PANCAKE throughput vs batch size B", setup, provenance);
    Charts.save(lat, out.resolve("batch-latency.png"), "PANCAKE p99 latency vs batch size B", setup, provenance);
  }

  private static double nz(double v) {
    return Double.isNaN(v) ? 0 : v;
  }
}
