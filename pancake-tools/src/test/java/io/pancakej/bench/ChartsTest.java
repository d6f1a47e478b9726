package io.pancakej.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.Color;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import javax.imageio.ImageIO;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategorySeries;

import picocli.CommandLine;

/** Bench charts: one colour per scheme in every chart, and every chart headed by its machine and date. */
class ChartsTest {
  private static final Charts.Provenance WHERE =
      new Charts.Provenance("2 vCPUs (Test CPU @ 1.00GHz), 23 GiB RAM, Linux 6.18, Java 17.0.15", "2026-11-25");
  private static final String SETUP =
      "store=redis records=100000 operations=500000 threads=8 fieldlength=100 value.size=1224 (median run of 3)";

  private static Bench.Row row(String scheme, String workload, double throughput) {
    return new Bench.Row(scheme, workload, "", throughput, 100, 900, 200, 1800, 0, 1, 1, 1000, 10, 100, 1);
  }

  private static List<Bench.Row> rows(String... schemes) {
    List<Bench.Row> rows = new ArrayList<>();
    for (String w : List.of("a", "c")) {
      double t = 40_000;
      for (String s : schemes) {
        rows.add(row(s, w, t));
        t /= 2;
      }
    }
    return rows;
  }

  private static Map<String, Color> coloursOf(CategoryChart chart) {
    Map<String, Color> m = new HashMap<>();
    for (CategorySeries s : chart.getSeriesMap().values()) {
      m.put(s.getName(), s.getFillColor());
    }
    return m;
  }

  @Test
  void everyBenchScheme_hasAColourOfItsOwn() {
    for (String scheme : Bench.BINDINGS.keySet()) {
      assertTrue(Charts.SCHEME_COLOURS.containsKey(scheme), scheme + " has no colour");
    }
    assertEquals(Charts.SCHEME_COLOURS.size(), new HashSet<>(Charts.SCHEME_COLOURS.values()).size(),
        "two schemes share a colour: " + Charts.SCHEME_COLOURS);
    assertTrue(!Charts.SCHEME_COLOURS.containsValue(Charts.OTHER));
  }

  @Test
  void aScheme_keepsItsColour_whateverOtherSchemesAChartShows() {
    // XChart colours series by position: pancake was the 3rd series (purple) with five schemes and
    // the 2nd (orange) next to insecure alone, encrypted's colour
    List<List<Bench.Row>> runs = List.of(rows("insecure", "encrypted", "pancake", "pathoram", "detworam"),
        rows("insecure", "pancake"), rows("pancake", "detworam", "insecure"), rows("pathoram"));
    Map<String, Color> seen = new HashMap<>();
    for (List<Bench.Row> r : runs) {
      for (CategoryChart chart : List.of(Report.throughputChart(r), Report.latencyChart(r, false),
          Report.latencyChart(r, true))) {
        for (Map.Entry<String, Color> e : coloursOf(chart).entrySet()) {
          assertEquals(Charts.colourOf(e.getKey()), e.getValue(), e.getKey() + "'s bars");
          Color before = seen.putIfAbsent(e.getKey(), e.getValue());
          if (before != null) {
            assertEquals(before, e.getValue(), e.getKey() + " changed colour between charts");
          }
        }
      }
    }
    assertEquals(Charts.SCHEME_COLOURS.keySet(), seen.keySet());
    assertNotEquals(seen.get("pancake"), seen.get("encrypted"));
  }

  @Test
  void theHeader_namesTitleSetupMachineAndDate_andEveryLineFitsTheImage() {
    int width = 900;
    List<Charts.Line> lines = Charts.header(Report.P99_TITLE, SETUP, WHERE, width);
    String text = lines.stream().map(Charts.Line::text).collect(Collectors.joining(" "));
    assertTrue(text.startsWith(Report.P99_TITLE), text);
    assertTrue(text.contains(SETUP), text);
    assertTrue(text.contains(WHERE.machine()), text);
    assertTrue(text.contains(WHERE.date()), text);
    BufferedImage scratch = new BufferedImage(1, 1, BufferedImage.TYPE_INT_RGB);
    var g = scratch.createGraphics();
    for (Charts.Line l : lines) {
      int w = g.getFontMetrics(l.font()).stringWidth(l.text());
      assertTrue(w <= width - 2 * Charts.MARGIN, "clipped: '" + l.text() + "' is " + w + " px wide");
    }
    g.dispose();
    // a narrow chart wraps rather than clips, a word wider than the room is cut
    for (Charts.Line l : Charts.header(Report.P99_TITLE, SETUP + " " + "x".repeat(200), WHERE, 300)) {
      assertTrue(scratch.createGraphics().getFontMetrics(l.font()).stringWidth(l.text()) <= 300 - 2 * Charts.MARGIN,
          l.text());
    }
  }

