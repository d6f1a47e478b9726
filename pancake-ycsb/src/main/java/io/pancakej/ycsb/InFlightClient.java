package io.pancakej.ycsb;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.text.SimpleDateFormat;
import java.util.ArrayList;
import java.util.Date;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.Vector;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.Supplier;

import io.pancakej.KvClient;
import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.DBException;
import site.ycsb.Status;
import site.ycsb.Workload;
import site.ycsb.WorkloadException;
import site.ycsb.measurements.Measurements;
import site.ycsb.measurements.exporter.TextMeasurementsExporter;

/**
 * YCSB's workloads through {@link KvClient}'s asynchronous API ({@code bin/ycsb load|run <binding>
 * ... -inflight D}). Stock YCSB's client threads each wait for one request at a time; here each of
 * {@code -threads} threads sends D requests at once ({@code getAsync}, {@code updateAsync},
 * {@code putAsync}, {@code deleteAsync}) and waits for all of them before the next D, as an
 * application on the library's asynchronous API does with {@code getAll} (and as the C++
 * reference's benchmark client does with its batches of keys).
 *
 * <p>Keys, operations and values come from the same workload ({@code -p workload}, YCSB's
 * {@code CoreWorkload} by default) stock YCSB would run; the client is the binding's, opened the
 * same way (same defaults, same state). Each request's latency, from its submission to its
 * completion, goes to YCSB's {@link Measurements} and the summary is printed in YCSB's text format,
 * so whatever reads YCSB's output reads this. Differences from stock YCSB: a read's value is not
 * decoded (the workload never sees it, so {@code dataintegrity} is refused), {@code -target} is not
 * supported, and a scan is {@code NOT_IMPLEMENTED} as it is in every binding. A scheme whose
 * asynchronous calls run on the calling thread (every scheme but {@code pancake}) gets one request
 * at a time per thread whatever D is.
 */
public final class InFlightClient {
  /** The option naming the requests each thread keeps in flight. */
  public static final String IN_FLIGHT_OPTION = "-inflight";
  /** The most requests in flight a thread may keep. */
  public static final int MAX_IN_FLIGHT = 100_000;

  private InFlightClient() {}

  public static void main(String[] args) {
    int rc;
    try {
      rc = run(args, System.out, System.err);
    } catch (UsageException e) {
      System.err.println(e.getMessage());
      System.err.println("Usage: java " + InFlightClient.class.getName() + " -db <binding class> [-P file]... "
          + "[-p name=value]... [-threads n] " + IN_FLIGHT_OPTION + " d [-s] -load|-t");
      rc = 2;
    }
    System.exit(rc);
  }

  /** A command line this client cannot run; the message names the argument. */
  static final class UsageException extends IllegalArgumentException {
    UsageException(String message) {
      super(message);
    }
  }

  /** The parsed command line. */
  record Options(String dbClass, Properties props, int threads, int inFlight, boolean status, boolean load) {}

