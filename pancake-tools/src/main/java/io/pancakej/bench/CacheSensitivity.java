package io.pancakej.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;

import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;

import io.pancakej.KvClient;
import io.pancakej.PancakeClient;
import io.pancakej.PancakeConfig;
import io.pancakej.distribution.DistributionFile;
import io.pancakej.store.Stores;

/**
 * UpdateCache size against the write fraction and the zipf skew (paper Fig. 7b/7c), driving a
 * {@link PancakeClient} on the memory store directly: n keys, PANCAKE warm-started with the true
 * zipf distribution, 4 threads issuing gets and puts; {@code stats()} is sampled every 200
 * operations after a warm-up of one put per key, and the mean and maximum are reported.
 */
final class CacheSensitivity {
  static final int THREADS = 4;
  static final int VALUE_BYTES = 1000;

  private CacheSensitivity() {}

  record Point(double writeFraction, double skew, double meanEntries, int maxEntries, double meanBytes) {}

  static void run(Path out, int records, PrintStream log, Charts.Provenance provenance)
      throws IOException, InterruptedException {
    int n = Math.min(records, 10_000);
    long ops = 20L * n;
    List<Point> byWrite = new ArrayList<>();
    for (double w : new double[] {0.0, 0.05, 0.25, 0.5, 0.75, 1.0}) {
      log.printf(Locale.ROOT, "bench: [cache] write fraction %.2f, zipf 0.99, n=%d, %d ops...%n", w, n, ops);
      byWrite.add(measure(n, ops, w, 0.99));
    }
    List<Point> bySkew = new ArrayList<>();
    for (double s : new double[] {0.0, 0.5, 0.8, 0.99, 1.2}) {
      log.printf(Locale.ROOT, "bench: [cache] zipf %.2f, write fraction 0.5, n=%d, %d ops...%n", s, n, ops);
      bySkew.add(measure(n, ops, 0.5, s));
    }
    StringBuilder md = new StringBuilder("<!-- written by bin/bench --sensitivity cache; " + provenance.line() + " -->\n"
        + String.format(Locale.ROOT, "n = %d keys, %d operations on %d threads, %d-byte values, memory store, "
            + "PANCAKE warm-started with the true zipf distribution\n\n", n, ops, THREADS, VALUE_BYTES)
        + "| write fraction | zipf | UpdateCache entries (mean) | (max) | UpdateCache KB (mean) |\n|--:|--:|--:|--:|--:|\n");
    for (List<Point> list : List.of(byWrite, bySkew)) {
      for (Point p : list) {
        md.append(String.format(Locale.ROOT, "| %.2f | %.2f | %.1f | %d | %.1f |%n", p.writeFraction(), p.skew(),
            p.meanEntries(), p.maxEntries(), p.meanBytes() / 1024));
      }
    }
    Files.writeString(out.resolve("updatecache.md"), md);
    writeCharts(out, setup(n, ops, THREADS), byWrite, bySkew, provenance);
  }

  /** The setup line of the charts. */
  static String setup(int n, long ops, int threads) {
    return String.format(Locale.ROOT, "memory store, n=%d keys, %d operations on %d threads", n, ops, threads);
  }

  /**
   * updatecache-write-fraction.png and updatecache-skew.png, after a run and from a replotted
   * updatecache.md ({@link TableReplot}).
   */
  static void writeCharts(Path out, String setup, List<Point> byWrite, List<Point> bySkew,
      Charts.Provenance provenance) throws IOException {
    chart(out.resolve("updatecache-write-fraction.png"), "UpdateCache size vs write fraction (zipf 0.99)",
        "write fraction", byWrite, true, setup, provenance);
    chart(out.resolve("updatecache-skew.png"), "UpdateCache size vs zipf skew (write fraction 0.5)",
        "zipf parameter", bySkew, false, setup, provenance);
  }

