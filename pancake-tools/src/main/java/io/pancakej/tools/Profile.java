package io.pancakej.tools;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

import io.pancakej.bench.ProfileSummary;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code bin/pancake profile} ({@code bin/profile}): a CPU profile of one YCSB phase with
 * async-profiler (CPU time of every thread, Java and native frames). Takes exactly
 * {@code ycsb}'s arguments; writes {@code data/profile/<binding>-<phase>-<date>.collapsed} (one
 * {@code frame;frame;... samples} line per stack, for flame-graph tools) and prints the share of
 * samples per category ({@link ProfileSummary}). The profiler library comes from Maven Central
 * ({@code tools.profiler:async-profiler}, Linux x86-64 only) on first use.
 */
@Command(name = "profile",
    customSynopsis = "pancake profile load|run <binding> [-cp path] [-jvm-args args] [YCSB options]",
    description = {"CPU profile of one YCSB phase (async-profiler), with ycsb's arguments.",
        "Writes data/profile/<binding>-<phase>-<date>.collapsed and prints the CPU share per category.",
        "Example: profile run pancake -P workloads/workloadc -p recordcount=100000 -threads 8"})
final class Profile implements Callable<Integer> {
  static final String VERSION = "3.0";

  @Parameters(paramLabel = "ARG", description = "load|run <binding> [YCSB args], as for ycsb")
  List<String> args = new ArrayList<>();

  @Spec
  CommandSpec spec;

  @Override
  public Integer call() throws IOException, InterruptedException {
    Ycsb.Invocation inv;
    try {
      inv = Ycsb.parse(args, System.getenv("JAVA_OPTS"));
    } catch (Ycsb.HelpRequested e) {
      spec.commandLine().usage(spec.commandLine().getOut());
      return 0;
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
    }
    if (inv.phase() == Ycsb.Phase.SHELL) {
      throw new CommandLine.ParameterException(spec.commandLine(), "profile takes load or run, not shell");
    }
    String platform = System.getProperty("os.name") + "-" + System.getProperty("os.arch");
    if (!platform.equals("Linux-amd64")) {
      System.err.println("profile: async-profiler from Maven Central is used for Linux x86-64 only (this is "
          + platform + ")");
      return 1;
    }
    Path root = Path.of(System.getProperty("pancake.root", ".")).toAbsolutePath().normalize();
    Path dir = root.resolve("data/profile");
    Path lib = library(root, dir);
    String binding = args.stream().filter(a -> !a.startsWith("-")).skip(1).findFirst().orElse("binding");
    String phase = inv.phase().name().toLowerCase(Locale.ROOT);
    Path out = dir.resolve(binding + "-" + phase + "-"
        + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")) + ".collapsed");
    System.err.println("profile: profiling ycsb " + String.join(" ", args));
    int rc = Ycsb.launch(inv, List.of("-agentpath:" + lib + "=start,event=itimer,interval=1ms,file=" + out
        + ",collapsed"), System.out, System.err);
    if (!Files.isRegularFile(out)) {
      System.err.println("profile: the profiler wrote no " + out);
      return rc != 0 ? rc : 1;
    }
    System.err.println("profile: stacks in " + out);
    ProfileSummary.main(new String[] {out.toString()});
    return rc;
  }

  /** The profiler library under {@code dir}, fetched with Maven on first use. */
  private static Path library(Path root, Path dir) throws IOException, InterruptedException {
    Path home = dir.resolve("async-profiler-" + VERSION);
    Path lib = home.resolve("linux-x64/libasyncProfiler.so");
    if (Files.isRegularFile(lib)) {
      return lib;
    }
    System.err.println("profile: fetching tools.profiler:async-profiler:" + VERSION + " from Maven Central...");
    Files.createDirectories(home);
    run(root, "mvn", "-q", "-B", "dependency:copy",
        "-Dartifact=tools.profiler:async-profiler:" + VERSION + ":jar:linux-x64", "-DoutputDirectory=" + home);
    run(home, Path.of(System.getProperty("java.home"), "bin", "jar").toString(), "xf",
        "async-profiler-" + VERSION + "-linux-x64.jar", "linux-x64/libasyncProfiler.so");
    if (!Files.isRegularFile(lib)) {
      throw new IllegalStateException(lib + " missing after the download");
    }
    return lib;
  }

  private static void run(Path dir, String... cmd) throws IOException, InterruptedException {
    Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectOutput(ProcessBuilder.Redirect.INHERIT)
        .redirectError(ProcessBuilder.Redirect.INHERIT).start();
    int rc = p.waitFor();
    if (rc != 0) {
      throw new IllegalStateException(String.join(" ", cmd) + " exited with " + rc);
    }
  }

  /** {@code profile-summary}: the CPU share per category of a collapsed-stacks file. */
  @Command(name = "profile-summary", mixinStandardHelpOptions = true,
      description = "The CPU share per category (JIT, GC, store, crypto, engine, YCSB, ...) of a profile.")
  static final class Summary implements Callable<Integer> {
    @Parameters(paramLabel = "FILE", description = "collapsed stacks (frame;frame;... samples per line)")
    Path file;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws IOException {
      if (!Files.isRegularFile(file)) {
        throw new CommandLine.ParameterException(spec.commandLine(), "no such file: " + file);
      }
      ProfileSummary.main(new String[] {file.toString()});
      return 0;
    }
  }
}
