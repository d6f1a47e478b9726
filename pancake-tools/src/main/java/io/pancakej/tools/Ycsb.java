package io.pancakej.tools;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.pancakej.bench.RocksDbLibrary;
import io.pancakej.bench.ShellWords;
import io.pancakej.ycsb.Bindings;
import io.pancakej.ycsb.InFlightClient;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code bin/pancake ycsb} ({@code bin/ycsb}): stock YCSB against a PANCAKE-J binding, behaving as
 * stock YCSB 0.17's {@code bin/ycsb} does. {@code load}/{@code run} start
 * {@code java [jvm args] -cp <classpath> site.ycsb.Client -db <binding class> [YCSB args] -load|-t}
 * ({@code shell} starts {@code site.ycsb.CommandLine}), after echoing that command line on stderr;
 * {@code -cp} is prepended to the classpath and {@code -jvm-args} (anywhere on the line, and
 * {@code JAVA_OPTS}) go to the JVM, everything else to YCSB.
 *
 * <p>Unlike stock YCSB, whose {@code Client} exits 0 whatever happened, the exit status says
 * whether the phase did what was asked: 1 for a {@code -P} file that cannot be read (checked
 * before starting) and for failed inserts, 2 for arguments {@code Client} rejects with its usage,
 * and the child's own status when it fails.
 */
@Command(name = "ycsb",
    customSynopsis = "pancake ycsb load|run|shell <binding> [-cp path] [-jvm-args args] [YCSB options]",
    description = "Stock YCSB (site.ycsb.Client) against a PANCAKE-J binding, as stock bin/ycsb runs it.")
final class Ycsb implements Callable<Integer> {
  /** The commands, as in stock bin/ycsb. */
  enum Phase {
    LOAD("site.ycsb.Client", "-load"), RUN("site.ycsb.Client", "-t"), SHELL("site.ycsb.CommandLine", null),
    /** load and run with {@code -inflight D}: the workload through the asynchronous API. */
    LOAD_IN_FLIGHT(InFlightClient.class.getName(), "-load"), RUN_IN_FLIGHT(InFlightClient.class.getName(), "-t");

    final String main;
    final String flag;

    Phase(String main, String flag) {
      this.main = main;
      this.flag = flag;
    }
  }

  /** YCSB options that take a value: a value is never read as -h. */
  private static final Set<String> VALUED = Set.of("-P", "-p", "-threads", "-target", "-l", "-db",
      InFlightClient.IN_FLIGHT_OPTION);

  @Parameters(paramLabel = "ARG", description = "load|run|shell <binding> [YCSB args], as for stock bin/ycsb")
  List<String> args = new ArrayList<>();

  @Spec
  CommandSpec spec;

  static String footer(String bindings) {
    return String.format("%nCommands:%n"
        + "    load           Execute the load phase (-load)%n"
        + "    run            Execute the transaction phase (-t)%n"
        + "    shell          Interactive mode (site.ycsb.CommandLine)%n"
        + "%nBindings: %s%n"
        + "%nOptions (as stock YCSB's):%n"
        + "    -P file        Specify workload file%n"
        + "    -p key=value   Override workload property%n"
        + "    -s             Print status to stderr%n"
        + "    -target n      Target ops/sec (default: unthrottled)%n"
        + "    -threads n     Number of client threads (default: 1)%n"
        + "    -inflight d    Each thread sends d requests at once through the asynchronous API%n"
        + "                   and waits for all of them (not stock YCSB: io.pancakej.ycsb.InFlightClient)%n"
        + "    -cp path       Additional Java classpath entries (prepended)%n"
        + "    -jvm-args args Additional arguments to the JVM (JAVA_OPTS too)%n"
        + "%nExit status: that of YCSB; 1 also for an unreadable -P file or failed inserts,"
        + " 2 for usage errors.%n"
        + "Example: ycsb load pancake -P workloads/workloada -threads 4 -s%n", bindings);
  }

