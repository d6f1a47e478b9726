package io.pancakej.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import io.pancakej.distribution.DistributionFile;
import io.pancakej.testing.RedisServerFixture;
import io.pancakej.ycsb.Bindings;
import io.pancakej.ycsb.InFlightClient;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import redis.clients.jedis.Jedis;

/**
 * {@code bin/bench}: the paper's evaluation in one command. For every workload and scheme it runs
 * stock YCSB's load and run phases in child JVMs (fresh data per pair; with {@code --inflight} the run
 * phases through {@link InFlightClient}), with server-side counts
 * ({@code pancake.stats.file}), and writes {@code results.md}, {@code results.csv} and PNG charts
 * to {@code --out}. PANCAKE is warm-started with the workload's true key distribution
 * ({@code bin/distribution}). {@code --trace} also records each run phase's transcript and audits
 * it ({@code bin/audit}); {@code --sensitivity} adds the UpdateCache and batch-size experiments.
 */
@Command(name = "bench", mixinStandardHelpOptions = true, sortOptions = false,
    description = "Runs YCSB workloads for insecure, encrypted, pancake, pathoram and detworam side by side; "
        + "writes a table, a CSV and charts.")
public class Bench implements Callable<Integer> {
  static final Map<String, String> BINDINGS = Bindings.BY_SCHEME;

  @Option(names = "--store", defaultValue = "rocksdb", description = "rocksdb (embedded, default) or redis")
  String store;
  @Option(names = "--redis-host", defaultValue = "127.0.0.1", description = "Redis host (with --redis-port)")
  String redisHost;
  @Option(names = "--redis-port", description = "an existing Redis server's port; default: start a private one (as bin/pancake redis)")
  Integer redisPort;
  @Option(names = "--records", defaultValue = "10000", description = "YCSB recordcount (default ${DEFAULT-VALUE})")
  int records;
  @Option(names = "--ops", defaultValue = "20000", description = "YCSB operationcount per run (default ${DEFAULT-VALUE})")
  long ops;
  @Option(names = "--threads", defaultValue = "8", description = "YCSB client threads (default ${DEFAULT-VALUE})")
  int threads;
  @Option(names = "--inflight", defaultValue = "1", paramLabel = "<d>",
      description = "run phases through the asynchronous API, each thread sending d requests at once and waiting "
          + "for all of them (as bin/ycsb run ... -inflight d; no -target, dataintegrity or scans); default "
          + "${DEFAULT-VALUE}: stock YCSB's client, one request at a time. Schemes whose asynchronous calls run on "
          + "the calling thread (all but pancake) still send one at a time")
  int inFlight;
  @Option(names = "--field-length", defaultValue = "100", description = "YCSB fieldlength; 10 fields make a record (default ${DEFAULT-VALUE})")
  int fieldLength;
  @Option(names = "--value-size", description = "pancake.value.size (padded value size); default: fits 10 fields of --field-length")
  Integer valueSize;
  @Option(names = "--schemes", split = ",", defaultValue = "insecure,encrypted,pancake,pathoram,detworam",
      description = "the schemes to run, comma-separated, in this order (default ${DEFAULT-VALUE})")
  List<String> schemes;
  @Option(names = "--workloads", split = ",", defaultValue = "a,c", description = "workloads/workload<x> files (default ${DEFAULT-VALUE})")
  List<String> workloads;
  @Option(names = {"-o", "--out"}, defaultValue = "target/bench",
      description = "where results go, relative to the project root (default ${DEFAULT-VALUE}, scratch; "
          + "name docs/results/... only to publish)")
  Path out;
  @Option(names = "--work", defaultValue = "data/bench", description = "scratch data, YCSB outputs (default ${DEFAULT-VALUE})")
  Path work;
  @Option(names = "-p", description = "extra YCSB/pancake property name=value for every run")
  Map<String, String> extra = new LinkedHashMap<>();
  @Option(names = "--jvm-args", paramLabel = "<options>",
      description = "options for every YCSB JVM the bench starts, the same for all schemes, space-separated "
          + "(e.g. \"-XX:CompileThresholdScaling=0.1\": the JIT compiles sooner, so a short run is less of a "
          + "warm-up); recorded in the tables' setup line")
  String jvmArgs = "";
  @Option(names = "--trace", description = "record each run phase's transcript and audit it (slows the runs)")
  boolean trace;
  @Option(names = "--repeat", defaultValue = "1",
      description = "run the main comparison N times (default ${DEFAULT-VALUE}); with N > 1 each run's table goes to "
          + "<out>/repeat-<i>/ and its YCSB outputs to <work>/repeat-<i>/, repeats.md lists every run's ratio to "
          + "insecure and their median, and results.md holds, per scheme and workload, the run with the median "
          + "throughput")
  int repeat;
  @Option(names = "--no-main", description = "skip the main comparison (only --sensitivity)")
  boolean noMain;
  @Option(names = "--sensitivity", split = ",",
      description = "extra experiments: cache (UpdateCache vs write fraction and zipf skew, Fig. 7b/7c), batch (B = 2..6, Fig. 8)")
  List<String> sensitivity = new ArrayList<>();
  @Option(names = "--replot",
      description = "only redraw the charts of <out> from its tables, which are left as they are: results.csv, and "
          + "batch.md and updatecache.md where they exist (then results.csv may be absent); the machine and date come "
          + "from each table, or from --machine and --date for tables written before they were recorded")
  boolean replot;
  @CommandLine.Mixin
  ProvenanceOptions where = new ProvenanceOptions();
  @Option(names = "--batch-sizes", split = ",", defaultValue = "2,3,4,5,6",
      description = "the batch sizes B of --sensitivity batch (default ${DEFAULT-VALUE})")
  List<Integer> batchSizes;

