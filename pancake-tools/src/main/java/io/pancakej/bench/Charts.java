package io.pancakej.bench;

import java.awt.Color;
import java.awt.Font;
import java.awt.FontMetrics;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import javax.imageio.ImageIO;

import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategorySeries;
import org.knowm.xchart.internal.chartpart.Chart;

/**
 * How every chart of the bench tools looks: each scheme in one fixed colour in every chart, and a
 * header above the plot with the chart's title, the setup, the machine and the date, wrapped to the
 * image's width so that nothing is clipped. XChart's own one-line title is switched off.
 */
final class Charts {
  /**
   * One colour per scheme (Okabe-Ito, readable with the common colour-vision deficiencies), the
   * same in every chart whatever subset of schemes it shows.
   */
  static final Map<String, Color> SCHEME_COLOURS = schemeColours();
  /** For a series whose name is no scheme (a future scheme without a colour yet). */
  static final Color OTHER = new Color(0x99, 0x99, 0x99);

  static final Font TITLE_FONT = new Font(Font.SANS_SERIF, Font.BOLD, 15);
  static final Font LINE_FONT = new Font(Font.SANS_SERIF, Font.PLAIN, 12);
  static final int MARGIN = 10;

  private Charts() {}

  private static Map<String, Color> schemeColours() {
    Map<String, Color> m = new LinkedHashMap<>();
    m.put("insecure", new Color(0x00, 0x72, 0xB2));   // blue
    m.put("encrypted", new Color(0xE6, 0x9F, 0x00));  // orange
    m.put("pancake", new Color(0xD5, 0x5E, 0x00));    // vermillion
    m.put("pathoram", new Color(0x00, 0x9E, 0x73));   // bluish green
    m.put("detworam", new Color(0xCC, 0x79, 0xA7));   // reddish purple
    return java.util.Collections.unmodifiableMap(m);
  }

  /** The fixed colour of {@code scheme}, grey for a name that is no scheme. */
  static Color colourOf(String scheme) {
    return SCHEME_COLOURS.getOrDefault(scheme, OTHER);
  }

  /** Paints every series of a bar chart whose name is a scheme in that scheme's colour. */
  static void colourSchemes(CategoryChart chart) {
    for (CategorySeries s : chart.getSeriesMap().values()) {
      s.setFillColor(colourOf(s.getName()));
    }
  }

  /**
   * Where and when a measurement ran: a machine description ("2 vCPUs (Intel Xeon @ 2.80GHz),
   * 23 GiB RAM, ...") and an ISO date. Both are required: a chart without them is not drawn.
   */
  record Provenance(String machine, String date) {
    private static final Pattern COMMENT = Pattern.compile("machine: (.+); date: ([0-9]{4}-[0-9]{2}-[0-9]{2})");

    Provenance {
      if (machine == null || machine.isBlank()) {
        throw new IllegalArgumentException("a chart needs the machine its figures were measured on");
      }
      if (date == null || !date.matches("[0-9]{4}-[0-9]{2}-[0-9]{2}")) {
        throw new IllegalArgumentException("a chart needs the date of its run as YYYY-MM-DD, got " + date);
      }
      machine = machine.strip();
    }

    /** This machine, today (UTC by the clock given). */
    static Provenance detect(Clock clock) {
      return new Provenance(describeMachine(), LocalDate.now(clock).toString());
    }

    /** The line the header and the tables carry. */
    String line() {
      return "machine: " + machine + "; date: " + date;
    }

    /** The provenance a {@link #line()} in {@code text} records, or null. */
    static Provenance parse(String text) {
      Matcher m = COMMENT.matcher(text);
      return m.find() ? new Provenance(m.group(1), m.group(2)) : null;
    }
  }

