package io.pancakej.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

import javax.imageio.ImageIO;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import picocli.CommandLine;

/** {@code bench --replot} of the sensitivity tables and {@code bench-dynamic --replot}, from small fixtures. */
class ReplotTest {
  private static final String MACHINE = "2 vCPUs (Test CPU @ 1.00GHz), 23 GiB RAM, Linux 6.18, OpenJDK 17.0.15";

  private static final String BATCH = """
      <!-- written by bin/bench --sensitivity batch -->
      `store=rocksdb records=10000 operations=100000 threads=8 fieldlength=100 value.size=1224`

      | workload | B | ops/s | read p99 us | update p99 us | server keys/op |
      |---|--:|--:|--:|--:|--:|
      | A | 2 | 11476 | 6723 | 6791 | 4.18 |
      | A | 3 | 16502 | 4255 | 4691 | 6.23 |
      | C | 2 | 12571 | 6467 | - | 4.19 |
      | C | 3 | 13099 | 4803 | - | 6.25 |
      """;

  private static final String CACHE = """
      <!-- written by bin/bench --sensitivity cache -->
      n = 10000 keys, 200000 operations on 4 threads, 1000-byte values, memory store, PANCAKE warm-started with the true zipf distribution

      | write fraction | zipf | UpdateCache entries (mean) | (max) | UpdateCache KB (mean) |
      |--:|--:|--:|--:|--:|
      | 0.00 | 0.99 | 37.2 | 644 | 36.4 |
      | 0.50 | 0.99 | 636.9 | 668 | 622.0 |
      | 1.00 | 0.99 | 823.1 | 859 | 803.8 |
      | 0.50 | 0.00 | 0.1 | 2 | 0.1 |
      | 0.50 | 0.99 | 635.2 | 672 | 620.3 |
      | 0.50 | 1.20 | 377.4 | 400 | 368.5 |
      """;

  private static final List<String> SENSITIVITY_PNGS = List.of("batch-throughput.png", "batch-latency.png",
      "updatecache-write-fraction.png", "updatecache-skew.png");

  @Test
  void benchReplot_redrawsTheSensitivityCharts_fromTheirTables_withoutResultsCsv(@TempDir Path out) throws Exception {
    Files.writeString(out.resolve("batch.md"), BATCH);
    Files.writeString(out.resolve("updatecache.md"), CACHE);
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    assertNotEquals(0, run(new Bench(), err, "--replot", "--out", out.toString()));
    String message = err.toString(StandardCharsets.UTF_8);
    assertTrue(message.contains("batch.md does not record the machine and date")
        && message.contains("--machine and --date"), message);
    for (String png : SENSITIVITY_PNGS) {
      assertFalse(Files.exists(out.resolve(png)), png + " drawn without machine and date");
    }

    assertEquals(0, run(new Bench(), new ByteArrayOutputStream(), "--replot", "--out", out.toString(),
        "--machine", MACHINE, "--date", "2026-11-23"));
    for (String png : SENSITIVITY_PNGS) {
      assertHeadedChart(out.resolve(png), 800, 480);
    }
    assertFalse(Files.exists(out.resolve("throughput.png")), "no results.csv, no main charts");
    assertEquals(BATCH, Files.readString(out.resolve("batch.md")));
    assertEquals(CACHE, Files.readString(out.resolve("updatecache.md")));
  }

  @Test
  void benchReplot_takesTheMachineAndDateATableRecords(@TempDir Path out) throws Exception {
    Charts.Provenance where = new Charts.Provenance(MACHINE, "2026-11-25");
    Report.writeBatch(out, TableReplot.batchRows(BATCH.lines().toList()), "setup", where);
    byte[] md = Files.readAllBytes(out.resolve("batch.md"));
    Files.delete(out.resolve("batch-latency.png"));
    assertEquals(0, run(new Bench(), new ByteArrayOutputStream(), "--replot", "--out", out.toString()));
    assertHeadedChart(out.resolve("batch-latency.png"), 800, 480);
    assertArrayEquals(md, Files.readAllBytes(out.resolve("batch.md")));
  }

  @Test
  void benchReplot_ofADirectoryWithoutTables_saysWhatItLooksFor(@TempDir Path out) {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    assertNotEquals(0, run(new Bench(), err, "--replot", "--out", out.toString(), "--machine", MACHINE,
        "--date", "2026-11-23"));
    assertTrue(err.toString(StandardCharsets.UTF_8).contains("no results.csv, batch.md or updatecache.md"),
        err.toString(StandardCharsets.UTF_8));
  }

  @Test
  void tables_readBackAsTheRunHadThem() {
    List<Bench.Row> batch = TableReplot.batchRows(BATCH.lines().toList());
    assertEquals(4, batch.size());
    assertEquals("c", batch.get(2).workload());
    assertEquals("B=2", batch.get(2).variant());
    assertEquals(12571, batch.get(2).throughput(), 0);
    assertTrue(Double.isNaN(batch.get(2).updateP99()));
    List<List<CacheSensitivity.Point>> cache = TableReplot.cachePoints(CACHE.lines().toList());
    assertEquals(3, cache.get(0).size(), "against the write fraction");
    assertEquals(3, cache.get(1).size(), "against the zipf parameter");
    assertEquals(859, cache.get(0).get(2).maxEntries());
    assertEquals(1.2, cache.get(1).get(2).skew(), 0);
  }