  /** One parsed command line. */
  record Invocation(Phase phase, String bindingClass, String classpathPrefix, List<String> jvmArgs,
      List<String> ycsbArgs) {
    /** The java command line, in stock bin/ycsb's order. */
    static final String LOG_FORMAT = "-Djava.util.logging.SimpleFormatter.format=[%4$s] %5$s%6$s%n";

    List<String> command(String java, String classpath) {
      List<String> cmd = new ArrayList<>();
      cmd.add(java);
      // the library logs through System.Logger (java.util.logging here): its INFO lines (progress of
      // long work) show on stderr one line each; -jvm-args or JAVA_OPTS given after it win
      cmd.add(LOG_FORMAT);
      cmd.addAll(jvmArgs);
      cmd.add("-cp");
      cmd.add(classpathPrefix == null ? classpath : classpathPrefix + File.pathSeparator + classpath);
      cmd.add(phase.main);
      cmd.add("-db");
      cmd.add(bindingClass);
      cmd.addAll(ycsbArgs);
      if (phase.flag != null) {
        cmd.add(phase.flag);
      }
      return cmd;
    }

    /** The {@code -P} files named. */
    List<String> workloadFiles() {
      List<String> files = new ArrayList<>();
      for (int i = 0; i + 1 < ycsbArgs.size(); i++) {
        if (ycsbArgs.get(i).equals("-P")) {
          files.add(ycsbArgs.get(++i));
        }
      }
      return files;
    }
  }

  /** Thrown for {@code -h}/{@code --help}. */
  static final class HelpRequested extends Exception {
    HelpRequested() {
      super("help", null, false, false);
    }
  }

  /**
   * Parses {@code load|run|shell <binding> [args]} with {@code -cp} and {@code -jvm-args}
   * anywhere, as stock bin/ycsb's argparse does; {@code javaOpts} (JAVA_OPTS) come first.
   *
   * @throws IllegalArgumentException for a usage error
   */
  static Invocation parse(List<String> args, String javaOpts) throws HelpRequested {
    List<String> jvm = new ArrayList<>(ShellWords.split(javaOpts == null ? "" : javaOpts));
    List<String> positional = new ArrayList<>();
    List<String> rest = new ArrayList<>();
    String cp = null;
    boolean value = false;
    boolean inFlight = false;
    for (int i = 0; i < args.size(); i++) {
      String a = args.get(i);
      if (value) {
        rest.add(a);
        value = false;
      } else if (a.equals("-h") || a.equals("--help")) {
        throw new HelpRequested();
      } else if (a.equals("-cp") || a.equals("-jvm-args")) {
        if (i + 1 >= args.size()) {
          throw new IllegalArgumentException(a + " needs a value");
        }
        String v = args.get(++i);
        if (a.equals("-cp")) {
          cp = cp == null ? v : cp + File.pathSeparator + v;
        } else {
          jvm.addAll(ShellWords.split(v));
        }
      } else if (a.startsWith("-jvm-args=")) {
        jvm.addAll(ShellWords.split(a.substring("-jvm-args=".length())));
      } else if (a.startsWith("-cp=")) {
        String v = a.substring("-cp=".length());
        cp = cp == null ? v : cp + File.pathSeparator + v;
      } else if (positional.size() < 2 && !a.startsWith("-")) {
        positional.add(a);
      } else {
        rest.add(a);
        value = VALUED.contains(a);
        inFlight |= a.equals(InFlightClient.IN_FLIGHT_OPTION);
      }
    }
    if (positional.isEmpty()) {
      throw new IllegalArgumentException("missing command (load, run or shell)");
    }
    Phase phase = switch (positional.get(0)) {
      case "load" -> Phase.LOAD;
      case "run" -> Phase.RUN;
      case "shell" -> Phase.SHELL;
      default -> throw new IllegalArgumentException("unknown command '" + positional.get(0)
          + "' (expected load, run or shell)");
    };
    if (positional.size() < 2) {
      throw new IllegalArgumentException("missing binding (" + Bindings.names() + ")");
    }
    if (inFlight) {
      phase = switch (phase) {
        case LOAD -> Phase.LOAD_IN_FLIGHT;
        case RUN -> Phase.RUN_IN_FLIGHT;
        default -> throw new IllegalArgumentException(InFlightClient.IN_FLIGHT_OPTION + " is for load and run, not "
            + positional.get(0));
      };
    }
    return new Invocation(phase, Bindings.className(positional.get(1)), cp, jvm, rest);
  }

  @Override
  public Integer call() throws IOException, InterruptedException {
    Invocation inv;
    try {
      inv = parse(args, System.getenv("JAVA_OPTS"));
    } catch (HelpRequested e) {
      spec.commandLine().usage(spec.commandLine().getOut());
      return 0;
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
    }
    return launch(inv, List.of(), System.out, System.err);
  }