  /** "N vCPUs (model), G GiB RAM, OS version, Java version" of the running machine, as far as it can tell. */
  static String describeMachine() {
    StringBuilder s = new StringBuilder();
    s.append(Runtime.getRuntime().availableProcessors()).append(" vCPUs");
    String model = cpuModel();
    if (model != null) {
      s.append(" (").append(model).append(')');
    }
    if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
      s.append(", ").append(Math.round(os.getTotalMemorySize() / (double) (1L << 30))).append(" GiB RAM");
    }
    String[] version = System.getProperty("os.version", "").split("[.-]");
    s.append(", ").append(System.getProperty("os.name", "?"));
    if (version.length >= 2) {
      s.append(' ').append(version[0]).append('.').append(version[1]);
    }
    s.append(", Java ").append(System.getProperty("java.version", "?"));
    return s.toString();
  }

  private static String cpuModel() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
        if (line.startsWith("model name")) {
          return line.substring(line.indexOf(':') + 1).strip().replaceAll("\\s+", " ");
        }
      }
    } catch (IOException | RuntimeException e) {
      // not Linux, or not readable: the core count says enough
    }
    return null;
  }

  /** The header's lines: the title, then the setup and the provenance, each wrapped to {@code width} pixels. */
  static List<Line> header(String title, String setup, Provenance provenance, int width) {
    Objects.requireNonNull(provenance, "provenance");
    BufferedImage scratch = new BufferedImage(1, 1, BufferedImage.TYPE_INT_RGB);
    Graphics2D g = scratch.createGraphics();
    try {
      List<Line> lines = new ArrayList<>();
      int room = width - 2 * MARGIN;
      for (String l : wrap(title, g.getFontMetrics(TITLE_FONT), room)) {
        lines.add(new Line(l, TITLE_FONT));
      }
      if (setup != null && !setup.isBlank()) {
        for (String l : wrap(setup, g.getFontMetrics(LINE_FONT), room)) {
          lines.add(new Line(l, LINE_FONT));
        }
      }
      for (String l : wrap(provenance.line(), g.getFontMetrics(LINE_FONT), room)) {
        lines.add(new Line(l, LINE_FONT));
      }
      return lines;
    } finally {
      g.dispose();
    }
  }

  /** One header line and its font. */
  record Line(String text, Font font) {}

  /** Greedy word wrap; a single word wider than the room is cut at a character. */
  static List<String> wrap(String text, FontMetrics fm, int room) {
    List<String> out = new ArrayList<>();
    StringBuilder cur = new StringBuilder();
    for (String word : text.strip().split("\\s+")) {
      String candidate = cur.length() == 0 ? word : cur + " " + word;
      if (fm.stringWidth(candidate) <= room) {
        cur.setLength(0);
        cur.append(candidate);
        continue;
      }
      if (cur.length() > 0) {
        out.add(cur.toString());
        cur.setLength(0);
      }
      String rest = word;
      while (fm.stringWidth(rest) > room && rest.length() > 1) {
        int cut = rest.length() - 1;
        while (cut > 1 && fm.stringWidth(rest.substring(0, cut)) > room) {
          cut--;
        }
        out.add(rest.substring(0, cut));
        rest = rest.substring(cut);
      }
      cur.append(rest);
    }
    if (cur.length() > 0) {
      out.add(cur.toString());
    }
    return out;
  }

  /** The chart as an image under its header (title, setup, machine and date). */
  static BufferedImage render(Chart<?, ?> chart, String title, String setup, Provenance provenance) {
    chart.getStyler().setChartTitleVisible(false);
    chart.getStyler().setChartBackgroundColor(Color.WHITE);
    BufferedImage plot = BitmapEncoder.getBufferedImage(chart);
    List<Line> lines = header(title, setup, provenance, plot.getWidth());
    BufferedImage scratch = new BufferedImage(1, 1, BufferedImage.TYPE_INT_RGB);
    Graphics2D sg = scratch.createGraphics();
    int headerHeight = MARGIN;
    for (Line l : lines) {
      headerHeight += sg.getFontMetrics(l.font()).getHeight();
    }
    sg.dispose();
    headerHeight += MARGIN / 2;
    BufferedImage img = new BufferedImage(plot.getWidth(), headerHeight + plot.getHeight(), BufferedImage.TYPE_INT_RGB);
    Graphics2D g = img.createGraphics();
    try {
      g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
      g.setColor(Color.WHITE);
      g.fillRect(0, 0, img.getWidth(), img.getHeight());
      g.setColor(Color.BLACK);
      int y = MARGIN;
      for (Line l : lines) {
        FontMetrics fm = g.getFontMetrics(l.font());
        g.setFont(l.font());
        g.drawString(l.text(), MARGIN, y + fm.getAscent());
        y += fm.getHeight();
      }
      g.drawImage(plot, 0, headerHeight, null);
    } finally {
      g.dispose();
    }
    return img;
  }

  /** Renders the chart with its header and writes it as a PNG. */
  static void save(Chart<?, ?> chart, Path file, String title, String setup, Provenance provenance)
      throws IOException {
    BufferedImage img = render(chart, title, setup, provenance);
    if (!ImageIO.write(img, "png", file.toFile())) {
      throw new IOException("no PNG writer for " + file);
    }
  }
}
