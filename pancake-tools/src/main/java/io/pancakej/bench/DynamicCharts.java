package io.pancakej.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * The charts of {@code bench-dynamic} (paper Fig. 6), drawn from the runs' records: after a run by
 * {@link Dynamic}, and from the files it leaves by {@link DynamicReplot}.
 */
final class DynamicCharts {
  static final String SETUP = "PancakeClient on the memory store, one request thread, gets only (bin/bench-dynamic)";
  static final String SKEW_DROP = "fig6a-skew-drop.png";
  static final String KAPPA = "fig6b-kappa.png";
  private static final String SKEW_LABEL = "skew ";

  private DynamicCharts() {}

  /** The label of a 6a detection starting from zipf(s0). */
  static String skewLabel(double s0) {
    return SKEW_LABEL + s0;
  }

  /** The file of a 6c swap chart; its samples go to the same name with .csv. */
  static String swapFile(String label) {
    return "fig6c-" + label.replace(" -> ", "-to-").replace(' ', '-').replace(".", "") + ".png";
  }

  /** The runs grouped by label, then by x, in the order they ran. */
  private static Map<String, Map<Double, List<Dynamic.Detection>>> group(List<Dynamic.Detection> runs) {
    Map<String, Map<Double, List<Dynamic.Detection>>> m = new LinkedHashMap<>();
    for (Dynamic.Detection d : runs) {
      m.computeIfAbsent(d.label(), k -> new LinkedHashMap<>()).computeIfAbsent(d.x(), k -> new ArrayList<>()).add(d);
    }
    return m;
  }

  /**
   * Fig. 6a: per s0 (runs labelled {@link #skewLabel}, x = s1), the median requests to detect against
   * the skew drop s0 - s1; points where the median run detected nothing are left out.
   */
  static void skewDrop(Path out, int keys, int window, List<Dynamic.Detection> runs, Charts.Provenance provenance)
      throws IOException {
    Map<String, List<double[]>> series = new LinkedHashMap<>();
    for (Map.Entry<String, Map<Double, List<Dynamic.Detection>>> e : group(runs).entrySet()) {
      double s0 = Double.parseDouble(e.getKey().substring(SKEW_LABEL.length()));
      List<double[]> pts = new ArrayList<>();
      for (Map.Entry<Double, List<Dynamic.Detection>> x : e.getValue().entrySet()) {
        long med = Dynamic.median(x.getValue());
        if (med > 0) {
          pts.add(new double[] {s0 - x.getKey(), med});
        }
      }
      series.put("s0 = " + s0, pts);
    }
    lineChart(out.resolve(SKEW_DROP), "Accesses to detect a skew drop (n=" + keys + ", w=" + window + ")",
        "skew drop s0 - s1", "requests after the change (median)", series, false, provenance);
  }

  /** Fig. 6b: the median requests to detect zipf(0.99) rotated by kappa (x), against kappa. */
  static void kappa(Path out, int keys, int window, List<Dynamic.Detection> runs, Charts.Provenance provenance)
      throws IOException {
    List<double[]> pts = new ArrayList<>();
    for (Map<Double, List<Dynamic.Detection>> byX : group(runs).values()) {
      for (Map.Entry<Double, List<Dynamic.Detection>> x : byX.entrySet()) {
        long med = Dynamic.median(x.getValue());
        if (med > 0) {
          pts.add(new double[] {x.getKey(), med});
        }
      }
    }
    lineChart(out.resolve(KAPPA), "Accesses to detect a popularity shift (zipf 0.99, n=" + keys + ", w=" + window
        + ")", "kappa (log scale)", "requests after the change (median)", Map.of("zipf 0.99", pts), true, provenance);
  }

  /** Fig. 6c: pending swaps and proxy memory over time since the requests switched distribution. */
  static void swap(Path file, String label, int n, List<Dynamic.Sample> samples, Charts.Provenance provenance)
      throws IOException {
    String title = "Replica swapping, " + label + " (n=" + n + "), from the switch";
    XYChart c = chart("seconds since the requests switched distribution", "pending swaps");
    List<Double> t = new ArrayList<>();
    List<Double> pending = new ArrayList<>();
    List<Double> kb = new ArrayList<>();
    for (Dynamic.Sample x : samples) {
      t.add(x.seconds());
      pending.add((double) x.pendingSwaps());
      kb.add(x.proxyBytes() / 1024.0);
    }
    if (t.isEmpty()) {
      return;
    }
    XYSeries a = c.addSeries("pending swaps", t, pending);
    a.setMarker(SeriesMarkers.NONE);
    XYSeries b = c.addSeries("proxy memory: swap cache + UpdateCache (KB)", t, kb);
    b.setMarker(SeriesMarkers.NONE);
    b.setYAxisGroup(1);
    c.setYAxisGroupTitle(1, "proxy memory (KB)");
    c.getStyler().setYAxisGroupPosition(1, Styler.YAxisPosition.Right);
    Charts.save(c, file, title, SETUP, provenance);
  }

  private static XYChart chart(String xTitle, String yTitle) {
    XYChart c = new XYChartBuilder().width(800).height(480).xAxisTitle(xTitle).yAxisTitle(yTitle).build();
    c.getStyler().setChartBackgroundColor(java.awt.Color.WHITE);
    c.getStyler().setPlotBackgroundColor(java.awt.Color.WHITE);
    return c;
  }

  private static void lineChart(Path file, String title, String xTitle, String yTitle,
      Map<String, List<double[]>> series, boolean logX, Charts.Provenance provenance) throws IOException {
    XYChart c = chart(xTitle, yTitle);
    c.getStyler().setXAxisLogarithmic(logX);
    c.getStyler().setYAxisMin(0.0);
    boolean any = false;
    for (Map.Entry<String, List<double[]>> e : series.entrySet()) {
      if (e.getValue().isEmpty()) {
        continue;
      }
      List<Double> x = new ArrayList<>();
      List<Double> y = new ArrayList<>();
      for (double[] p : e.getValue()) {
        x.add(p[0]);
        y.add(p[1]);
      }
      c.addSeries(e.getKey(), x, y).setMarker(SeriesMarkers.CIRCLE);
      any = true;
    }
    if (any) {
      Charts.save(c, file, title, SETUP, provenance);
    }
  }
}