  private final PrintStream log = System.err;
  private final Path root = Path.of(System.getProperty("pancake.root", ".")).toAbsolutePath().normalize();
  Clock clock = Clock.systemUTC();
  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;
  private RedisServerFixture redis;

  public static void main(String[] args) {
    System.exit(new CommandLine(new Bench()).execute(args));
  }

  /**
   * One YCSB load+run pair's figures. {@code warmThroughput} is the run's ops/s after its first
   * {@value Warm#SECONDS} seconds, {@code warmLatency} its requests' average latency (us) there (NaN
   * for a shorter run): {@link Warm}.
   */
  record Row(String scheme, String workload, String variant, double throughput, double readAvg, double readP99,
      double updateAvg, double updateP99, long errors, double roundTripsPerOp, double keysPerOp,
      double bytesPerOp, long storageEntries, long storageBytes, double loadSeconds, double warmThroughput,
      double warmLatency) {

    /** The figures of a table that has no warm columns. */
    Row(String scheme, String workload, String variant, double throughput, double readAvg, double readP99,
        double updateAvg, double updateP99, long errors, double roundTripsPerOp, double keysPerOp,
        double bytesPerOp, long storageEntries, long storageBytes, double loadSeconds) {
      this(scheme, workload, variant, throughput, readAvg, readP99, updateAvg, updateP99, errors, roundTripsPerOp,
          keysPerOp, bytesPerOp, storageEntries, storageBytes, loadSeconds, Double.NaN, Double.NaN);
    }
  }