  private static final String DYNAMIC_MD = """
      <!-- written by bin/bench-dynamic -->
      Setup: memory store, one request thread (plus a helper batch every 1 ms, `--kick-ms`), gets only, n = 1000 keys (6a/6b/control), w = 10000, confidence 0.95, 3 seeds per point, give up after 3 windows of new requests.

      ## 6a: accesses to detect a skew drop zipf(s0) -> zipf(s1)

      ## 6c: swapping, n = 1000 keys, 1024-byte values, gets only

      | change | requests to detect | swaps | swapping time (s) | requests while swapping | peak proxy memory (KB) | peak swap-cache entries | % of stored values | changes declared in the next windows |
      |--|--:|--:|--:|--:|--:|--:|--:|--|
      | zipf 0.99 -> uniform | 1,020 | 75 | 2.73 | 3,020 | 8.0 | 8 | 0.440 % | 0 in 10000 requests |
      """;

  private static final String DETECTION = """
      figure,label,x,seed,warm_transitions,requests_to_detect,p,seconds
      6a,skew 0.99,0.0,101,0,1150,0.000,0.40
      6a,skew 0.99,0.0,102,0,1050,0.000,0.35
      6a,skew 0.99,0.8,101,0,2100,5.974e-09,0.53
      6a,skew 0.99,0.8,102,0,-1,NaN,0.07
      6b,kappa,1.0,201,0,2500,0.0005450,0.45
      6b,kappa,16.0,201,0,1050,1.460e-07,0.65
      """;

  private static final String SWAP = """
      seconds,requests,transitions,pending_swaps,swaps_done,swap_cache_entries,swap_cache_bytes,update_cache_entries,update_cache_bytes
      0.000,11000,0,0,0,0,0,0,0
      0.050,11500,1,75,0,3,3072,0,0
      0.100,12000,1,40,35,8,8192,0,0
      0.150,12500,1,0,75,0,0,0,0
      """;

  @Test
  void dynamicReplot_redrawsFig6_fromTheFilesARunLeaves_andAsksForMachineAndDate(@TempDir Path out)
      throws Exception {
    Files.writeString(out.resolve("results.md"), DYNAMIC_MD);
    Files.writeString(out.resolve("detection.csv"), DETECTION);
    Files.writeString(out.resolve("fig6c-zipf-099-to-uniform.csv"), SWAP);
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    assertNotEquals(0, run(new Dynamic(), err, "--replot", "--out", out.toString()));
    assertTrue(err.toString(StandardCharsets.UTF_8).contains("give them with --machine and --date"),
        err.toString(StandardCharsets.UTF_8));
    assertFalse(Files.exists(out.resolve(DynamicCharts.SKEW_DROP)));

    assertEquals(0, run(new Dynamic(), new ByteArrayOutputStream(), "--replot", "--out", out.toString(),
        "--machine", MACHINE, "--date", "2026-11-21"));
    for (String png : List.of(DynamicCharts.SKEW_DROP, DynamicCharts.KAPPA, "fig6c-zipf-099-to-uniform.png")) {
      assertHeadedChart(out.resolve(png), 800, 480);
    }
    assertEquals(DYNAMIC_MD, Files.readString(out.resolve("results.md")));
    assertEquals(DETECTION, Files.readString(out.resolve("detection.csv")));

    Files.delete(out.resolve("fig6c-zipf-099-to-uniform.csv"));
    err.reset();
    assertNotEquals(0, run(new Dynamic(), err, "--replot", "--out", out.toString(), "--machine", MACHINE,
        "--date", "2026-11-21"));
    assertTrue(err.toString(StandardCharsets.UTF_8).contains("fig6c-zipf-099-to-uniform.csv does not exist"),
        err.toString(StandardCharsets.UTF_8));
  }

  @Test
  void dynamicReplot_ofADirectoryWithoutResults_isAClearError(@TempDir Path out) {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    assertNotEquals(0, run(new Dynamic(), err, "--replot", "--out", out.toString(), "--machine", MACHINE,
        "--date", "2026-11-21"));
    assertTrue(err.toString(StandardCharsets.UTF_8).contains("results.md does not exist"),
        err.toString(StandardCharsets.UTF_8));
  }

  /** A PNG of the chart's size plus a header with ink in it. */
  private static void assertHeadedChart(Path png, int width, int height) throws Exception {
    BufferedImage img = ImageIO.read(png.toFile());
    assertNotNull(img, png + " is no image");
    assertEquals(width, img.getWidth(), png.toString());
    assertTrue(img.getHeight() > height + 3 * 12, png + ": no room for title, setup and provenance");
    boolean ink = false;
    for (int y = 0; y < Charts.MARGIN + 10 && !ink; y++) {
      for (int x = 0; x < img.getWidth() && !ink; x++) {
        ink = (img.getRGB(x, y) & 0xFFFFFF) != 0xFFFFFF;
      }
    }
    assertTrue(ink, png + ": nothing drawn in the header");
  }

  private static int run(Callable<Integer> command, ByteArrayOutputStream err, String... args) {
    CommandLine cl = new CommandLine(command);
    cl.setErr(new PrintWriter(new PrintStream(err, true, StandardCharsets.UTF_8), true));
    return cl.execute(args);
  }
}
