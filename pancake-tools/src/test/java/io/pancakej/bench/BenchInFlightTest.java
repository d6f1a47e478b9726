package io.pancakej.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.pancakej.ycsb.InFlightClient;
import picocli.CommandLine;

/** {@code bench --inflight d}: run phases through the asynchronous API, named in the tables' setup line. */
class BenchInFlightTest {
  @Test
  void runPhasesGoThroughTheInFlightClient_loadsStayStock() {
    Bench bench = BenchJvmArgsTest.parse("--inflight", "3");
    List<String> run = bench.ycsbArguments("-t", "pancake", List.of("-threads", "8"));
    assertEquals(InFlightClient.class.getName(), run.get(2), run.toString());
    assertEquals(List.of("-t", "-db", Bench.BINDINGS.get("pancake"), "-threads", "8", "-inflight", "3"),
        run.subList(3, run.size()));
    List<String> load = bench.ycsbArguments("-load", "pancake", List.of("-threads", "8"));
    assertEquals("site.ycsb.Client", load.get(2), load.toString());
    assertFalse(load.contains("-inflight"), load.toString());
    assertTrue(bench.describeSetup().endsWith(" inflight=3"), bench.describeSetup());
  }

  @Test
  void withoutIt_everyPhaseIsStockYcsb_andTheSetupLineIsAsBefore() {
    Bench bench = BenchJvmArgsTest.parse();
    List<String> run = bench.ycsbArguments("-t", "insecure", List.of());
    assertEquals(List.of("site.ycsb.Client", "-t", "-db", Bench.BINDINGS.get("insecure")), run.subList(2, run.size()));
    assertFalse(bench.describeSetup().contains("inflight"), bench.describeSetup());
  }

  @Test
  void aCountOutOfRange_isAUsageError() {
    for (String bad : List.of("0", "-2", String.valueOf(InFlightClient.MAX_IN_FLIGHT + 1))) {
      StringWriter err = new StringWriter();
      CommandLine cli = new CommandLine(new Bench()).setErr(new PrintWriter(err));
      assertEquals(2, cli.execute("--inflight", bad, "--out", "target/never", "--work", "target/never"), bad);
      assertTrue(err.toString().contains("--inflight must be between 1 and " + InFlightClient.MAX_IN_FLIGHT
          + ", got " + bad), err.toString());
    }
  }
}
