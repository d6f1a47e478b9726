package io.pancakej.bench;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Callable;

import io.pancakej.ConfigException;
import io.pancakej.distribution.DistributionFile;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import site.ycsb.Utils;
import site.ycsb.generator.ScrambledZipfianGenerator;

/**
 * {@code bin/distribution}: the key distribution a YCSB workload requests, as a distribution
 * file ({@code weight<TAB>key}) for {@code pancake.distribution.file} and {@code bin/audit}.
 *
 * <p>Computed, not sampled. YCSB's {@code zipfian} key chooser is a
 * {@link ScrambledZipfianGenerator}: a zipf(0.99) rank over 10^10 items (YCSB's
 * {@code ZipfianGenerator.nextLong}, with its closed-form inverse), scrambled to
 * {@code fnvhash64(rank) mod itemcount}; the key name is {@code "user" + fnvhash64(keynum)}
 * (insertorder=hashed, the default) or {@code "user" + keynum} (ordered), zero-padded to
 * {@code zeropadding}. Ranks below {@value #EXACT_RANKS} are mapped one by one; the remaining
 * mass (rank at least 10^7 of 10^10, each rank below 10^-9) is spread evenly, which the hash
 * makes accurate. Draws beyond the loaded records (workloads with inserts) are renormalized away,
 * as YCSB redraws them. {@code uniform} gives every record weight 1.
 */
@Command(name = "distribution", mixinStandardHelpOptions = true,
    description = "Writes the key distribution of a YCSB workload as weight<TAB>key lines.")
public final class YcsbDistribution implements Callable<Integer> {
  static final int EXACT_RANKS = 10_000_000;

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
    Map<String, Double> weights = weights(props);
    Path parent = out.toAbsolutePath().getParent();
    if (parent != null) {
      Files.createDirectories(parent);
    }
    DistributionFile.write(out, weights);
    System.err.printf(Locale.ROOT, "distribution: %d keys (%s) -> %s%n", weights.size(),
        props.getProperty("requestdistribution", "uniform"), out);
    return 0;
  }

  /** Key to probability for the workload {@code props} (YCSB property names). */
  static Map<String, Double> weights(Properties props) {
    long records = Long.parseLong(props.getProperty("recordcount", "1000").trim());
    long operations = Long.parseLong(props.getProperty("operationcount", "1000").trim());
    double insertProportion = Double.parseDouble(props.getProperty("insertproportion", "0").trim());
    long insertStart = Long.parseLong(props.getProperty("insertstart", "0").trim());
    long insertCount = Long.parseLong(props.getProperty("insertcount", String.valueOf(records - insertStart)).trim());
    boolean ordered = "ordered".equals(props.getProperty("insertorder", "hashed").trim());
    int zeroPadding = Integer.parseInt(props.getProperty("zeropadding", "1").trim());
    String dist = props.getProperty("requestdistribution", "uniform").trim();
    if (records < 1 || records > Integer.MAX_VALUE) {
      throw new ConfigException("recordcount must be between 1 and " + Integer.MAX_VALUE);
    }
    double[] p = new double[(int) records];
    switch (dist) {
      case "uniform":
        Arrays.fill(p, 1.0 / records);
        break;
      case "zipfian": {
        long expectedNew = (long) (operations * insertProportion * 2.0);
        // CoreWorkload: new ScrambledZipfianGenerator(insertstart, insertstart + insertcount + expectednewkeys),
        // an inclusive range
        long itemCount = insertCount + expectedNew + 1;
        scrambledZipfian(p, insertStart, itemCount);
        break;
      }
      default:
        throw new ConfigException("requestdistribution '" + dist + "' is not supported (uniform or zipfian)");
    }
    double sum = 0;
    for (double x : p) {
      sum += x;
    }
    Map<String, Double> out = new LinkedHashMap<>();
    for (int k = 0; k < p.length; k++) {
      out.put(keyName(k, ordered, zeroPadding), p[k] / sum);
    }
    return out;
  }

  /** Probability mass of each keynum below p.length, from YCSB's scrambled zipfian chooser. */
  static void scrambledZipfian(double[] p, long min, long itemCount) {
    double theta = ScrambledZipfianGenerator.USED_ZIPFIAN_CONSTANT;
    double n = ScrambledZipfianGenerator.ITEM_COUNT;
    double zetan = ScrambledZipfianGenerator.ZETAN;
    double zeta2 = 1 + Math.pow(0.5, theta);
    double eta = (1 - Math.pow(2.0 / n, 1 - theta)) / (1 - zeta2 / zetan);
    // ZipfianGenerator.nextLong(u): u*zetan < 1 -> 0; < 1 + 0.5^theta -> 1;
    // else floor(n * (eta*u - eta + 1)^(1/(1-theta))). Inverse: rank >= v iff u >= g(v).
    double u1 = 1.0 / zetan;
    double u2 = zeta2 / zetan;
    add(p, min, itemCount, 0, u1);
    add(p, min, itemCount, 1, u2 - u1);
    double prev = Math.max(u2, g(2, n, theta, eta));
    for (long r = 2; r < EXACT_RANKS; r++) {
      double next = Math.min(1.0, Math.max(u2, g(r + 1, n, theta, eta)));
      add(p, min, itemCount, r, next - prev);
      prev = next;
    }
    double tail = 1.0 - prev;
    if (tail > 0) {
      double each = tail / itemCount;
      for (int k = 0; k < p.length; k++) {
        p[k] += each;
      }
    }
  }

  private static double g(double v, double n, double theta, double eta) {
    return (Math.pow(v / n, 1 - theta) - 1 + eta) / eta;
  }

  private static void add(double[] p, long min, long itemCount, long rank, double mass) {
    if (mass <= 0) {
      return;
    }
    long keynum = min + Utils.fnvhash64(rank) % itemCount;
    if (keynum >= 0 && keynum < p.length) {
      p[(int) keynum] += mass;
    }
  }

  /** CoreWorkload.buildKeyName. */
  static String keyName(long keynum, boolean ordered, int zeroPadding) {
    long k = ordered ? keynum : Utils.hash(keynum);
    String value = Long.toString(k);
    StringBuilder sb = new StringBuilder("user");
    for (int i = value.length(); i < zeroPadding; i++) {
      sb.append('0');
    }
    return sb.append(value).toString();
  }

}