  /**
   * Echoes and runs {@code inv} with {@code extraJvmArgs} after its own, copying the child's
   * output to {@code out} and {@code err}; returns the exit status described in the class comment.
   */
  static int launch(Invocation inv, List<String> extraJvmArgs, PrintStream out, PrintStream err)
      throws IOException, InterruptedException {
    for (String f : inv.workloadFiles()) {
      Path p = Path.of(f);
      if (!Files.isRegularFile(p) || !Files.isReadable(p)) {
        err.println("ycsb: cannot read the workload file " + f + " (-P)"
            + (Files.exists(p) ? "" : ": no such file, relative to " + Path.of("").toAbsolutePath()));
        return 1;
      }
    }
    List<String> given = new ArrayList<>(inv.jvmArgs());
    given.addAll(extraJvmArgs);
    List<String> jvm = RocksDbLibrary.withLibrary(given);
    Invocation withExtra = new Invocation(inv.phase(), inv.bindingClass(), inv.classpathPrefix(), jvm, inv.ycsbArgs());
    List<String> cmd = withExtra.command(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        System.getProperty("java.class.path"));
    err.println(String.join(" ", cmd));
    err.flush();
    ProcessBuilder pb = new ProcessBuilder(cmd);
    if (inv.phase() == Phase.SHELL) {
      pb.inheritIO();
    } else {
      pb.redirectInput(ProcessBuilder.Redirect.INHERIT);
    }
    Process p = pb.start();
    Thread killer = new Thread(p::destroy, "ycsb-child-killer");
    Runtime.getRuntime().addShutdownHook(killer);
    try {
      if (inv.phase() == Phase.SHELL) {
        return p.waitFor();
      }
      Outcome outcome = new Outcome();
      Thread errPump = new Thread(() -> outcome.copy(p.getErrorStream(), err), "ycsb-stderr");
      errPump.start();
      outcome.copy(p.getInputStream(), out);
      errPump.join();
      int rc = p.waitFor();
      out.flush();
      return outcome.exitStatus(rc, err);
    } finally {
      try {
        Runtime.getRuntime().removeShutdownHook(killer);
      } catch (IllegalStateException e) {
        // shutting down: the hook stops the child
      }
    }
  }

  /** What the child's output says about how it went. */
  static final class Outcome {
    private static final Pattern INSERT_RETURN = Pattern.compile("^\\[INSERT\\], Return=(\\w+), (\\d+)\\s*$");
    final AtomicLong failedInserts = new AtomicLong();
    final AtomicBoolean insertGaveUp = new AtomicBoolean();
    final AtomicBoolean usage = new AtomicBoolean();
    final AtomicBoolean unreadableProperties = new AtomicBoolean();

    /** Reads one output line. */
    void scan(String line) {
      Matcher m = INSERT_RETURN.matcher(line);
      if (m.matches() && !m.group(1).equals("OK")) {
        failedInserts.addAndGet(Long.parseLong(m.group(2)));
      } else if (line.startsWith("Error inserting, not retrying")) {
        insertGaveUp.set(true);
      } else if (line.startsWith("Usage: java site.ycsb.Client") || line.startsWith("Unknown option ")
          || line.startsWith("Missing argument value for ") || line.startsWith("Missing property: ")) {
        usage.set(true);
      } else if (line.startsWith("Unable to open the properties file")) {
        unreadableProperties.set(true);
      }
    }

    void copy(InputStream in, PrintStream to) {
      try (BufferedReader r = new BufferedReader(new InputStreamReader(in))) {
        String line;
        while ((line = r.readLine()) != null) {
          to.println(line);
          scan(line);
        }
        to.flush();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    /** The exit status for a child that exited with {@code rc}, saying why on {@code err}. */
    int exitStatus(int rc, PrintStream err) {
      if (rc != 0) {
        return rc;
      }
      if (usage.get()) {
        err.println("ycsb: YCSB rejected the arguments (its usage is above)");
        return 2;
      }
      if (unreadableProperties.get()) {
        err.println("ycsb: YCSB could not read a properties file");
        return 1;
      }
      if (failedInserts.get() > 0 || insertGaveUp.get()) {
        err.println("ycsb: " + (failedInserts.get() > 0 ? failedInserts.get() + " insert(s) failed"
            : "an insert failed") + "; the load is incomplete");
        return 1;
      }
      return 0;
    }
  }
}
