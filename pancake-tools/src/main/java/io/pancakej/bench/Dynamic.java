package io.pancakej.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import java.util.concurrent.CopyOnWriteArrayList;

import io.pancakej.KvClient;
import io.pancakej.PancakeClient;
import io.pancakej.PancakeConfig;
import io.pancakej.PancakeStats;
import io.pancakej.distribution.DistributionFile;
import io.pancakej.store.MemoryStore;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Dynamic distributions (paper section 6.2, Fig. 6), driving a {@link PancakeClient} on the
 * in-memory store directly, one request thread, read-only (gets), like the paper's workload C.
 *
 * <ul>
 *   <li>6a: warm start with estimate zipf(s0), w requests from zipf(s0) (the window fills with the
 *       old distribution), then requests from zipf(s1) until {@code stats().transitions()}
 *       increments; the number of zipf(s1) requests is the detection cost.</li>
 *   <li>6b: the same with zipf(0.99) whose ranks are rotated by kappa (the most popular key
 *       becomes the kappa-th most popular, the kappa least popular become the most popular).</li>
 *   <li>6c: n keys with 1 KB values, the window filled with zipf(0.99) (or uniform), then
 *       uniform (or zipf 0.99) requests; pending swaps and proxy memory (swap cache + UpdateCache)
 *       are sampled over time until the transition has finished.</li>
 *   <li>control: estimate = workload = zipf(s0) for many windows; how often is a change declared?</li>
 * </ul>
 */
@Command(name = "bench-dynamic", mixinStandardHelpOptions = true,
    description = "Change detection and replica swapping on the memory store (paper Fig. 6).")
public final class Dynamic implements Callable<Integer> {
  @Option(names = {"-o", "--out"}, defaultValue = "target/bench-dynamic",
      description = "output directory, relative to the project root (default ${DEFAULT-VALUE}, scratch)")
  Path out;
  @Option(names = "--parts", split = ",", defaultValue = "a,b,c,control", description = "a,b,c,control")
  List<String> parts;
  @Option(names = "--keys", defaultValue = "10000", description = "n for 6a/6b/control (default ${DEFAULT-VALUE})")
  int keys;
  @Option(names = "--window", defaultValue = "100000", description = "w (default ${DEFAULT-VALUE})")
  int window;
  @Option(names = "--confidence", defaultValue = "0.95",
      description = "the change detector's confidence, pancake.detect.confidence (default ${DEFAULT-VALUE})")
  double confidence;
  @Option(names = "--seeds", defaultValue = "3", description = "repetitions per point (default ${DEFAULT-VALUE})")
  int seeds;
  @Option(names = "--from", split = ",", defaultValue = "0.99", description = "s0 for 6a (default ${DEFAULT-VALUE})")
  List<Double> from;
  @Option(names = "--skews", split = ",", defaultValue = "0,0.2,0.4,0.6,0.8,0.9,0.95",
      description = "s1 for 6a (values >= s0 are skipped)")
  List<Double> skews;
  @Option(names = "--kappas", split = ",", defaultValue = "1,4,16,64,256",
      description = "rank rotations kappa for 6b (default ${DEFAULT-VALUE})")
  List<Integer> kappas;
  @Option(names = "--max-windows", defaultValue = "5", description = "give up after this many windows of new requests")
  int maxWindows;
  @Option(names = "--swap-keys", defaultValue = "10000", description = "n for 6c (default ${DEFAULT-VALUE})")
  int swapKeys;
  @Option(names = "--value-size", defaultValue = "1024", description = "6c value bytes (default ${DEFAULT-VALUE})")
  int valueSize;
  @Option(names = "--after-windows", defaultValue = "3",
      description = "6c: windows of the new distribution issued after swapping finished (counts further transitions)")
  int afterWindows;
  @Option(names = "--control-windows", defaultValue = "10",
      description = "control: windows of requests per seed (default ${DEFAULT-VALUE})")
  int controlWindows;
  @Option(names = "--sample-ms", defaultValue = "50",
      description = "6c: sampling period of pending swaps and proxy memory, ms (default ${DEFAULT-VALUE})")
  int sampleMs;
  @Option(names = "--control-seeds", defaultValue = "2",
      description = "control: repetitions (default ${DEFAULT-VALUE})")
  int controlSeeds;
  @Option(names = "--kick-ms", defaultValue = "1",
      description = "a helper thread gets a key that was never written every this many ms (not counted by the"
          + " estimator); 0 = none. A work-around for the per-request design's pacer, which stalled for seconds"
          + " (docs/results/dynamic.md); the clocked emitter serves the request thread without it")
  int kickMs;
  @Option(names = "--replot",
      description = "only redraw the charts of <out> from the files a run left there (results.md, detection.csv, "
          + "fig6c-*.csv), which stay as they are; the machine and date come from results.md, or from --machine and "
          + "--date for files written before they were recorded")
  boolean replot;
  @CommandLine.Mixin
  ProvenanceOptions where = new ProvenanceOptions();
  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  private final PrintStream log = System.err;
  private final Path root = Path.of(System.getProperty("pancake.root", ".")).toAbsolutePath().normalize();