  @Override
  public Integer call() throws Exception {
    if (!store.equals("rocksdb") && !store.equals("redis")) {
      throw new CommandLine.ParameterException(cli(), "--store must be rocksdb or redis");
    }
    for (String s : schemes) {
      if (!BINDINGS.containsKey(s)) {
        throw new CommandLine.ParameterException(cli(), "unknown scheme " + s);
      }
    }
    try {
      jvmOptions();
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(cli(), "--jvm-args: " + e.getMessage());
    }
    if (inFlight < 1 || inFlight > InFlightClient.MAX_IN_FLIGHT) {
      throw new CommandLine.ParameterException(cli(), "--inflight must be between 1 and "
          + InFlightClient.MAX_IN_FLIGHT + ", got " + inFlight);
    }
    if (repeat < 1) {
      throw new CommandLine.ParameterException(cli(), "--repeat must be at least 1, got " + repeat);
    }
    out = root.resolve(out);
    work = root.resolve(work);
    if (replot) {
      replot();
      return 0;
    }
    Charts.Provenance provenance = provenance(null);
    Files.createDirectories(out);
    deleteTree(work);
    Files.createDirectories(work);
    try {
      if (store.equals("redis") && redisPort == null) {
        startRedis();
      }
      List<Row> rows = new ArrayList<>();
      if (!noMain) {
        List<List<Row>> runs = new ArrayList<>();
        for (int i = 1; i <= repeat; i++) {
          if (repeat > 1) {
            log.printf(Locale.ROOT, "bench: repetition %d of %d%n", i, repeat);
          }
          runs.add(mainComparison());
          if (repeat > 1) {
            keepOutputs(work.resolve("repeat-" + i));
            Path dir = out.resolve("repeat-" + i);
            Files.createDirectories(dir);
            Report.write(dir, runs.get(i - 1), describeSetup(), provenance);
          }
        }
        rows = repeat > 1 ? Report.medianRuns(runs) : runs.get(0);
        Report.write(out, rows, describeSetup() + (repeat > 1 ? " (median run of " + repeat + ")" : ""), provenance);
        if (repeat > 1) {
          Report.writeRepeats(out, runs, describeSetup());
          log.println("bench: wrote " + out.resolve("repeats.md"));
        }
        log.println("bench: wrote " + out.resolve("results.md") + ", results.csv and charts");
      }
      if (sensitivity.contains("batch")) {
        List<Row> batch = batchSensitivity();
        Report.writeBatch(out, batch, describeSetup(), provenance);
      }
      if (sensitivity.contains("cache")) {
        CacheSensitivity.run(out, records, log, provenance);
      }
      return 0;
    } finally {
      stopRedis();
    }
  }

  /**
   * The charts of {@code <out>} drawn again from its tables, which stay as published: the main charts
   * from results.csv (with results.md's rounding), batch-*.png from batch.md and updatecache-*.png from
   * updatecache.md where those exist ({@link TableReplot}). results.csv may be absent only beside one of
   * these. Each table's machine and date are the ones it records, or {@code --machine} and {@code --date};
   * nothing is redrawn while a table lacks them.
   */
  private void replot() throws IOException {
    Path csv = out.resolve("results.csv");
    Path batch = out.resolve("batch.md");
    Path cache = out.resolve("updatecache.md");
    boolean sensitivity = Files.exists(batch) || Files.exists(cache);
    boolean main = !sensitivity || Files.exists(csv);
    if (!sensitivity && !Files.exists(csv)) {
      throw new CommandLine.ParameterException(cli(), "cannot replot " + out
          + ": it has no results.csv, batch.md or updatecache.md");
    }
    Map<Path, List<String>> tables = new LinkedHashMap<>();
    if (main) {
      tables.put(out.resolve("results.md"), table(out.resolve("results.md")));
      tables.put(csv, table(csv));
    }
    for (Path t : List.of(batch, cache)) {
      if (Files.exists(t)) {
        tables.put(t, table(t));
      }
    }
    Map<Path, Charts.Provenance> where = new LinkedHashMap<>();
    for (Map.Entry<Path, List<String>> t : tables.entrySet()) {
      if (!t.getKey().equals(csv)) {
        where.put(t.getKey(), provenanceOf(t.getKey(), t.getValue()));
      }
    }
    try {
      if (main) {
        replotMain(tables.get(csv), tables.get(out.resolve("results.md")), where.get(out.resolve("results.md")));
        log.println("bench: redrew the charts of " + out + " from results.csv");
      }
      if (tables.containsKey(batch)) {
        TableReplot.batch(out, tables.get(batch), where.get(batch));
        log.println("bench: redrew batch-throughput.png and batch-latency.png from " + batch);
      }
      if (tables.containsKey(cache)) {
        TableReplot.cache(out, tables.get(cache), where.get(cache));
        log.println("bench: redrew updatecache-write-fraction.png and updatecache-skew.png from " + cache);
      }
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(cli(), "cannot replot: " + e.getMessage());
    }
  }

