package io.pancakej.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import picocli.CommandLine;

/** The command surface of {@code bin/pancake}: help, exit codes, shared flags, scratch defaults. */
class PancakeCommandTest {
  static final List<String> SUBCOMMANDS = List.of("ycsb", "bench", "compare", "bench-dynamic", "audit",
      "distribution", "store-bound", "redis", "profile", "profile-summary", "bench-proxy");

  @Test
  void help_exitsZero_andListsEverySubcommand() {
    Cli.Run r = Cli.run("--help");
    assertEquals(0, r.exitCode(), r.toString());
    for (String s : SUBCOMMANDS) {
      assertTrue(r.out().contains("\n  " + s + " "), s + " listed\n" + r);
    }
  }

  @Test
  void everySubcommandsHelp_exitsZero_withItsUsage() {
    for (String s : SUBCOMMANDS) {
      Cli.Run r = Cli.run(s, "--help");
      assertEquals(0, r.exitCode(), s + "\n" + r);
      assertTrue(r.out().contains("Usage: pancake " + s), s + "\n" + r);
    }
    Cli.Run flush = Cli.run("redis", "flush", "--help");
    assertEquals(0, flush.exitCode(), flush.toString());
    assertTrue(flush.out().contains("--redis-port"), flush.toString());
  }

  @Test
  void usageErrors_exitTwo_withAMessage() {
    assertEquals(2, Cli.run().exitCode(), "no subcommand");
    Cli.Run unknown = Cli.run("frobnicate");
    assertEquals(2, unknown.exitCode(), unknown.toString());
    assertTrue(unknown.err().contains("frobnicate"), unknown.toString());
    Cli.Run badOption = Cli.run("bench", "--no-such-option");
    assertEquals(2, badOption.exitCode(), badOption.toString());
    assertTrue(badOption.err().contains("--no-such-option"), badOption.toString());
    Cli.Run badScheme = Cli.run("bench", "--schemes", "insecure,nosuch");
    assertEquals(2, badScheme.exitCode(), badScheme.toString());
    assertTrue(badScheme.err().contains("unknown scheme nosuch"), badScheme.toString());
    Cli.Run badStore = Cli.run("compare", "--store", "cassandra");
    assertEquals(2, badStore.exitCode(), badStore.toString());
    assertTrue(badStore.err().contains("--store must be rocksdb or redis"), badStore.toString());
    Cli.Run missing = Cli.run("redis", "flush");
    assertEquals(2, missing.exitCode(), missing.toString());
    assertTrue(missing.err().contains("--redis-port"), missing.toString());
  }

  @Test
  void failures_exitOne_withOneLineSayingWhy(@TempDir Path dir) {
    Cli.Run r = Cli.run("audit", "--scheme", "insecure", "--transcript", dir.resolve("none.trace").toString(),
        "--distribution", dir.resolve("none.tsv").toString());
    assertEquals(1, r.exitCode(), r.toString());
    assertTrue(r.err().startsWith("pancake audit: "), r.toString());
    assertTrue(r.err().contains("no such file: " + dir.resolve("none.tsv")), r.toString());
    assertFalse(r.err().contains("\tat "), "no stack trace\n" + r);
  }

  @Test
  void sharedFlags_haveTheSameNamesAndListSyntax_everywhere() {
    CommandLine cl = Pancake.commandLine();
    for (String s : List.of("bench", "compare")) {
      var spec = cl.getSubcommands().get(s).getCommandSpec();
      for (String o : List.of("--store", "--redis-host", "--redis-port", "--records", "--ops", "--threads",
          "--schemes", "--workloads", "--out", "-p")) {
        assertTrue(spec.findOption(o) != null, s + " has " + o);
      }
      assertEquals(",", spec.findOption("--schemes").splitRegex(), s + " --schemes is comma-separated");
      assertEquals(",", spec.findOption("--workloads").splitRegex(), s + " --workloads is comma-separated");
    }
    var storeBound = cl.getSubcommands().get("store-bound").getCommandSpec();
    for (String o : List.of("--store", "--records", "--threads")) {
      assertTrue(storeBound.findOption(o) != null, "store-bound has " + o);
    }
    var flush = cl.getSubcommands().get("redis").getSubcommands().get("flush").getCommandSpec();
    assertTrue(flush.findOption("--redis-port") != null && flush.findOption("--redis-host") != null);
  }

  /** Every subcommand, nested ones included (redis flush). */
  private static List<CommandLine> allSubcommands() {
    List<CommandLine> out = new java.util.ArrayList<>();
    java.util.ArrayDeque<CommandLine> todo = new java.util.ArrayDeque<>(Pancake.commandLine().getSubcommands().values());
    while (!todo.isEmpty()) {
      CommandLine c = todo.poll();
      out.add(c);
      todo.addAll(c.getSubcommands().values());
    }
    return out;
  }

  @Test
  void theOutputDirectory_isMinusOOrOut_whereverOneExists() {
    int withOut = 0;
    for (CommandLine c : allSubcommands()) {
      var spec = c.getCommandSpec();
      var out = spec.findOption("--out");
      var o = spec.findOption("-o");
      assertTrue(out == o, spec.qualifiedName() + ": -o and --out are the same option, or neither exists");
      withOut += out != null ? 1 : 0;
    }
    assertTrue(withOut >= 4, "bench, compare, bench-dynamic and distribution write to --out");
  }

  @Test
  void everyOptionShown_hasADescription() {
    for (CommandLine c : allSubcommands()) {
      for (var option : c.getCommandSpec().options()) {
        if (!option.hidden()) {
          assertTrue(option.description().length > 0 && !String.join("", option.description()).isBlank(),
              c.getCommandSpec().qualifiedName() + " " + option.longestName() + " has a description");
        }
      }
    }
  }