  public static void main(String[] args) {
    System.exit(new CommandLine(new Dynamic()).execute(args));
  }

  // ------------------------------------------------------------------ workload

  /** Zipf(s) over n ranks; rank r is key (r - shift) mod n. */
  static final class Zipf {
    final int n;
    final int shift;
    final double[] cdf;

    Zipf(int n, double s, int shift) {
      this.n = n;
      this.shift = shift;
      cdf = new double[n];
      double sum = 0;
      for (int i = 0; i < n; i++) {
        sum += 1.0 / Math.pow(i + 1, s);
        cdf[i] = sum;
      }
      for (int i = 0; i < n; i++) {
        cdf[i] /= sum;
      }
      cdf[n - 1] = 1.0;
    }

    int next(SplittableRandom rnd) {
      int i = Arrays.binarySearch(cdf, rnd.nextDouble());
      int rank = i >= 0 ? i : -i - 1;
      return Math.floorMod(rank - shift, n);
    }
  }

  static byte[] key(int i) {
    return KvClient.utf8("user" + i);
  }

  private static Path distribution(Path dir, int n, double s) throws IOException {
    Map<String, Double> weights = new LinkedHashMap<>();
    for (int i = 0; i < n; i++) {
      weights.put("user" + i, 1.0 / Math.pow(i + 1, s));
    }
    Path f = dir.resolve("distribution.tsv");
    DistributionFile.write(f, weights);
    return f;
  }

  private PancakeConfig.Builder config(Path dir, int n, int valueBytes, long seed) {
    return PancakeConfig.builder().stateDir(dir.resolve("state")).capacity(n).valueSize(valueBytes).keySize(16)
        .windowSize(window).detectionConfidence(confidence).seed(seed);
  }

  // ------------------------------------------------------------------ detection (6a, 6b, control)

  /** One detection run's outcome. */
  record Detection(String label, double x, long seed, long warmTransitions, long requests, double p, double seconds) {}

  /**
   * Warm start with zipf(s0), w requests of zipf(s0), then requests of {@code next} until a change is
   * declared; returns the number of {@code next} requests, or -1 if none within maxWindows windows.
   */
  Detection detect(String label, double x, double s0, Zipf next, long seed) throws Exception {
    Path dir = Files.createTempDirectory("pancake-dyn-");
    try {
      PancakeConfig cfg = config(dir, keys, 16, seed).distributionFile(distribution(dir, keys, s0))
          .store(new MemoryStore()).build();
      try (PancakeClient client = PancakeClient.open(cfg); AutoCloseable k = kicker(client)) {
        SplittableRandom rnd = new SplittableRandom(seed * 7919 + 1);
        Zipf old = new Zipf(keys, s0, 0);
        // Keys listed in the distribution file are bound to slots at creation: gets of them are
        // recorded by the estimator without a load phase (a load of one put per key would itself
        // be a uniform burst in the window; see docs/results/dynamic.md).
        for (int i = 0; i < window; i++) {
          client.get(key(old.next(rnd)));
        }
        settle();
        long warm = client.stats().transitions();
        long before = warm;
        long limit = (long) maxWindows * window;
        long t0 = System.nanoTime();
        for (long i = 1; i <= limit; i++) {
          client.get(key(next.next(rnd)));
          if (i % 50 == 0 || i == limit) {
            PancakeStats s = client.stats();
            if (s.transitions() > before) {
              return new Detection(label, x, seed, warm, i, s.lastChangeTestP(), (System.nanoTime() - t0) / 1e9);
            }
          }
        }
        settle();
        PancakeStats s = client.stats();
        return new Detection(label, x, seed, warm, s.transitions() > before ? limit : -1, s.lastChangeTestP(),
            (System.nanoTime() - t0) / 1e9);
      }
    } finally {
      Bench.deleteTree(dir);
    }
  }