  private void replotMain(List<String> lines, List<String> md, Charts.Provenance provenance) throws IOException {
    String setup = md.size() > 1 ? md.get(1).replace("`", "") : "";
    List<Row> rows = new ArrayList<>();
    for (String line : lines.subList(1, lines.size())) {
      String[] c = line.split(",");
      rows.add(new Row(c[0], c[1], "", num(c[2]), num(c[4]), num(c[5]), num(c[6]), num(c[7]), Long.parseLong(c[8]),
          num(c[9]), num(c[10]), num(c[11]), Long.parseLong(c[12]), Long.parseLong(c[13]), num(c[14]),
          // tables before the warm columns have 15 columns, before the warm latency 16
          c.length > 15 ? num(c[15]) : Double.NaN, c.length > 16 ? num(c[16]) : Double.NaN));
    }
    Report.writeCharts(out, Report.asPublished(rows, md), setup, provenance);
  }

  /** A table's lines; an absent or empty table is a usage error naming it. */
  private List<String> table(Path file) throws IOException {
    if (!Files.isRegularFile(file)) {
      throw new CommandLine.ParameterException(cli(), "cannot replot " + out + ": " + file + " does not exist");
    }
    List<String> lines = Files.readAllLines(file);
    if (lines.isEmpty()) {
      throw new CommandLine.ParameterException(cli(), "cannot replot " + out + ": " + file + " is empty");
    }
    return lines;
  }

  /** The machine and date {@code md}'s first line records, overridden by --machine and --date. */
  private Charts.Provenance provenanceOf(Path file, List<String> md) {
    try {
      return where.forTable(file, Charts.Provenance.parse(md.get(0)));
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(cli(), e.getMessage());
    }
  }

  /** The command line running this command, so that errors reach its streams. */
  private CommandLine cli() {
    return spec != null ? spec.commandLine() : new CommandLine(this);
  }

  /** --machine and --date where given, else {@code recorded}'s, else this machine today. */
  Charts.Provenance provenance(Charts.Provenance recorded) {
    try {
      return where.over(recorded != null ? recorded : Charts.Provenance.detect(clock));
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(cli(), e.getMessage());
    }
  }

  String describeSetup() {
    return String.format(Locale.ROOT, "store=%s records=%d operations=%d threads=%d fieldlength=%d value.size=%d",
        store, records, ops, threads, fieldLength, effectiveValueSize())
        + (inFlight > 1 ? " inflight=" + inFlight : "")
        + (jvmOptions().isEmpty() ? "" : " jvm=" + String.join(" ", jvmOptions()));
  }

  /** The --jvm-args, one element per option, split as a shell would (quotes and backslashes). */
  List<String> jvmOptions() {
    return ShellWords.split(jvmArgs);
  }

  /**
   * The JVM's own reason when a YCSB JVM's error output says it could not start (its first line
   * other than a "Picked up ..." note and the generic closing lines), else null.
   */
  static String jvmStartFailure(List<String> stderr) {
    if (stderr.stream().noneMatch(l -> l.contains("Could not create the Java Virtual Machine"))) {
      return null;
    }
    return stderr.stream()
        .filter(l -> !l.isBlank() && !l.contains("Picked up ") && !l.startsWith("Error: Could not create")
            && !l.startsWith("Error: A fatal exception"))
        .findFirst().orElse("no reason given");
  }

  int effectiveValueSize() {
    return valueSize != null ? valueSize : Math.max(1200, 10 * (fieldLength + 16) + 64);
  }

  private List<Row> mainComparison() throws IOException, InterruptedException {
    List<Row> rows = new ArrayList<>();
    int total = workloads.size() * schemes.size();
    int step = 0;
    for (String w : workloads) {
      Path dist = distributionFile(w);
      for (String s : schemes) {
        step++;
        String tag = String.format(Locale.ROOT, "[%d/%d] workload %s, %s", step, total, w.toUpperCase(Locale.ROOT), s);
        Map<String, String> props = new LinkedHashMap<>();
        Row row = loadAndRun(tag, s, w, "", props, dist);
        rows.add(row);
        if (trace) {
          audit(s, w, dist);
        }
      }
    }
    return rows;
  }

