package io.pancakej.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import picocli.CommandLine;

/** {@code bench --jvm-args}: the same options for every YCSB JVM, named in the tables' setup line. */
class BenchJvmArgsTest {
  /** The bench a command line configures (the other bench option tests use it too). */
  static Bench parse(String... args) {
    Bench bench = new Bench();
    new CommandLine(bench).parseArgs(args);
    return bench;
  }

  @Test
  void optionsAreSplitOnWhitespaceAndRecorded() {
    Bench bench = parse("--jvm-args", "  -XX:CompileThresholdScaling=0.1   -Xmx2g ");
    assertEquals(List.of("-XX:CompileThresholdScaling=0.1", "-Xmx2g"), bench.jvmOptions());
    assertTrue(bench.describeSetup().endsWith(" jvm=-XX:CompileThresholdScaling=0.1 -Xmx2g"), bench.describeSetup());
  }

  @Test
  void quotedOptionsStayWhole_andAnUnbalancedQuoteIsAUsageError() {
    assertEquals(List.of("-Dname=a b", "-Xmx1g"), parse("--jvm-args", "'-Dname=a b' -Xmx1g").jvmOptions());
    java.io.StringWriter err = new java.io.StringWriter();
    CommandLine cli = new CommandLine(new Bench()).setErr(new java.io.PrintWriter(err));
    assertEquals(2, cli.execute("--jvm-args", "'-Dname=a b", "--out", "target/never", "--work", "target/never"));
    assertTrue(err.toString().contains("--jvm-args: unbalanced quote"), err.toString());
  }

  @Test
  void aJvmThatCannotStart_isReportedWithItsOwnReason() {
    assertEquals("Unrecognized VM option 'NoSuchOption'", Bench.jvmStartFailure(List.of(
        "NOTE: Picked up JDK_JAVA_OPTIONS: -XX:NoSuchOption", "Unrecognized VM option 'NoSuchOption'",
        "Error: Could not create the Java Virtual Machine.", "Error: A fatal exception has occurred. Program will exit.")));
    assertNull(Bench.jvmStartFailure(List.of("Exception in thread \"main\" java.lang.IllegalStateException: x")));
  }

  @Test
  void withoutThemTheSetupLineIsAsBefore() {
    Bench bench = parse("--store", "redis", "--records", "500");
    assertEquals(List.of(), bench.jvmOptions());
    assertEquals("store=redis records=500 operations=20000 threads=8 fieldlength=100 value.size=1224", bench.describeSetup());
  }
}
