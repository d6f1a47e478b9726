package io.pancakej.tools;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;

import picocli.CommandLine;

/** Runs {@code bin/pancake}'s command in-process and keeps what it printed. */
final class Cli {
  /** Exit code, picocli's out and err, and what went to System.out / System.err meanwhile. */
  record Run(int exitCode, String out, String err) {
    @Override
    public String toString() {
      return "exit " + exitCode + "\n--- out\n" + out + "\n--- err\n" + err;
    }
  }

  private Cli() {}

  /** Not thread-safe: swaps System.out and System.err while the command runs. */
  static synchronized Run run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    ByteArrayOutputStream sysOut = new ByteArrayOutputStream();
    ByteArrayOutputStream sysErr = new ByteArrayOutputStream();
    PrintStream oldOut = System.out;
    PrintStream oldErr = System.err;
    int code;
    try {
      System.setOut(new PrintStream(sysOut, true, StandardCharsets.UTF_8));
      System.setErr(new PrintStream(sysErr, true, StandardCharsets.UTF_8));
      CommandLine cl = Pancake.commandLine();
      cl.setOut(new PrintWriter(out, true));
      cl.setErr(new PrintWriter(err, true));
      code = cl.execute(args);
    } finally {
      System.setOut(oldOut);
      System.setErr(oldErr);
    }
    return new Run(code, out + sysOut.toString(StandardCharsets.UTF_8), err + sysErr.toString(StandardCharsets.UTF_8));
  }
}