  /**
   * Copies the main comparison's YCSB outputs and counts (not its stores and states) to {@code to}, one
   * directory per scheme and workload, before the next repetition's loads replace them.
   */
  private void keepOutputs(Path to) throws IOException {
    for (String w : workloads) {
      for (String s : schemes) {
        Path dir = work.resolve(s + "-" + w);
        Path kept = Files.createDirectories(to.resolve(s + "-" + w));
        for (String name : List.of("load.txt", "load.err", "load.stats", "run.txt", "run.err", "run.stats")) {
          if (Files.exists(dir.resolve(name))) {
            Files.copy(dir.resolve(name), kept.resolve(name), StandardCopyOption.REPLACE_EXISTING);
          }
        }
      }
    }
  }

  private List<Row> batchSensitivity() throws IOException, InterruptedException {
    List<Row> rows = new ArrayList<>();
    for (String w : workloads) {
      Path dist = distributionFile(w);
      for (int b : batchSizes) {
        Map<String, String> props = new LinkedHashMap<>();
        props.put("pancake.batch.size", String.valueOf(b));
        rows.add(loadAndRun("[batch B=" + b + "] workload " + w.toUpperCase(Locale.ROOT) + ", pancake",
            "pancake", w, "B=" + b, props, dist));
      }
    }
    return rows;
  }

  private Path distributionFile(String w) throws IOException {
    Properties p = workloadProperties(w);
    p.setProperty("recordcount", String.valueOf(records));
    p.setProperty("operationcount", String.valueOf(ops));
    Path file = work.resolve("distribution-" + w + ".tsv");
    DistributionFile.write(file, io.pancakej.ycsb.WorkloadDistribution.weights(p));
    return file;
  }

  private Properties workloadProperties(String w) throws IOException {
    Properties p = new Properties();
    try (InputStream in = Files.newInputStream(workloadFile(w))) {
      p.load(in);
    }
    return p;
  }

  private Path workloadFile(String w) {
    return root.resolve("workloads").resolve("workload" + w);
  }

  private Row loadAndRun(String tag, String scheme, String w, String variant, Map<String, String> extraProps,
      Path dist) throws IOException, InterruptedException {
    Path dir = work.resolve(scheme + "-" + w + (variant.isEmpty() ? "" : "-" + variant.replace("=", "")));
    deleteTree(dir); // a fresh store and state for every load, also when --repeat runs it again
    Files.createDirectories(dir);
    if (store.equals("redis")) {
      try (Jedis j = new Jedis(redisHost, redisPort)) {
        j.flushAll();
      }
    }
    List<String> common = new ArrayList<>(List.of("-P", workloadFile(w).toString(),
        "-p", "recordcount=" + records, "-p", "operationcount=" + ops, "-threads", String.valueOf(threads),
        "-p", "fieldlength=" + fieldLength, "-p", "pancake.value.size=" + effectiveValueSize(),
        "-p", "pancake.store=" + store, "-p", "rocksdb.dir=" + dir.resolve("rocksdb"),
        "-p", "pancake.state.dir=" + dir.resolve("state"), "-s"));
    if (store.equals("redis")) {
      common.addAll(List.of("-p", "redis.host=" + redisHost, "-p", "redis.port=" + redisPort));
    }
    for (Map.Entry<String, String> e : extra.entrySet()) {
      common.addAll(List.of("-p", e.getKey() + "=" + e.getValue()));
    }
    for (Map.Entry<String, String> e : extraProps.entrySet()) {
      common.addAll(List.of("-p", e.getKey() + "=" + e.getValue()));
    }
    List<String> load = new ArrayList<>(common);
    load.addAll(List.of("-p", "pancake.stats.file=" + dir.resolve("load.stats")));
    if (scheme.equals("pancake")) {
      load.addAll(List.of("-p", "pancake.distribution.file=" + dist));
    }
    log.printf(Locale.ROOT, "bench: %s: load %d records...%n", tag, records);
    long t0 = System.nanoTime();
    ycsb("-load", scheme, load, dir.resolve("load.txt"), tag);
    double loadSeconds = (System.nanoTime() - t0) / 1e9;
    List<String> run = new ArrayList<>(common);
    run.addAll(List.of("-p", "pancake.stats.file=" + dir.resolve("run.stats")));
    if (trace) {
      run.addAll(List.of("-p", "pancake.trace.file=" + dir.resolve("run.trace")));
    }
    log.printf(Locale.ROOT, "bench: %s: run %d operations on %d threads%s...%n", tag, ops, threads,
        inFlight > 1 ? " x " + inFlight + " in flight" : "");
    t0 = System.nanoTime();
    ycsb("-t", scheme, run, dir.resolve("run.txt"), tag);
    Row row = parse(scheme, w, variant, dir, loadSeconds);
    log.printf(Locale.ROOT, "bench: %s: %.0f ops/s, %s after the first %d s at %s us on average (%.0f s)%n", tag,
        row.throughput(), Report.f(row.warmThroughput(), 0), Warm.SECONDS, Report.f(row.warmLatency(), 0),
        (System.nanoTime() - t0) / 1e9);
    return row;
  }