  /**
   * Works around the pacer stall: a single closed-loop caller whose request missed its own batch
   * waits for the next batch; a get of a key that was never written sends one batch that carries
   * no request of its own (public API), so it serves the queue like a pacer batch. Not recorded by
   * the estimator (such a key has no slot).
   */
  private AutoCloseable kicker(PancakeClient client) {
    if (kickMs <= 0) {
      return () -> {};
    }
    byte[] absent = KvClient.utf8("never-written");
    Thread t = new Thread(() -> {
      while (!Thread.currentThread().isInterrupted()) {
        try {
          Thread.sleep(kickMs);
          client.get(absent);
        } catch (InterruptedException e) {
          return;
        } catch (RuntimeException e) {
          return;
        }
      }
    }, "dyn-kicker");
    t.setDaemon(true);
    t.start();
    return () -> {
      t.interrupt();
      t.join();
    };
  }

  /**
   * Lets the estimator thread drain and run a due test: it steps every 200 ms
   * (Estimator.STEP_INTERVAL_MS, every 5 ms before session 43, when this waited 30 ms).
   */
  private static void settle() {
    try {
      Thread.sleep(450);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  record Control(double s, long seed, long requests, long expectedTests, long transitions, List<Long> at) {}

  /** Estimate = workload = zipf(s): requests for controlWindows windows, counting declared changes. */
  Control control(double s, long seed) throws Exception {
    Path dir = Files.createTempDirectory("pancake-dyn-");
    try {
      PancakeConfig cfg = config(dir, keys, 16, seed).distributionFile(distribution(dir, keys, s))
          .store(new MemoryStore()).build();
      try (PancakeClient client = PancakeClient.open(cfg); AutoCloseable k = kicker(client)) {
        SplittableRandom rnd = new SplittableRandom(seed * 7919 + 1);
        Zipf z = new Zipf(keys, s, 0);
        long total = (long) controlWindows * window;
        List<Long> at = new ArrayList<>();
        long seen = 0;
        for (long i = 1; i <= total; i++) {
          client.get(key(z.next(rnd)));
          if (i % 100 == 0) {
            long t = client.stats().transitions();
            if (t > seen) {
              at.add(i);
              seen = t;
            }
          }
        }
        settle();
        long t = client.stats().transitions();
        // a declared estimate is tested once a full window of accesses (design.md, "Estimation")
        long tests = total / Math.max(1, window);
        return new Control(s, seed, total, tests, t, at);
      }
    } finally {
      Bench.deleteTree(dir);
    }
  }

  // ------------------------------------------------------------------ swapping (6c)

  record Sample(double seconds, long requests, long transitions, int pendingSwaps, long swapsDone,
      int swapCacheEntries, long swapCacheBytes, int updateCacheEntries, long updateCacheBytes) {
    long proxyBytes() {
      return swapCacheBytes + updateCacheBytes;
    }
  }

  record Swap(String label, int n, double detectSeconds, long detectRequests, double swapSeconds, long swapRequests,
      long swaps, int initialPending, long peakProxyBytes, int peakSwapEntries, long laterTransitions,
      long afterRequests, List<Sample> series) {}

  /** Window filled with {@code fromSkew}, then {@code toSkew} until the transition finished. */
  Swap swap(String label, double fromSkew, double toSkew, long seed) throws Exception {
    Path dir = Files.createTempDirectory("pancake-dyn-");
    try {
      int n = swapKeys;
      MemoryStore store = new MemoryStore();
      PancakeConfig.Builder b = config(dir, n, valueSize, seed).store(store);
      if (fromSkew > 0) {
        b.distributionFile(distribution(dir, n, fromSkew));
      }
      byte[] value = new byte[valueSize];
      new SplittableRandom(seed).nextBytes(value);
      log.printf(Locale.ROOT, "bench-dynamic: [6c %s] loading %d keys of %d bytes...%n", label, n, valueSize);
      try (PancakeClient client = PancakeClient.open(b.build()); AutoCloseable k = kicker(client)) {
        for (int i = 0; i < n; i++) {
          client.put(key(i), value);
        }
      }
      // Reopen: a fresh estimator window, so the load's n puts (one per key, uniform) are not in it.
      PancakeConfig cfg = config(dir, n, valueSize, seed).store(store.reopen()).build();
      try (PancakeClient client = PancakeClient.open(cfg); AutoCloseable k = kicker(client)) {
        SplittableRandom rnd = new SplittableRandom(seed * 7919 + 1);
        Zipf old = new Zipf(n, fromSkew, 0);
        Zipf next = new Zipf(n, toSkew, 0);
        for (int i = 0; i < window; i++) {
          client.get(key(old.next(rnd)));
        }
        settle();
        long base = client.stats().transitions();
        if (base != 0) {
          log.printf("bench-dynamic: [6c %s] warning: %d transition(s) while filling the window%n", label, base);
        }
        List<Sample> series = new CopyOnWriteArrayList<>();
        long t0 = System.nanoTime();
        long[] detectedAt = {-1, -1};
        volatileRunning = true;
        Thread sampler = new Thread(() -> {
          while (volatileRunning) {
            PancakeStats s = client.stats();
            series.add(new Sample((System.nanoTime() - t0) / 1e9, s.requests(), s.transitions() - base,
                s.pendingSwaps(), s.swapsDone(), s.swapCacheEntries(), s.swapCacheBytes(), s.updateCacheEntries(),
                s.updateCacheBytes()));
            try {
              Thread.sleep(sampleMs);
            } catch (InterruptedException e) {
              return;
            }
          }
        }, "dyn-sampler");
        sampler.setDaemon(true);
        sampler.start();
        long limit = (long) maxWindows * window + 50L * n * 100;
        long i = 0;
        long doneAt = -1;
        double doneSec = -1;
        int initialPending = 0;
        long swapsBefore = 0;
        while (i < limit) {
          client.get(key(next.next(rnd)));
          i++;
          if (i % 20 == 0) {
            PancakeStats s = client.stats();
            if (detectedAt[0] < 0 && s.transitions() > base) {
              detectedAt[0] = i;
              detectedAt[1] = System.nanoTime();
              initialPending = s.pendingSwaps();
              swapsBefore = s.swapsDone();
              log.printf(Locale.ROOT, "bench-dynamic: [6c %s] change declared after %d requests, %d swaps%n",
                  label, i, initialPending);
            } else if (detectedAt[0] >= 0 && s.pendingSwaps() == 0) {
              doneAt = i;
              doneSec = (System.nanoTime() - detectedAt[1]) / 1e9;
              break;
            }
          }
        }
        Thread.sleep(2L * sampleMs);
        volatileRunning = false;
        sampler.join();
        long swaps = client.stats().swapsDone() - swapsBefore;
        // later windows of the new distribution: does the detector stay quiet?
        long afterBase = client.stats().transitions();
        long after = (long) afterWindows * window;
        long afterStart = System.nanoTime();
        long j = 0;
        for (; j < after; j++) {
          client.get(key(next.next(rnd)));
          // a further transition slows a closed-loop caller to the background batch rate: bound the time
          if ((j & 1023) == 0 && System.nanoTime() - afterStart > 120_000_000_000L) {
            break;
          }
        }
        after = j;
        settle();
        long later = client.stats().transitions() - afterBase;
        long peak = 0;
        int peakEntries = 0;
        List<Sample> kept = new ArrayList<>();
        double detectSec = detectedAt[1] < 0 ? -1 : (detectedAt[1] - t0) / 1e9;
        for (Sample s : series) {
          peak = Math.max(peak, s.proxyBytes());
          peakEntries = Math.max(peakEntries, s.swapCacheEntries());
          kept.add(s);
        }
        return new Swap(label, n, detectSec, detectedAt[0], doneSec, doneAt < 0 ? -1 : doneAt - detectedAt[0], swaps,
            initialPending, peak, peakEntries, later, after, kept);
      }
    } finally {
      Bench.deleteTree(dir);
    }
  }

  private volatile boolean volatileRunning;
  /** Where and when this run is, for its charts. */
  private Charts.Provenance provenance;

  // ------------------------------------------------------------------ driver

  @Override
  public Integer call() throws Exception {
    out = root.resolve(out);
    CommandLine cli = spec != null ? spec.commandLine() : new CommandLine(this);
    try {
      if (replot) {
        for (String file : DynamicReplot.replot(out, where)) {
          log.println("bench-dynamic: redrew " + out.resolve(file));
        }
        return 0;
      }
      provenance = where.over(Charts.Provenance.detect(java.time.Clock.systemUTC()));
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(cli, e.getMessage());
    }
    Files.createDirectories(out);
    StringBuilder md = new StringBuilder("<!-- written by bin/bench-dynamic; " + provenance.line() + " -->\n");
    md.append(String.format(Locale.ROOT, "Setup: memory store, one request thread (plus a helper batch every %d ms, `--kick-ms`), gets only, n = %d keys (6a/6b/control), "
        + "w = %d, confidence %.2f, %d seeds per point, give up after %d windows of new requests.%n%n",
        kickMs, keys, window, confidence, seeds, maxWindows));
    StringBuilder csv = new StringBuilder("figure,label,x,seed,warm_transitions,requests_to_detect,p,seconds\n");
    if (parts.contains("a")) {
      List<Detection> all = new ArrayList<>();
      md.append("## 6a: accesses to detect a skew drop zipf(s0) -> zipf(s1)\n\n"
          + "| s0 | s1 | requests to detect (median) | per seed | false alarms while the window filled |\n|--:|--:|--:|--|--:|\n");
      for (double s0 : from) {
        for (double s1 : skews) {
          if (s1 >= s0) {
            continue;
          }
          List<Detection> runs = new ArrayList<>();
          for (int k = 0; k < seeds; k++) {
            Detection d = detect(DynamicCharts.skewLabel(s0), s1, s0, new Zipf(keys, s1, 0), 101 + k);
            log.printf(Locale.ROOT, "bench-dynamic: [6a] %.2f -> %.2f seed %d: %d requests (p=%.3g, %.1f s)%n",
                s0, s1, d.seed(), d.requests(), d.p(), d.seconds());
            runs.add(d);
            all.add(d);
            csv.append(csvRow("6a", d));
          }
          long med = median(runs);
          md.append(String.format(Locale.ROOT, "| %.2f | %.2f | %s | %s | %d |%n", s0, s1, fmt(med), perSeed(runs),
              runs.stream().mapToLong(Detection::warmTransitions).sum()));
        }
      }
      md.append('\n');
      DynamicCharts.skewDrop(out, keys, window, all, provenance);
    }
    if (parts.contains("b")) {
      md.append("## 6b: accesses to detect zipf(0.99) rotated by kappa\n\n"
          + "| kappa | requests to detect (median) | per seed | false alarms while the window filled |\n|--:|--:|--|--:|\n");
      List<Detection> all = new ArrayList<>();
      for (int kappa : kappas) {
        List<Detection> runs = new ArrayList<>();
        for (int k = 0; k < seeds; k++) {
          Detection d = detect("kappa", kappa, 0.99, new Zipf(keys, 0.99, kappa), 201 + k);
          log.printf(Locale.ROOT, "bench-dynamic: [6b] kappa %d seed %d: %d requests (p=%.3g, %.1f s)%n",
              kappa, d.seed(), d.requests(), d.p(), d.seconds());
          runs.add(d);
          all.add(d);
          csv.append(csvRow("6b", d));
        }
        long med = median(runs);
        md.append(String.format(Locale.ROOT, "| %d | %s | %s | %d |%n", kappa, fmt(med), perSeed(runs),
            runs.stream().mapToLong(Detection::warmTransitions).sum()));
      }
      md.append('\n');
      DynamicCharts.kappa(out, keys, window, all, provenance);
    }
    if (parts.contains("control")) {
      md.append("## Control: no change (estimate = workload)\n\n"
          + "| zipf s | seed | requests | tests run (about) | changes declared | at request |\n|--:|--:|--:|--:|--:|--|\n");
      for (int k = 0; k < controlSeeds; k++) {
        Control c = control(from.get(0), 301 + k);
        log.printf(Locale.ROOT, "bench-dynamic: [control] zipf %.2f seed %d: %d transitions in %d requests %s%n",
            c.s(), c.seed(), c.transitions(), c.requests(), c.at());
        md.append(String.format(Locale.ROOT, "| %.2f | %d | %d | %d | %d | %s |%n", c.s(), c.seed(), c.requests(),
            c.expectedTests(), c.transitions(), c.at()));
      }
      md.append('\n');
    }
    if (parts.contains("c")) {
      List<Swap> swaps = new ArrayList<>();
      swaps.add(swap("zipf 0.99 -> uniform", 0.99, 0.0, 401));
      swaps.add(swap("uniform -> zipf 0.99", 0.0, 0.99, 402));
      md.append(String.format(Locale.ROOT, "## 6c: swapping, n = %d keys, %d-byte values, gets only%n%n", swapKeys,
          valueSize));
      md.append("| change | requests to detect | swaps | swapping time (s) | requests while swapping | "
          + "peak proxy memory (KB) | peak swap-cache entries | % of stored values | "
          + "changes declared in the next windows |\n|--|--:|--:|--:|--:|--:|--:|--:|--|\n");
      for (Swap s : swaps) {
        double stored = 2.0 * s.n() * valueSize;
        md.append(String.format(Locale.ROOT, "| %s | %s | %d | %.2f | %s | %.1f | %d | %.3f %% | %d in %d requests |%n",
            s.label(), fmt(s.detectRequests()), s.swaps(), s.swapSeconds(), fmt(s.swapRequests()),
            s.peakProxyBytes() / 1024.0, s.peakSwapEntries(), 100.0 * s.peakProxyBytes() / stored,
            s.laterTransitions(), s.afterRequests()));
        log.printf(Locale.ROOT, "bench-dynamic: [6c] %s: detect %d req, %d swaps in %.2f s / %d req, peak %d B, later %d%n",
            s.label(), s.detectRequests(), s.swaps(), s.swapSeconds(), s.swapRequests(), s.peakProxyBytes(),
            s.laterTransitions());
        String file = DynamicCharts.swapFile(s.label());
        DynamicCharts.swap(out.resolve(file), s.label(), s.n(), s.series(), provenance);
        StringBuilder ts = new StringBuilder("seconds,requests,transitions,pending_swaps,swaps_done,swap_cache_entries,"
            + "swap_cache_bytes,update_cache_entries,update_cache_bytes\n");
        for (Sample x : s.series()) {
          ts.append(String.format(Locale.ROOT, "%.3f,%d,%d,%d,%d,%d,%d,%d,%d%n", x.seconds(), x.requests(),
              x.transitions(), x.pendingSwaps(), x.swapsDone(), x.swapCacheEntries(), x.swapCacheBytes(),
              x.updateCacheEntries(), x.updateCacheBytes()));
        }
        Files.writeString(out.resolve(file.replace(".png", ".csv")), ts);
      }
      md.append('\n');
    }
    Files.writeString(out.resolve("results.md"), md);
    if (parts.contains("a") || parts.contains("b")) {
      Files.writeString(out.resolve("detection.csv"), csv);
    }
    log.println("bench-dynamic: wrote " + out);
    return 0;
  }

  private static String csvRow(String fig, Detection d) {
    return String.format(Locale.ROOT, "%s,%s,%s,%d,%d,%d,%.4g,%.2f%n", fig, d.label(), d.x(), d.seed(),
        d.warmTransitions(), d.requests(), d.p(), d.seconds());
  }

  /** Median over seeds; a run that never detected counts as infinitely many requests. */
  static long median(List<Detection> runs) {
    long[] v = runs.stream().mapToLong(d -> d.requests() < 0 ? Long.MAX_VALUE : d.requests()).sorted().toArray();
    long m = v[(v.length - 1) / 2];
    if (v.length % 2 == 0) {
      long hi = v[v.length / 2];
      m = m == Long.MAX_VALUE || hi == Long.MAX_VALUE ? Long.MAX_VALUE : (m + hi) / 2;
    }
    return m == Long.MAX_VALUE ? -1 : m;
  }

  private String fmt(long v) {
    return v < 0 ? "> " + ((long) maxWindows * window) : String.format(Locale.ROOT, "%,d", v);
  }

  private String perSeed(List<Detection> runs) {
    List<String> s = new ArrayList<>();
    for (Detection d : runs) {
      s.add(d.requests() < 0 ? "none" : String.valueOf(d.requests()));
    }
    return String.join(", ", s);
  }
}