  private static void chart(Path file, String title, String xTitle, List<Point> points, boolean byWrite, String setup,
      Charts.Provenance provenance) throws IOException {
    XYChart c = new XYChartBuilder().width(800).height(480).xAxisTitle(xTitle)
        .yAxisTitle("UpdateCache entries").build();
    c.getStyler().setChartBackgroundColor(java.awt.Color.WHITE);
    c.getStyler().setPlotBackgroundColor(java.awt.Color.WHITE);
    List<Double> x = new ArrayList<>();
    List<Double> mean = new ArrayList<>();
    List<Double> max = new ArrayList<>();
    for (Point p : points) {
      x.add(byWrite ? p.writeFraction() : p.skew());
      mean.add(p.meanEntries());
      max.add((double) p.maxEntries());
    }
    c.addSeries("mean", x, mean);
    c.addSeries("max", x, max);
    Charts.save(c, file, title, setup, provenance);
  }

  static Point measure(int n, long ops, double writeFraction, double skew) throws IOException, InterruptedException {
    Path dir = Files.createTempDirectory("pancake-cache-");
    try {
      double[] cdf = new double[n];
      Map<String, Double> weights = new LinkedHashMap<>();
      double sum = 0;
      for (int i = 0; i < n; i++) {
        double wgt = 1.0 / Math.pow(i + 1, skew);
        weights.put("k" + i, wgt);
        sum += wgt;
        cdf[i] = sum;
      }
      for (int i = 0; i < n; i++) {
        cdf[i] /= sum;
      }
      Path dist = dir.resolve("distribution.tsv");
      DistributionFile.write(dist, weights);
      Properties props = new Properties();
      props.setProperty(Stores.STORE_PROPERTY, "memory");
      props.setProperty(PancakeConfig.STATE_DIR_PROPERTY, dir.resolve("state").toString());
      props.setProperty(PancakeConfig.CAPACITY_PROPERTY, String.valueOf(n));
      props.setProperty(PancakeConfig.VALUE_SIZE_PROPERTY, String.valueOf(VALUE_BYTES));
      props.setProperty(PancakeConfig.DISTRIBUTION_FILE_PROPERTY, dist.toString());
      try (PancakeClient client = PancakeClient.open(PancakeConfig.fromProperties(props))) {
        byte[] value = new byte[VALUE_BYTES];
        for (int i = 0; i < n; i++) {
          client.put(KvClient.utf8("k" + i), value);
        }
        AtomicLong done = new AtomicLong();
        long[] sumEntries = new long[1];
        long[] sumBytes = new long[1];
        int[] max = new int[1];
        long[] samples = new long[1];
        Object lock = new Object();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
          long seed = 1000L * t + 17;
          Thread th = new Thread(() -> {
            SplittableRandom rnd = new SplittableRandom(seed);
            while (done.incrementAndGet() <= ops) {
              int k = search(cdf, rnd.nextDouble());
              byte[] key = KvClient.utf8("k" + k);
              if (rnd.nextDouble() < writeFraction) {
                client.put(key, value);
              } else {
                client.get(key);
              }
              if (done.get() % 200 == 0) {
                var s = client.stats();
                synchronized (lock) {
                  sumEntries[0] += s.updateCacheEntries();
                  sumBytes[0] += s.updateCacheBytes();
                  max[0] = Math.max(max[0], s.updateCacheEntries());
                  samples[0]++;
                }
              }
            }
          });
          threads.add(th);
          th.start();
        }
        for (Thread th : threads) {
          th.join();
        }
        long m = Math.max(1, samples[0]);
        return new Point(writeFraction, skew, (double) sumEntries[0] / m, max[0], (double) sumBytes[0] / m);
      }
    } finally {
      Bench.deleteTree(dir);
    }
  }

  /** The first index whose cumulative weight reaches {@code u}: a draw from the distribution. */
  static int search(double[] cdf, double u) {
    int lo = 0;
    int hi = cdf.length - 1;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (cdf[mid] < u) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }
}