  private void ycsb(String phase, String scheme, List<String> args, Path output, String tag)
      throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
    cmd.addAll(RocksDbLibrary.withLibrary(jvmOptions()));
    cmd.addAll(ycsbArguments(phase, scheme, args));
    Path err = output.resolveSibling(output.getFileName().toString().replace(".txt", ".err"));
    Process p = new ProcessBuilder(cmd).directory(root.toFile())
        .redirectOutput(output.toFile()).start();
    // forward YCSB's 10-second status lines as progress; keep the rest in the .err file
    try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getErrorStream(), StandardCharsets.UTF_8));
        var errOut = Files.newBufferedWriter(err)) {
      String line;
      while ((line = r.readLine()) != null) {
        errOut.write(line);
        errOut.newLine();
        if (line.contains(" sec: ") && line.contains("operations")) {
          int cut = line.indexOf(" sec: ");
          String brief = line.substring(Math.max(0, line.lastIndexOf(' ', cut - 1) + 1));
          int semi = brief.indexOf(';', brief.indexOf("current ops/sec") >= 0 ? brief.indexOf("current ops/sec") : 0);
          log.println("bench: " + tag + ": " + (semi > 0 ? brief.substring(0, semi) : brief));
        }
      }
    }
    int rc = p.waitFor();
    if (rc != 0) {
      String notStarted = jvmStartFailure(Files.readAllLines(err));
      if (notStarted != null) {
        throw new IllegalStateException(tag + ": the YCSB JVM did not start (" + notStarted + "); check --jvm-args "
            + jvmOptions() + "; see " + err);
      }
      throw new IllegalStateException(tag + ": YCSB " + phase + " exited with " + rc + "; see " + err);
    }
  }

  /**
   * The YCSB JVM's arguments after its options: stock YCSB's client, or {@link InFlightClient} for a
   * run phase with {@code --inflight} above 1 (a load stays stock, so every scheme's data is loaded
   * the same way).
   */
  List<String> ycsbArguments(String phase, String scheme, List<String> args) {
    boolean asynchronous = inFlight > 1 && phase.equals("-t");
    List<String> cmd = new ArrayList<>(List.of("-cp", System.getProperty("java.class.path"),
        asynchronous ? InFlightClient.class.getName() : "site.ycsb.Client", phase, "-db", BINDINGS.get(scheme)));
    cmd.addAll(args);
    if (asynchronous) {
      cmd.addAll(List.of(InFlightClient.IN_FLIGHT_OPTION, String.valueOf(inFlight)));
    }
    return cmd;
  }

  private static final Pattern METRIC = Pattern.compile("^\\[([A-Z_-]+)\\], ([^,]+), (.+)$");

  static Row parse(String scheme, String w, String variant, Path dir, double loadSeconds) throws IOException {
    Map<String, String> m = new LinkedHashMap<>();
    long errors = 0;
    for (String line : Files.readAllLines(dir.resolve("run.txt"))) {
      Matcher x = METRIC.matcher(line.trim());
      if (x.matches()) {
        m.put(x.group(1) + "/" + x.group(2), x.group(3).trim());
        if (x.group(2).startsWith("Return=") && !x.group(2).equals("Return=OK")
            && !x.group(1).startsWith("CLEANUP")) {
          errors += (long) Double.parseDouble(x.group(3).trim());
        }
      }
    }
    Properties stats = new Properties();
    Path statsFile = dir.resolve("run.stats");
    if (Files.exists(statsFile)) {
      try (var r = Files.newBufferedReader(statsFile)) {
        stats.load(r);
      }
    }
    double opsDone = num(stats.getProperty("ycsbOperations"));
    Warm.Figures warm = Warm.of(Files.exists(dir.resolve("run.err")) ? Files.readAllLines(dir.resolve("run.err"))
        : List.of());
    return new Row(scheme, w, variant, num(m.get("OVERALL/Throughput(ops/sec)")),
        num(m.get("READ/AverageLatency(us)")), num(m.get("READ/99thPercentileLatency(us)")),
        num(m.get("UPDATE/AverageLatency(us)")), num(m.get("UPDATE/99thPercentileLatency(us)")), errors,
        per(stats, "roundTrips", opsDone),
        per2(stats, "keysRead", "keysWritten", opsDone),
        per2(stats, "bytesRead", "bytesWritten", opsDone),
        (long) num(stats.getProperty("storageEntries")), (long) num(stats.getProperty("storageBytes")), loadSeconds,
        warm.throughput(), warm.latency());
  }

  private static double num(String s) {
    if (s == null || s.isBlank()) {
      return Double.NaN;
    }
    try {
      return Double.parseDouble(s.trim());
    } catch (NumberFormatException e) {
      return Double.NaN;
    }
  }

  private static double per(Properties stats, String key, double ops) {
    return ops > 0 ? num(stats.getProperty(key)) / ops : Double.NaN;
  }

  private static double per2(Properties stats, String a, String b, double ops) {
    return ops > 0 ? (num(stats.getProperty(a)) + num(stats.getProperty(b))) / ops : Double.NaN;
  }

  private void audit(String scheme, String w, Path dist) {
    Path dir = work.resolve(scheme + "-" + w);
    Path file = out.resolve("audit-" + scheme + "-" + w + ".txt");
    log.printf(Locale.ROOT, "bench: auditing %s workload %s -> %s%n", scheme, w.toUpperCase(Locale.ROOT), file);
    try (PrintStream ps = new PrintStream(Files.newOutputStream(file), true, StandardCharsets.UTF_8)) {
      ps.println("$ bin/audit --scheme " + scheme + " --transcript <run.trace> --distribution <distribution-" + w
          + ".tsv> --state-dir <state>");
      ps.println("# " + describeSetup() + ", workload " + w.toUpperCase(Locale.ROOT)
          + (scheme.equals("pancake") ? ", pancake warm-started with the true distribution" : ""));
      int rc = new CommandLine(new Audit(ps)).execute("--scheme", scheme, "--transcript",
          dir.resolve("run.trace").toString(), "--distribution", dist.toString(), "--state-dir",
          dir.resolve("state").toString());
      if (rc == 0 && scheme.equals("detworam") && hasWrites(dir.resolve("run.trace"))) {
        // what DetWoORAM hides is its write positions: audit the W lines too
        ps.println();
        ps.println("$ bin/audit --scheme " + scheme + " --kinds W --transcript <run.trace> --distribution <distribution-"
            + w + ".tsv> --state-dir <state>");
        rc = new CommandLine(new Audit(ps)).execute("--scheme", scheme, "--kinds", "W", "--transcript",
            dir.resolve("run.trace").toString(), "--distribution", dist.toString(), "--state-dir",
            dir.resolve("state").toString());
      }
      if (rc != 0) {
        log.println("bench: audit of " + scheme + " failed (exit " + rc + ")");
      }
    } catch (IOException e) {
      log.println("bench: cannot write " + file + ": " + e.getMessage());
    }
    try {
      log.print(Files.readString(file));
    } catch (IOException e) {
      // already reported
    }
  }

  /** Whether a transcript has a W line (a read-only workload has none). */
  private static boolean hasWrites(Path trace) throws IOException {
    try (Stream<String> lines = Files.lines(trace)) {
      return lines.anyMatch(l -> l.startsWith("W "));
    }
  }

  private void startRedis() {
    redis = new RedisServerFixture();
    redisPort = redis.port();
    redisHost = redis.host();
    log.println("bench: started redis-server on " + redis.address());
  }

  private void stopRedis() {
    if (redis != null) {
      redis.close();
      redis = null;
    }
  }

  public static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : (Iterable<Path>) s.sorted(java.util.Comparator.reverseOrder())::iterator) {
        Files.delete(p);
      }
    }
  }
}
