package io.pancakej.ycsb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.pancakej.KvClient;
import io.pancakej.PancakeClient;
import io.pancakej.PancakeConfig;

/** {@code bin/ycsb ... -inflight D}: YCSB's workload through the asynchronous API, on a real RocksDB. */
class InFlightClientTest {
  @TempDir
  Path dir;

  private record Run(int rc, String out, String err) {
    Map<String, Long> returns() {
      return new YcsbProcess.Result(rc, out, err).returns();
    }
  }

  private Run run(String phase, String workload, int threads, int inFlight, String... props) {
    return run(List.of(), phase, workload, threads, inFlight, props);
  }

  private Run run(List<String> flags, String phase, String workload, int threads, int inFlight, String... props) {
    List<String> args = new ArrayList<>(flags);
    args.addAll(List.of("-db", PancakeBinding.class.getName(), "-P",
        YcsbProcess.WORKLOADS.resolve(workload).toString(), "-threads", Integer.toString(threads),
        "-inflight", Integer.toString(inFlight), phase.equals("load") ? "-load" : "-t",
        "-p", "rocksdb.dir=" + dir.resolve("db"), "-p", "pancake.state.dir=" + dir.resolve("state"),
        "-p", "recordcount=300"));
    for (String p : props) {
      args.add("-p");
      args.add(p);
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int rc = InFlightClient.run(args.toArray(new String[0]), new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
    return new Run(rc, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  @Test
  void loadAndRun_inFlight_doEveryOperation_andTheDataIsThere() {
    Run load = run("load", "workloada", 2, 16);
    assertEquals(0, load.rc(), load.toString());
    assertEquals(Map.of("INSERT=OK", 300L), load.returns(), load.out());
    assertTrue(load.out().contains("[OVERALL], InFlightPerThread, 16"), load.out());

    Run a = run("run", "workloada", 3, 8, "operationcount=3000");
    assertEquals(0, a.rc(), a.toString());
    Map<String, Long> r = a.returns();
    assertEquals(3000L, r.getOrDefault("READ=OK", 0L) + r.getOrDefault("UPDATE=OK", 0L), r.toString());
    assertTrue(r.getOrDefault("UPDATE=OK", 0L) > 1000 && r.getOrDefault("READ=OK", 0L) > 1000, r.toString());
    assertTrue(a.out().contains("[READ], AverageLatency(us)"), a.out());

    // what the asynchronous load and updates wrote is what a plain client reads back: whole records
    Properties p = new Properties();
    p.setProperty("pancake.store", "rocksdb");
    p.setProperty("rocksdb.dir", dir.resolve("db").toString());
    p.setProperty(PancakeConfig.STATE_DIR_PROPERTY, dir.resolve("state").toString());
    p.setProperty(PancakeConfig.CREATE_PROPERTY, "false");
    try (PancakeClient c = PancakeClient.open(PancakeConfig.builderFromProperties(p).build())) {
      for (String key : WorkloadDistribution.weights(ycsb("recordcount", "300")).keySet()) {
        Optional<byte[]> v = c.get(KvClient.utf8(key));
        assertTrue(v.isPresent(), key);
        assertEquals(10, RecordCodec.decode(v.get()).size(), key);
      }
    }
  }

  @Test
  void statusLines_giveTheIntervalsLatencies_asYcsbDoes_andALastLineAtTheEnd() {
    assertEquals(0, run("load", "workloadc", 1, 16).rc());
    Run c = run(List.of("-s"), "run", "workloadc", 1, 4, "operationcount=500", "status.interval=600");
    assertEquals(0, c.rc(), c.toString());
    // the run ends long before the first interval: only the last line is there, with every request
    List<String> lines = c.err().lines().filter(l -> l.contains("current ops/sec")).toList();
    assertEquals(1, lines.size(), c.err());
    assertTrue(lines.get(0).contains(" 500 operations; "), lines.get(0));
    assertTrue(lines.get(0).matches(".*\\[READ: Count=500, Max=\\d+, Min=\\d+, Avg=[0-9.]+, .*"), lines.get(0));
  }

  /** The binding's line at close (on the process's stderr) counts this run's requests, and the swaps made. */
  @Test
  void closeLine_countsTheRunsRequests_andTheReplicaSwapsMade() {
    assertEquals(0, run("load", "workloadc", 1, 16).rc());
    PrintStream stderr = System.err;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    Run c;
    System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
    try {
      // the load was smoothed for a zipfian run: a uniform one changes the plan, so replicas are swapped
      c = run("run", "workloadc", 2, 4, "operationcount=700", "requestdistribution=uniform");
    } finally {
      System.setErr(stderr);
    }
    assertEquals(0, c.rc(), c.toString());
    String text = captured.toString(StandardCharsets.UTF_8);
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("\\[pancake\\] (\\d+) requests in (\\d+) batches \\(.*"
        + " (\\d+) replica swaps in (\\d+) transition\\(s\\)").matcher(text);
    assertTrue(m.find(), text);
    assertEquals(700, Long.parseLong(m.group(1)), m.group());
    assertTrue(Long.parseLong(m.group(2)) > 0, m.group());
    assertTrue(Long.parseLong(m.group(3)) > 0 && Long.parseLong(m.group(4)) >= 1, text);
  }

  private static Properties ycsb(String k, String v) {
    Properties p = new Properties();
    p.setProperty(k, v);
    return p;
  }

  @Test
  void badCommandLines_areRefused_namingWhatIsWrong() {
    assertEquals("Missing -inflight (requests each thread keeps in flight)", usage("-db", "x", "-t"));
    assertEquals("-inflight takes a whole number in [1, 100000], not '0'", usage("-db", "x", "-t", "-inflight", "0"));
    assertTrue(usage("-db", "x", "-t", "-inflight", "2", "-target", "100").contains("not supported with -inflight"));
    assertEquals("Missing -load or -t", usage("-db", "x", "-inflight", "2"));
    assertTrue(usage("-db", "x", "-t", "-inflight", "2", "-p", "dataintegrity=true").startsWith("dataintegrity=true"));
    assertEquals("Unknown option -l", usage("-db", "x", "-t", "-inflight", "2", "-l", "label"));
    assertEquals("Missing argument value for -P", usage("-db", "x", "-t", "-inflight", "2", "-P"));
    assertTrue(assertThrows(InFlightClient.UsageException.class, () -> InFlightClient.run(
        new String[] {"-db", "site.ycsb.BasicDB", "-t", "-inflight", "2"}, System.out, System.err))
        .getMessage().contains("PANCAKE-J's bindings only"));
  }

  @Test
  void aBadOperationCount_isRefusedBeforeAnythingOpens() {
    InFlightClient.UsageException e = assertThrows(InFlightClient.UsageException.class, () -> run("run", "workloadc", 1, 2,
        "operationcount=many"));
    assertEquals("operationcount takes a whole number of at least 0, not 'many'", e.getMessage());
  }

  private static String usage(String... args) {
    return assertThrows(InFlightClient.UsageException.class, () -> InFlightClient.parse(args)).getMessage();
  }
}
