package io.pancakej.bench;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Callable;

import io.pancakej.distribution.DistributionFile;
import io.pancakej.ycsb.WorkloadDistribution;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code bin/distribution}: the key distribution a YCSB workload requests, as a distribution
 * file ({@code weight<TAB>key}) for {@code pancake.distribution.file} and {@code bin/audit}
 * ({@link WorkloadDistribution}: the {@code pancake} binding declares the same by itself).
 */
@Command(name = "distribution", mixinStandardHelpOptions = true,
    description = "Writes the key distribution of a YCSB workload as weight<TAB>key lines.")
public final class YcsbDistribution implements Callable<Integer> {
  @Option(names = {"-P", "--workload"}, description = "YCSB workload file")
  Path workload;

  @Option(names = "-p", description = "YCSB property name=value (overrides the workload file)")
  Map<String, String> overrides = new LinkedHashMap<>();

  @Option(names = {"-o", "--out"}, required = true, description = "distribution file to write")
  Path out;

  public static void main(String[] args) {
    System.exit(new CommandLine(new YcsbDistribution()).execute(args));
  }

  @Override
  public Integer call() throws IOException {
    Properties props = new Properties();
    if (workload != null) {
      try (InputStream in = Files.newInputStream(workload)) {
        props.load(in);
      }
    }
    props.putAll(overrides);
    Map<String, Double> weights = WorkloadDistribution.weights(props);
    Path parent = out.toAbsolutePath().getParent();
    if (parent != null) {
      Files.createDirectories(parent);
    }
    DistributionFile.write(out, weights);
    System.err.printf(Locale.ROOT, "distribution: %d keys (%s) -> %s%n", weights.size(),
        props.getProperty("requestdistribution", "uniform"), out);
    return 0;
  }
}