  @Test
  void aChart_withoutMachineOrDate_isNotDrawn() {
    assertThrows(IllegalArgumentException.class, () -> new Charts.Provenance(" ", "2026-11-25"));
    assertThrows(IllegalArgumentException.class, () -> new Charts.Provenance(null, "2026-11-25"));
    assertThrows(IllegalArgumentException.class, () -> new Charts.Provenance("2 vCPUs", null));
    assertThrows(IllegalArgumentException.class, () -> new Charts.Provenance("2 vCPUs", "25.11.2026"));
    assertThrows(NullPointerException.class, () -> Charts.header("t", "s", null, 900));
    Charts.Provenance here = Charts.Provenance.detect(java.time.Clock.systemUTC());
    assertTrue(here.machine().contains("vCPUs"), here.machine());
  }

  @Test
  void write_recordsMachineAndDate_andDrawsThemAboveEveryChart(@TempDir Path out) throws Exception {
    Report.write(out, rows("insecure", "pancake"), SETUP, WHERE);
    String first = Files.readAllLines(out.resolve("results.md")).get(0);
    assertEquals(WHERE, Charts.Provenance.parse(first), first);
    for (String png : List.of("throughput.png", "latency.png", "latency-p99.png")) {
      BufferedImage img = ImageIO.read(out.resolve(png).toFile());
      assertNotNull(img, png);
      assertEquals(900, img.getWidth(), png);
      assertTrue(img.getHeight() > 540 + 3 * 12, png + ": no room for a header of title, setup and provenance");
      assertTrue(hasInk(img, 0, Charts.MARGIN + 10), png + ": nothing drawn in the header");
    }
  }

  private static boolean hasInk(BufferedImage img, int y0, int y1) {
    for (int y = y0; y < y1; y++) {
      for (int x = 0; x < img.getWidth(); x++) {
        if ((img.getRGB(x, y) & 0xFFFFFF) != 0xFFFFFF) {
          return true;
        }
      }
    }
    return false;
  }

  @Test
  void replot_redrawsTheCharts_leavesTheTables_andAsksForProvenanceTheTablesLack(@TempDir Path out) throws Exception {
    Report.write(out, rows("insecure", "encrypted", "pancake"), SETUP, WHERE);
    byte[] md = Files.readAllBytes(out.resolve("results.md"));
    byte[] csv = Files.readAllBytes(out.resolve("results.csv"));
    Files.delete(out.resolve("throughput.png"));
    assertEquals(0, bench("--replot", "--out", out.toString()));
    assertTrue(Files.exists(out.resolve("throughput.png")));
    assertArrayEquals(md, Files.readAllBytes(out.resolve("results.md")));
    assertArrayEquals(csv, Files.readAllBytes(out.resolve("results.csv")));

    // a table published before the machine and date were recorded
    List<String> lines = new ArrayList<>(Files.readAllLines(out.resolve("results.md")));
    lines.set(0, "<!-- written by bin/bench -->");
    Files.write(out.resolve("results.md"), lines);
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    assertNotEquals(0, bench(err, "--replot", "--out", out.toString()));
    assertTrue(err.toString(StandardCharsets.UTF_8).contains("--machine and --date"), err.toString(StandardCharsets.UTF_8));
    assertEquals(0, bench("--replot", "--out", out.toString(), "--machine", "2 vCPUs", "--date", "2026-11-23"));
    assertNotEquals(0, bench("--replot", "--out", out.toString(), "--machine", "2 vCPUs", "--date", "yesterday"));
  }

  @Test
  void replottedBars_showTheFiguresOfThePublishedTable() {
    // the CSV keeps one decimal (4612.5), the table rounded the exact figure (4612.53 -> 4613)
    List<Bench.Row> csv = List.of(row("insecure", "a", 12682.0), row("detworam", "a", 4612.5));
    List<String> md = List.of("<!-- written by bin/bench -->", "`setup`", "",
        "| scheme | workload | ops/s | x insecure | read avg us | read p99 us | update avg us | update p99 us |",
        "|---|---|--:|--:|--:|--:|--:|--:|",
        "| insecure | A | 12682 | 1.000 | 40 | 149 | 175 | 4635 |",
        "| detworam | A | 4613 | 0.364 | 335 | 8163 | - | - |");
    List<Bench.Row> shown = Report.asPublished(csv, md);
    assertEquals(4613, shown.get(1).throughput(), 0);
    assertEquals(8163, shown.get(1).readP99(), 0);
    assertTrue(Double.isNaN(shown.get(1).updateAvg()));
    CategoryChart chart = Report.throughputChart(shown);
    assertEquals(4613, chart.getSeriesMap().get("detworam").getYData().iterator().next().doubleValue(), 0);
    // a table that does not match the CSV row by row is not used
    assertEquals(4612.5, Report.asPublished(csv, md.subList(0, 6)).get(1).throughput(), 0);
  }

  private static int bench(String... args) {
    return bench(new ByteArrayOutputStream(), args);
  }

  private static int bench(ByteArrayOutputStream err, String... args) {
    CommandLine cl = new CommandLine(new Bench());
    cl.setErr(new java.io.PrintWriter(new PrintStream(err, true, StandardCharsets.UTF_8), true));
    return cl.execute(args);
  }
}
