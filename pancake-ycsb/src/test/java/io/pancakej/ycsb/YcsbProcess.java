package io.pancakej.ycsb;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Runs stock YCSB ({@code site.ycsb.Client}) in a child JVM on the test classpath, the way
 * {@code bin/ycsb} does, so that load and run are separate processes as they are for users.
 */
public final class YcsbProcess {
  /** The workloads directory at the project root. */
  public static final Path WORKLOADS = Path.of(System.getProperty("user.dir")).resolveSibling("workloads");
  private static final Pattern RETURN = Pattern.compile("^\\[(\\w+)\\], Return=(\\w+), (\\d+)$", Pattern.MULTILINE);

  /** What a finished YCSB process printed. */
  public record Result(int exitCode, String stdout, String stderr) {
    /** Counts per "OPERATION Return=STATUS" line, e.g. {@code READ=OK -> 1000}. */
    public Map<String, Long> returns() {
      Map<String, Long> out = new java.util.TreeMap<>();
      Matcher m = RETURN.matcher(stdout);
      while (m.find()) {
        out.put(m.group(1) + "=" + m.group(2), Long.parseLong(m.group(3)));
      }
      return out;
    }

    @Override
    public String toString() {
      return "exit " + exitCode + "\n--- stdout\n" + tail(stdout) + "\n--- stderr\n" + tail(stderr);
    }

    private static String tail(String s) {
      return s.length() <= 4000 ? s : "..." + s.substring(s.length() - 4000);
    }
  }

  private YcsbProcess() {}

  /**
   * Runs one YCSB phase ({@code load} or {@code run}) of {@code binding} in {@code workDir} with
   * the workload file and {@code -p} properties given.
   */
  public static Result run(Path workDir, String phase, String bindingClass, String workload, int threads,
      Map<String, String> props) throws IOException, InterruptedException {
    return run(workDir, phase, bindingClass, workload, threads, props, List.of());
  }

  /** As above, with extra YCSB arguments (e.g. {@code -s}, {@code -target 200}). */
  public static Result run(Path workDir, String phase, String bindingClass, String workload, int threads,
      Map<String, String> props, List<String> extraArgs) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("-Xmx256m");
    cmd.add("-XX:+UseSerialGC");
    cmd.add("-XX:TieredStopAtLevel=1");
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add("site.ycsb.Client");
    cmd.add(phase.equals("load") ? "-load" : "-t");
    cmd.add("-db");
    cmd.add(bindingClass);
    cmd.add("-P");
    cmd.add(WORKLOADS.resolve(workload).toString());
    cmd.add("-threads");
    cmd.add(Integer.toString(threads));
    cmd.addAll(extraArgs);
    for (Map.Entry<String, String> e : props.entrySet()) {
      cmd.add("-p");
      cmd.add(e.getKey() + "=" + e.getValue());
    }
    Files.createDirectories(workDir);
    Path out = Files.createTempFile(workDir, "ycsb-" + phase, ".out");
    Path err = Files.createTempFile(workDir, "ycsb-" + phase, ".err");
    Process p = new ProcessBuilder(cmd).directory(workDir.toFile())
        .redirectOutput(out.toFile()).redirectError(err.toFile()).start();
    if (!p.waitFor(120, TimeUnit.SECONDS)) {
      p.destroyForcibly().waitFor();
      throw new AssertionError("YCSB " + phase + " did not finish in 120 s:\n"
          + Files.readString(out, StandardCharsets.UTF_8) + Files.readString(err, StandardCharsets.UTF_8));
    }
    return new Result(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
  }
}
