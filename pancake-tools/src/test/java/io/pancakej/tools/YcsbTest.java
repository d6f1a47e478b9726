package io.pancakej.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.pancakej.ycsb.InsecureBinding;
import io.pancakej.ycsb.PancakeBinding;

/** {@code bin/ycsb}: stock bin/ycsb's command line, with exit statuses that say what happened. */
class YcsbTest {
  private static final Path WORKLOADS = Path.of(System.getProperty("user.dir")).resolveSibling("workloads");

  private static Ycsb.Invocation parse(String javaOpts, String... args) throws Ycsb.HelpRequested {
    return Ycsb.parse(List.of(args), javaOpts);
  }

  @Test
  void cpAndJvmArgs_anywhere_goToJava_notToYcsb() throws Exception {
    Ycsb.Invocation inv = parse("-Dfrom=env", "-jvm-args", "-Xmx1g", "load", "pancake", "-P", "w", "-cp", "/extra",
        "-threads", "4", "-jvm-args=-Dk='a b'", "-s");
    assertEquals(List.of("-Dfrom=env", "-Xmx1g", "-Dk=a b"), inv.jvmArgs());
    assertEquals("/extra", inv.classpathPrefix());
    assertEquals(List.of("-P", "w", "-threads", "4", "-s"), inv.ycsbArgs());
    assertEquals(List.of("java", Ycsb.Invocation.LOG_FORMAT, "-Dfrom=env", "-Xmx1g", "-Dk=a b", "-cp", "/extra" + File.pathSeparator + "CP",
        "site.ycsb.Client", "-db", PancakeBinding.class.getName(), "-P", "w", "-threads", "4", "-s", "-load"),
        inv.command("java", "CP"), "stock bin/ycsb's order: JVM args, classpath, main, -db, YCSB args, phase");
  }

  @Test
  void runAndShell_pickTheirMainAndFlag() throws Exception {
    List<String> run = parse(null, "run", "insecure", "-P", "w").command("java", "CP");
    assertEquals("-t", run.get(run.size() - 1));
    assertTrue(run.contains("site.ycsb.Client"));
    List<String> shell = parse(null, "shell", "insecure").command("java", "CP");
    assertEquals(List.of("java", Ycsb.Invocation.LOG_FORMAT, "-cp", "CP", "site.ycsb.CommandLine", "-db", InsecureBinding.class.getName()), shell);
    assertNull(parse("", "shell", "insecure").classpathPrefix());
  }

  @Test
  void inflight_runsTheAsynchronousClient_forLoadAndRunOnly() throws Exception {
    List<String> run = parse(null, "run", "pancake", "-P", "w", "-threads", "8", "-inflight", "50").command("java", "CP");
    assertTrue(run.contains(io.pancakej.ycsb.InFlightClient.class.getName()), run.toString());
    assertEquals(List.of("-P", "w", "-threads", "8", "-inflight", "50", "-t"), run.subList(run.size() - 7, run.size()));
    List<String> load = parse(null, "load", "pancake", "-inflight", "4").command("java", "CP");
    assertTrue(load.contains(io.pancakej.ycsb.InFlightClient.class.getName()) && load.get(load.size() - 1).equals("-load"));
    assertEquals("-inflight is for load and run, not shell",
        assertThrows(IllegalArgumentException.class, () -> parse(null, "shell", "pancake", "-inflight", "4")).getMessage());
    assertTrue(parse(null, "run", "pancake", "-p", "-inflight").command("java", "CP").contains("site.ycsb.Client"),
        "-inflight as an option's value is not the option");
  }

  @Test
  void help_anywhere_butNotAsAnOptionsValue() {
    assertThrows(Ycsb.HelpRequested.class, () -> parse(null, "-h"));
    assertThrows(Ycsb.HelpRequested.class, () -> parse(null, "load", "insecure", "--help"));
    assertDoesNotThrowHelp("load", "insecure", "-l", "-h");
  }

  private static void assertDoesNotThrowHelp(String... args) {
    try {
      assertEquals(List.of("-l", "-h"), parse(null, args).ycsbArgs());
    } catch (Ycsb.HelpRequested e) {
      throw new AssertionError("-h as the value of -l is a label, not a help request");
    }
  }

  @Test
  void usageErrors_nameWhatIsWrong() {
    assertEquals("unknown binding 'nosuch' (expected insecure, encrypted, pancake, pathoram or detworam)",
        assertThrows(IllegalArgumentException.class, () -> parse(null, "load", "nosuch")).getMessage());
    assertEquals("unknown command 'frobnicate' (expected load, run or shell)",
        assertThrows(IllegalArgumentException.class, () -> parse(null, "frobnicate", "insecure")).getMessage());
    assertTrue(assertThrows(IllegalArgumentException.class, () -> parse(null)).getMessage().contains("missing command"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> parse(null, "load")).getMessage()
        .contains("missing binding"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> parse(null, "load", "insecure", "-cp"))
        .getMessage().contains("-cp needs a value"));
  }