  /** Parses YCSB's Client options that this client supports, in YCSB's way ({@code -p} wins over {@code -P}). */
  static Options parse(String[] args) {
    Properties files = new Properties();
    Properties overrides = new Properties();
    String db = null;
    Integer threads = null;
    Integer inFlight = null;
    boolean status = false;
    Boolean load = null;
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      switch (a) {
        case "-load", "-t" -> load = a.equals("-load");
        case "-s" -> status = true;
        case "-db", "-P", "-p", "-threads", IN_FLIGHT_OPTION -> {
          if (i + 1 >= args.length) {
            throw new UsageException("Missing argument value for " + a);
          }
          String v = args[++i];
          switch (a) {
            case "-db" -> db = v;
            case "-P" -> {
              try (InputStream in = Files.newInputStream(Path.of(v))) {
                files.load(in);
              } catch (IOException e) {
                throw new UsageException("Unable to open the properties file " + v + ": " + e.getMessage());
              }
            }
            case "-p" -> {
              int eq = v.indexOf('=');
              if (eq <= 0) {
                throw new UsageException("-p takes name=value, not '" + v + "'");
              }
              overrides.setProperty(v.substring(0, eq), v.substring(eq + 1));
            }
            case "-threads" -> threads = positive(a, v, 100_000);
            default -> inFlight = positive(a, v, MAX_IN_FLIGHT);
          }
        }
        default -> throw new UsageException("Unknown option " + a
            + (a.equals("-target") ? " (a target rate is not supported with " + IN_FLIGHT_OPTION + ")" : ""));
      }
    }
    if (db == null) {
      throw new UsageException("Missing argument value for -db (a PANCAKE-J binding class)");
    }
    if (inFlight == null) {
      throw new UsageException("Missing " + IN_FLIGHT_OPTION + " (requests each thread keeps in flight)");
    }
    if (load == null) {
      throw new UsageException("Missing -load or -t");
    }
    Properties props = new Properties();
    props.putAll(files);
    props.putAll(overrides);
    if (threads == null) {
      threads = positive("threadcount", props.getProperty("threadcount", "1"), 100_000);
    }
    props.setProperty(KvClientBinding.DO_TRANSACTIONS_PROPERTY, Boolean.toString(!load));
    if (Boolean.parseBoolean(props.getProperty("dataintegrity", "false").trim())) {
      throw new UsageException("dataintegrity=true checks a read's value when the read returns; with "
          + IN_FLIGHT_OPTION + " it returns before the value arrives (run it without " + IN_FLIGHT_OPTION + ")");
    }
    return new Options(db, props, threads, inFlight, status, load);
  }

  private static int positive(String option, String value, int max) {
    try {
      int n = Integer.parseInt(value.trim());
      if (n >= 1 && n <= max) {
        return n;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new UsageException(option + " takes a whole number in [1, " + max + "], not '" + value + "'");
  }

  /** Runs the phase; returns 0, or 1 when the binding or the workload cannot start. */
  static int run(String[] args, PrintStream out, PrintStream err) {
    Options o = parse(args);
    long operations = count(o.load() ? loadCountProperty(o.props()) : "operationcount", o.props());
    Measurements.setProperties(o.props()); // for the workload's own measurements
    Measurements measurements = new Measurements(o.props()); // this run's alone (a JVM may run several)
    KvClientBinding binding;
    Workload workload;
    try {
      Object instance = Class.forName(o.dbClass()).getDeclaredConstructor().newInstance();
      if (!(instance instanceof KvClientBinding b)) {
        throw new UsageException(IN_FLIGHT_OPTION + " runs PANCAKE-J's bindings only, not " + o.dbClass());
      }
      binding = b;
      String workloadClass = o.props().getProperty("workload", "site.ycsb.workloads.CoreWorkload").trim();
      workload = (Workload) Class.forName(workloadClass).getDeclaredConstructor().newInstance();
      workload.init(o.props());
    } catch (ReflectiveOperationException | WorkloadException | ClassCastException e) {
      err.println("ycsb " + IN_FLIGHT_OPTION + ": cannot start: " + KvClientBinding.describe(e));
      return 1;
    }
    binding.setProperties(o.props());
    AtomicLong done = new AtomicLong();
    // the clock and the status lines start before the open, as YCSB's do (its client threads open
    // their DB after its clock started), so both launchers count the open in the run
    long start = System.nanoTime();
    Thread status = o.status() ? startStatus(done, start, o.props(), measurements, err) : null;
    try {
      binding.init();
    } catch (DBException e) {
      stop(status);
      err.println(e.getMessage());
      return 1;
    } catch (RuntimeException | Error e) {
      stop(status); // no status line keeps printing after a failed open
      throw e;
    }
    err.printf(Locale.ROOT, "[inflight] %s phase: %d operations, %d threads x %d requests in flight%n",
        o.load() ? "load" : "run", operations, o.threads(), o.inFlight());
    List<Thread> threads = new ArrayList<>();
    List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
    for (int t = 0; t < o.threads(); t++) {
      long share = operations / o.threads() + (t < operations % o.threads() ? 1 : 0);
      Object state;
      try {
        state = workload.initThread(o.props(), t, o.threads());
      } catch (WorkloadException e) {
        err.println("ycsb " + IN_FLIGHT_OPTION + ": cannot start thread " + t + ": " + KvClientBinding.describe(e));
        failures.add(e);
        workload.requestStop();
        break;
      }
      Driver driver = new Driver(binding, o.inFlight(), measurements, done);
      Thread thread = new Thread(() -> driver.drive(workload, state, share, o.load()), "inflight-" + t);
      thread.setUncaughtExceptionHandler((th, e) -> {
        failures.add(e);
        workload.requestStop();
      });
      threads.add(thread);
      thread.start();
    }
    for (Thread t : threads) {
      joinUninterruptibly(t);
    }
    long elapsedNs = System.nanoTime() - start;
    stop(status);
    try {
      binding.cleanup();
    } catch (DBException e) {
      err.println(e.getMessage());
    }
    try {
      workload.cleanup();
    } catch (WorkloadException e) {
      err.println("ycsb " + IN_FLIGHT_OPTION + ": the workload's cleanup failed: " + KvClientBinding.describe(e));
    }
    for (Throwable f : failures) {
      err.println("ycsb " + IN_FLIGHT_OPTION + ": a thread failed: " + KvClientBinding.describe(f));
    }
    double ms = elapsedNs / 1e6;
    out.printf(Locale.ROOT, "[OVERALL], RunTime(ms), %.0f%n", ms);
    out.printf(Locale.ROOT, "[OVERALL], Throughput(ops/sec), %s%n", done.get() * 1000.0 / ms);
    out.printf(Locale.ROOT, "[OVERALL], Threads, %d%n", o.threads());
    out.printf(Locale.ROOT, "[OVERALL], InFlightPerThread, %d%n", o.inFlight());
    try {
      TextMeasurementsExporter exporter = new TextMeasurementsExporter(out);
      measurements.exportMeasurements(exporter);
      exporter.close(); // flushes its writer; closing it does not close System.out
    } catch (IOException e) {
      err.println("ycsb " + IN_FLIGHT_OPTION + ": cannot print the measurements: " + e.getMessage());
      return 1;
    }
    return failures.isEmpty() ? 0 : 1;
  }

  /** What YCSB's Client loads: insertcount if given, else recordcount. */
  private static String loadCountProperty(Properties props) {
    String insert = props.getProperty("insertcount");
    return insert == null || insert.isBlank() ? "recordcount" : "insertcount";
  }

  private static long count(String property, Properties props) {
    String v = props.getProperty(property, "0").trim();
    try {
      long n = Long.parseLong(v);
      if (n >= 0) {
        return n;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new UsageException(property + " takes a whole number of at least 0, not '" + v + "'");
  }

  private static void joinUninterruptibly(Thread t) {
    boolean interrupted = false;
    while (true) {
      try {
        t.join();
        break;
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  /** Stops the status thread, if any, after its last line. */
  private static void stop(Thread status) {
    if (status != null) {
      status.interrupt();
      joinUninterruptibly(status);
    }
  }

  /**
   * YCSB's -s: completed operations, the rate of the last interval and, as YCSB's status thread
   * prints them, each operation's latencies over that interval, every status.interval seconds and
   * once more at the end.
   */
  private static Thread startStatus(AtomicLong done, long start, Properties props, Measurements measurements,
      PrintStream err) {
    long intervalMs = (long) (1000 * Double.parseDouble(props.getProperty("status.interval", "10").trim()));
    Thread t = new Thread(() -> {
      SimpleDateFormat format = new SimpleDateFormat("yyyy-MM-dd HH:mm:ss:SSS", Locale.ROOT);
      long lastOps = 0;
      long lastNs = start;
      boolean last = false;
      while (!last) {
        try {
          Thread.sleep(intervalMs);
        } catch (InterruptedException e) {
          last = true; // the run is over: one last line for the part since the previous one, as YCSB's
        }
        long now = System.nanoTime();
        long ops = done.get();
        err.printf(Locale.ROOT, "%s %d sec: %d operations; %.1f current ops/sec; %s%n", format.format(new Date()),
            (now - start) / 1_000_000_000L, ops, (ops - lastOps) * 1e9 / (now - lastNs), measurements.getSummary());
        lastOps = ops;
        lastNs = now;
      }
    }, "inflight-status");
    t.setDaemon(true);
    t.start();
    return t;
  }

  /**
   * One thread's requests: the workload calls this {@link DB} as it would YCSB's; each call submits
   * its request and returns, and after every D submissions the thread waits until all D have
   * completed (as {@code KvClient.getAll} does, and as the C++ reference's client does with a batch
   * of keys: one wake-up per D requests, not one per request). The workload therefore sees
   * {@link Status#OK} for every accepted request; the request's own status and latency are
   * recorded when it completes.
   */
  static final class Driver extends DB {
    private final KvClientBinding binding;
    private final int inFlight;
    private final Measurements measurements;
    private final AtomicLong done;
    /** This thread's requests submitted and not yet completed. */
    private final java.util.concurrent.atomic.AtomicInteger pending = new java.util.concurrent.atomic.AtomicInteger();
    private volatile Thread thread;
    private int submitted;

    Driver(KvClientBinding binding, int inFlight, Measurements measurements, AtomicLong done) {
      this.binding = binding;
      this.inFlight = inFlight;
      this.measurements = measurements;
      this.done = done;
    }

    void drive(Workload workload, Object state, long operations, boolean load) {
      thread = Thread.currentThread();
      for (long i = 0; i < operations && !workload.isStopRequested(); i++) {
        if (!(load ? workload.doInsert(this, state) : workload.doTransaction(this, state))) {
          break;
        }
      }
      awaitAll();
    }

    /** Waits until every request this thread submitted has completed. */
    private void awaitAll() {
      while (pending.get() > 0) {
        java.util.concurrent.locks.LockSupport.park(this);
      }
      submitted = 0;
    }

    private <T> Status submit(String op, Supplier<CompletableFuture<T>> call, Function<T, Status> status) {
      if (submitted == inFlight) {
        awaitAll();
      }
      submitted++;
      pending.incrementAndGet();
      long start = System.nanoTime();
      CompletableFuture<T> f;
      try {
        f = call.get();
      } catch (RuntimeException e) {
        Status s = binding.failure(op.toLowerCase(Locale.ROOT), e);
        complete(op, start, s);
        return s;
      }
      f.whenComplete((v, e) -> complete(op, start, e == null ? status.apply(v)
          : binding.failure(op.toLowerCase(Locale.ROOT), unwrap(e))));
      return Status.OK;
    }

    private static RuntimeException unwrap(Throwable e) {
      Throwable cause = e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
      return cause instanceof RuntimeException re ? re : new CompletionException(cause);
    }

    /** As YCSB's DBWrapper: the latency under op or op-FAILED, and the status under op. */
    private void complete(String op, long start, Status s) {
      try {
        measurements.measure(s.isOk() ? op : op + "-FAILED", (int) ((System.nanoTime() - start) / 1000));
        measurements.reportStatus(op, s);
        done.incrementAndGet();
      } finally {
        if (pending.decrementAndGet() == 0) {
          java.util.concurrent.locks.LockSupport.unpark(thread);
        }
      }
    }

    private static byte[] key(String key) {
      return KvClient.utf8(key);
    }

    @Override
    public Status read(String table, String key, Set<String> fields, Map<String, ByteIterator> result) {
      byte[] k = key(key);
      return submit("READ", () -> binding.client().getAsync(k), v -> v.isPresent() ? Status.OK : Status.NOT_FOUND);
    }

    @Override
    public Status update(String table, String key, Map<String, ByteIterator> values) {
      byte[] k = key(key);
      Map<String, byte[]> fields = RecordCodec.toBytes(values);
      return submit("UPDATE", () -> binding.client().updateAsync(k, stored -> RecordCodec.merge(stored, fields)),
          present -> present ? Status.OK : Status.NOT_FOUND);
    }

    @Override
    public Status insert(String table, String key, Map<String, ByteIterator> values) {
      byte[] k = key(key);
      byte[] v = RecordCodec.encode(values);
      return submit("INSERT", () -> binding.client().putAsync(k, v), x -> Status.OK);
    }

    @Override
    public Status delete(String table, String key) {
      byte[] k = key(key);
      return submit("DELETE", () -> binding.client().deleteAsync(k), present -> present ? Status.OK : Status.NOT_FOUND);
    }

    @Override
    public Status scan(String table, String startkey, int recordcount, Set<String> fields,
        Vector<HashMap<String, ByteIterator>> result) {
      measurements.reportStatus("SCAN", Status.NOT_IMPLEMENTED);
      return Status.NOT_IMPLEMENTED;
    }
  }
}