  @Test
  void audit_selectsKindsOfOperationsWithKinds_whileOpsIsACountElsewhere(@TempDir Path dir) {
    CommandLine cl = Pancake.commandLine();
    var audit = cl.getSubcommands().get("audit").getCommandSpec();
    assertTrue(audit.findOption("--kinds") != null, "audit --kinds");
    assertTrue(audit.findOption("--ops").hidden(), "audit's old --ops is hidden");
    assertTrue(Cli.run("audit", "--help").out().contains("--kinds=R|W|RW"));
    assertFalse(Cli.run("audit", "--help").out().contains("--ops"), "--ops is not offered any more");
    for (String s : List.of("bench", "compare")) {
      var ops = cl.getSubcommands().get(s).getCommandSpec().findOption("--ops");
      assertEquals(long.class, ops.type(), s + " --ops is an operation count");
    }

    Cli.Run bad = Cli.run("audit", "--scheme", "insecure", "--transcript", "t", "--distribution", "d", "--kinds", "X");
    assertEquals(2, bad.exitCode(), bad.toString());
    assertTrue(bad.err().contains("--kinds must be R, W or RW, got 'X'"), bad.toString());
    // the old spelling still parses (recorded command lines in docs/results use it), saying what to use instead
    Cli.Run old = Cli.run("audit", "--scheme", "insecure", "--transcript", dir.resolve("t").toString(),
        "--distribution", dir.resolve("none.tsv").toString(), "--ops", "W");
    assertEquals(1, old.exitCode(), "parsed, then fails on the missing file\n" + old);
    assertTrue(old.err().contains("--ops is deprecated here, use --kinds W"), old.toString());
  }

  @Test
  void outputDefaults_areScratchDirectories_neverDocsResults() {
    CommandLine cl = Pancake.commandLine();
    for (String s : List.of("bench", "compare", "bench-dynamic")) {
      String out = cl.getSubcommands().get(s).getCommandSpec().findOption("--out").defaultValue();
      assertTrue(out.startsWith("target/"), s + " --out defaults to " + out);
    }
  }

  @Test
  void compare_printsOneTable_andWritesToTheScratchDirectory_whenNoOutIsGiven(@TempDir Path root) throws Exception {
    Cli.Run r = runInProject(root, "compare", "--schemes", "insecure", "--workloads", "c", "--records", "20", "--ops",
        "40", "--threads", "1", "--work", root.resolve("work").toString());
    assertEquals(0, r.exitCode(), r.toString());
    assertTrue(Files.isRegularFile(root.resolve("target/bench/results.csv")), r.toString());
    assertTrue(Files.isRegularFile(root.resolve("target/bench/results.md")), r.toString());
    assertFalse(Files.exists(root.resolve("docs")), "nothing under docs/");
    assertTrue(r.out().contains("x insec."), r.toString());
    assertTrue(r.out().lines().anyMatch(l -> l.startsWith("insecure   c ") && l.contains(" 1.000 ")), r.toString());
    assertTrue(r.err().contains("bench: [1/1] workload C, insecure: load 20 records..."), "progress\n" + r);
  }

  @Test
  void bench_withInFlight_runsThePancakeRunThroughTheAsynchronousApi_andKeepsEachRepetitionsOutputs(@TempDir Path root)
      throws Exception {
    Path work = root.resolve("work");
    Cli.Run r = runInProject(root, "bench", "--schemes", "pancake", "--workloads", "c", "--records", "20", "--ops", "60",
        "--threads", "1", "--inflight", "2", "--repeat", "2", "--work", work.toString());
    assertEquals(0, r.exitCode(), r.toString());
    assertTrue(r.err().contains("bench: [1/1] workload C, pancake: run 60 operations on 1 threads x 2 in flight..."),
        r.toString());
    for (String kept : List.of("repeat-1/pancake-c", "repeat-2/pancake-c")) {
      String runErr = Files.readString(work.resolve(kept).resolve("run.err"));
      assertTrue(runErr.contains("[inflight] run phase: 60 operations, 1 threads x 2 requests in flight"), runErr);
      assertTrue(Files.readString(work.resolve(kept).resolve("run.txt")).contains("[OVERALL], Throughput(ops/sec)"),
          kept);
      assertFalse(Files.readString(work.resolve(kept).resolve("load.err")).contains("[inflight]"), "the load is stock");
    }
    assertFalse(Files.readString(work.resolve("repeat-1/pancake-c/run.err"))
        .equals(Files.readString(work.resolve("repeat-2/pancake-c/run.err"))), "each repetition's own outputs");
    String table = Files.readString(root.resolve("target/bench/results.md"));
    assertTrue(table.contains(" threads=1 ") && table.contains(" inflight=2 (median run of 2)`"), table);
    assertTrue(table.lines().anyMatch(l -> l.startsWith("| pancake | C | ")), table);
  }

  /** Runs a command with {@code root} as the project root, holding a copy of workloads/workloadc. */
  private static Cli.Run runInProject(Path root, String... args) throws Exception {
    Path workloads = Files.createDirectories(root.resolve("workloads"));
    Files.copy(Path.of(System.getProperty("user.dir")).resolveSibling("workloads").resolve("workloadc"),
        workloads.resolve("workloadc"));
    String old = System.getProperty("pancake.root");
    System.setProperty("pancake.root", root.toString());
    try {
      return Cli.run(args);
    } finally {
      if (old == null) {
        System.clearProperty("pancake.root");
      } else {
        System.setProperty("pancake.root", old);
      }
    }
  }
}
