package io.pancakej.tools;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code bin/pancake bench-proxy} ({@code bin/bench-proxy}): the JMH microbenchmarks of the
 * proxy's CPU cost per request, no store I/O ({@code CryptoBenchmark}, {@code ProxyBenchmark},
 * {@code DrbgBenchmark} in pancake-core's tests, on this command's classpath). Arguments go to
 * JMH ({@code org.openjdk.jmh.Main}; {@code -h} prints JMH's own help); none runs every benchmark
 * in {@code io.pancakej.bench}.
 */
@Command(name = "bench-proxy",
    description = {"JMH microbenchmarks of the proxy's CPU cost per request (no store I/O).",
        "Arguments go to JMH (-h: JMH's own help); none: every benchmark in io.pancakej.bench.",
        "Examples: bench-proxy ProxyBenchmark -p scheme=pancake -wi 2 -i 3; bench-proxy DrbgBenchmark -f 1 -wi 3 -i 5"})
final class BenchProxy implements Callable<Integer> {
  @Parameters(paramLabel = "JMH-ARG", description = "JMH arguments: benchmark regexps, -f, -wi, -i, -p name=value, ...")
  List<String> args = new ArrayList<>();

  @Spec
  CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    if (args.contains("--help")) {
      spec.commandLine().usage(spec.commandLine().getOut());
      return 0;
    }
    org.openjdk.jmh.Main.main(args.isEmpty() ? new String[] {"io.pancakej.bench"} : args.toArray(String[]::new));
    return 0;
  }
}