  @Test
  void cli_usageErrorsExitTwo_helpExitsZero() {
    Cli.Run unknown = Cli.run("ycsb", "load", "nosuch", "-P", "workloads/workloada");
    assertEquals(2, unknown.exitCode(), unknown.toString());
    assertTrue(unknown.err().contains("unknown binding 'nosuch'"), unknown.toString());
    assertTrue(unknown.err().contains("Usage: pancake ycsb load|run|shell <binding>"), unknown.toString());
    assertEquals(2, Cli.run("ycsb").exitCode());
    assertEquals(2, Cli.run("ycsb", "frobnicate", "insecure").exitCode());
    Cli.Run help = Cli.run("ycsb", "--help");
    assertEquals(0, help.exitCode(), help.toString());
    assertTrue(help.out().contains("Bindings: insecure, encrypted, pancake, pathoram or detworam"), help.toString());
    assertEquals(0, Cli.run("ycsb", "load", "pancake", "-h").exitCode());
  }

  @Test
  void outcome_failedInsertsAndClientUsage_areNotSuccess() {
    PrintStream sink = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
    Ycsb.Outcome clean = outcome("[OVERALL], Throughput(ops/sec), 10.0", "[INSERT], Return=OK, 20");
    assertEquals(0, clean.exitStatus(0, sink));
    assertEquals(3, clean.exitStatus(3, sink), "the child's own failure wins");
    assertEquals(1, outcome("[INSERT], Return=BAD_REQUEST, 2", "[INSERT], Return=OK, 18").exitStatus(0, sink));
    assertEquals(1, outcome("Error inserting, not retrying any more. number of attempts: 1").exitStatus(0, sink));
    assertEquals(2, outcome("Unknown option -bogus", "Usage: java site.ycsb.Client [options]").exitStatus(0, sink));
    assertEquals(2, outcome("Missing property: workload").exitStatus(0, sink));
    assertEquals(1, outcome("Unable to open the properties file x").exitStatus(0, sink));
    assertEquals(0, outcome("[READ], Return=NOT_FOUND, 3").exitStatus(0, sink), "only inserts fail a phase");
  }

  private static Ycsb.Outcome outcome(String... lines) {
    Ycsb.Outcome o = new Ycsb.Outcome();
    for (String l : lines) {
      o.scan(l);
    }
    return o;
  }

  private record Launched(int exitCode, String out, String err) {
    @Override
    public String toString() {
      return "exit " + exitCode + "\n--- out\n" + out + "\n--- err\n" + err;
    }
  }

  private static Launched launch(String... args) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    List<String> all = new ArrayList<>(List.of(args));
    all.addAll(List.of("-jvm-args", "-Xmx128m -XX:TieredStopAtLevel=1 -XX:+UseSerialGC"));
    int rc = Ycsb.launch(Ycsb.parse(all, null), List.of(), new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
    return new Launched(rc, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  @Test
  void missingWorkloadFile_exitsOne_beforeStartingJava(@TempDir Path dir) throws Exception {
    Launched r = launch("load", "insecure", "-P", dir.resolve("nosuch").toString());
    assertEquals(1, r.exitCode(), r.toString());
    assertTrue(r.err().contains("cannot read the workload file " + dir.resolve("nosuch")), r.toString());
    assertFalse(r.err().contains("site.ycsb.Client"), "no JVM started\n" + r);
  }

  @Test
  void load_echoesTheJavaCommand_addsCpToTheClasspath_andSucceeds(@TempDir Path dir) throws Exception {
    Launched r = launch("load", "insecure", "-P", WORKLOADS.resolve("workloada").toString(), "-cp",
        dir.resolve("extra").toString(), "-p", "recordcount=20", "-p", "rocksdb.dir=" + dir.resolve("rocksdb"),
        "-threads", "2");
    assertEquals(0, r.exitCode(), r.toString());
    String echo = r.err().lines().findFirst().orElseThrow();
    assertTrue(echo.contains(" -cp " + dir.resolve("extra") + File.pathSeparator), echo);
    assertTrue(echo.contains(" -Xmx128m "), echo);
    assertTrue(echo.contains(" site.ycsb.Client -db " + InsecureBinding.class.getName() + " -P "), echo);
    assertTrue(echo.endsWith(" -threads 2 -load"), echo);
    assertTrue(r.out().contains("[INSERT], Return=OK, 20"), r.toString());
  }

  @Test
  void failedInserts_exitOne(@TempDir Path dir) throws Exception {
    Launched r = launch("load", "insecure", "-P", WORKLOADS.resolve("workloada").toString(), "-p", "recordcount=20",
        "-p", "pancake.value.size=500", "-p", "rocksdb.dir=" + dir.resolve("rocksdb"), "-threads", "2");
    assertEquals(1, r.exitCode(), r.toString());
    assertTrue(r.err().contains("insert(s) failed"), r.toString());
  }

  @Test
  void optionsYcsbRejects_exitTwo(@TempDir Path dir) throws Exception {
    Launched r = launch("run", "insecure", "-P", WORKLOADS.resolve("workloada").toString(), "-bogus");
    assertEquals(2, r.exitCode(), r.toString());
    assertTrue(r.out().contains("Usage: java site.ycsb.Client"), r.toString());
  }

  @Test
  void shell_runsYcsbsCommandLine(@TempDir Path dir) throws Exception {
    Path script = Files.writeString(dir.resolve("in.txt"), "quit\n");
    ProcessBuilder pb = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", System.getProperty("java.class.path"), Pancake.class.getName(), "ycsb", "shell", "insecure",
        "-p", "rocksdb.dir=" + dir.resolve("rocksdb"))
        .redirectInput(script.toFile()).redirectErrorStream(true);
    Process p = pb.start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, p.waitFor(), out);
    assertTrue(out.contains("site.ycsb.CommandLine -db " + InsecureBinding.class.getName()), out);
    assertTrue(out.contains("Connected."), out);
  }
}
