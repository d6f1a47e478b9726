package io.pancakej.ycsb;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;

import io.pancakej.ConfigException;
import io.pancakej.PancakeConfig;
import io.pancakej.config.PropertyReader;
import site.ycsb.Utils;
import site.ycsb.generator.ScrambledZipfianGenerator;

/**
 * The key distribution a YCSB workload requests, computed from the same properties and the same
 * key chooser YCSB 0.17's {@code CoreWorkload} will use, so the {@code pancake} binding can
 * declare it (no file, no flag): the run phase draws keys from {@code requestdistribution}; the
 * load phase, which inserts every record once, declares the run's distribution when the run will
 * request exactly the records it loads (so the run needs no swap), else uniform over them.
 *
 * <p>Computed, not sampled. {@code zipfian} is a {@link ScrambledZipfianGenerator}: a zipf(0.99)
 * rank over 10^10 items (YCSB's {@code ZipfianGenerator.nextLong}, with its closed-form inverse),
 * scrambled to {@code insertstart + fnvhash64(rank) mod itemcount}; draws beyond the loaded records
 * are redrawn by YCSB and renormalized away here. Ranks below {@value #EXACT_RANKS} are mapped one
 * by one; the rest (each below 10^-9) is spread evenly, which the hash makes accurate.
 * {@code hotspot} puts {@code hotspotopnfraction} of the draws uniformly on the first
 * {@code hotspotdatafraction} of the records and the rest uniformly on the others;
 * {@code uniform} and {@code sequential} give every record the same weight. {@code latest} and
 * {@code exponential} depend on the insert sequence, and a run that inserts keys also reads them:
 * neither is declared, and the proxy then learns.
 * Key names follow {@code CoreWorkload.buildKeyName} ({@code insertorder}, {@code zeropadding}).
 */
public final class WorkloadDistribution {
  static final int EXACT_RANKS = 10_000_000;
  /** Ranks from here on take their mass from a series in 1/rank (error below 10^-15 of it). */
  static final int SERIES_FROM = 1_000;
  private static final int RESYNC = 1 << 12;

  private WorkloadDistribution() {}

  /** Whether {@code props} describe YCSB's run phase ({@code -t}). */
  static boolean isRunPhase(Properties props) {
    return "true".equalsIgnoreCase(props.getProperty(KvClientBinding.DO_TRANSACTIONS_PROPERTY, "").trim());
  }

  /**
   * The distribution the phase described by {@code props} requests, or null (with the reason in
   * {@code why[0]}) when YCSB's chooser for it cannot be declared.
   */
  static PancakeConfig.Declared declared(Properties props, String[] why) {
    Workload w = Workload.of(props);
    if (!isRunPhase(props)) {
      // site.ycsb.Client loads insertcount records if set, else recordcount, from insertstart on
      String count = props.getProperty("insertcount");
      long loaded = count == null || count.isBlank() ? w.records : w.insertCount;
      Map<String, Double> weights = new LinkedHashMap<>();
      for (long k = w.insertStart; k < w.insertStart + loaded; k++) {
        weights.put(keyName(k, w.ordered, w.zeroPadding), 1.0);
      }
      PancakeConfig.Declared run = runOverTheLoadedKeys(props, weights.keySet());
      if (run != null) {
        return new PancakeConfig.Declared(run.weights(), String.format(Locale.ROOT,
            "the workload: YCSB load phase of %d records, under the run's estimate (%s): a put's access is drawn"
            + " from the estimate whichever key it inserts, so the run that follows needs no swap", loaded,
            runDistribution(props, w)));
      }
      return new PancakeConfig.Declared(weights, String.format(Locale.ROOT,
          "the workload: YCSB load phase, each of %d records inserted once (uniform)", loaded));
    }
    double insertProportion = PropertyReader.doubleValue(props, "insertproportion", 0);
    if (insertProportion > 0) {
      why[0] = "the run inserts new keys (insertproportion=" + insertProportion + "), which it then also reads";
      return null;
    }
    String dist = props.getProperty("requestdistribution", "uniform").trim();
    if (!dist.equals("uniform") && !dist.equals("zipfian") && !dist.equals("hotspot") && !dist.equals("sequential")) {
      why[0] = "requestdistribution=" + dist + " depends on the insert sequence";
      return null;
    }
    return new PancakeConfig.Declared(weights(props), "the workload: YCSB run phase, " + runDistribution(props, w));
  }

  /** The run's chooser in words, as the estimate's source names it. */
  private static String runDistribution(Properties props, Workload w) {
    return String.format(Locale.ROOT, "requestdistribution=%s over %d records",
        props.getProperty("requestdistribution", "uniform").trim(), w.records);
  }

  /**
   * The run phase's declared distribution for the same workload properties, when it requests
   * exactly the keys the load inserts, else null. A load's requests are puts, and a put's real
   * access goes to a replica drawn from the estimate, not to its own key's (design.md, "Query
   * execution"): a load under the run's estimate shows the store the same uniform accesses as one
   * under a uniform estimate, and the run that follows (with the same workload file) finds its
   * distribution in place instead of swapping replicas to it at open.
   */
  private static PancakeConfig.Declared runOverTheLoadedKeys(Properties loadProps, java.util.Set<String> loaded) {
    Properties runProps = new Properties();
    runProps.putAll(loadProps);
    runProps.setProperty(KvClientBinding.DO_TRANSACTIONS_PROPERTY, "true");
    PancakeConfig.Declared run = declared(runProps, new String[1]);
    return run != null && run.weights().keySet().equals(loaded) ? run : null;
  }

  /** Key to probability for the run phase of workload {@code props} (YCSB property names). */
  public static Map<String, Double> weights(Properties props) {
    Workload w = Workload.of(props);
    String dist = props.getProperty("requestdistribution", "uniform").trim();
    double[] p = new double[(int) w.records];
    long last = Math.min(w.records, w.insertStart + w.insertCount); // exclusive
    switch (dist) {
      case "uniform":
      case "sequential":
        for (long k = w.insertStart; k < last; k++) {
          p[(int) k] = 1;
        }
        break;
      case "zipfian": {
        long operations = PropertyReader.longValue(props, "operationcount", 1000);
        double insertProportion = PropertyReader.doubleValue(props, "insertproportion", 0);
        long expectedNew = (long) (operations * insertProportion * 2.0);
        // CoreWorkload: new ScrambledZipfianGenerator(insertstart, insertstart + insertcount + expectednewkeys),
        // an inclusive range
        scrambledZipfian(p, w.insertStart, w.insertCount + expectedNew + 1);
        break;
      }
      case "hotspot": {
        double hotData = PropertyReader.doubleValue(props, "hotspotdatafraction", 0.2);
        double hotOps = PropertyReader.doubleValue(props, "hotspotopnfraction", 0.8);
        hotspot(p, w.insertStart, w.insertCount, hotData, hotOps);
        break;
      }
      default:
        throw new ConfigException("requestdistribution '" + dist
            + "' cannot be computed (uniform, zipfian, hotspot or sequential)");
    }
    double sum = 0;
    for (double x : p) {
      sum += x;
    }
    Map<String, Double> out = new LinkedHashMap<>();
    for (int k = 0; k < p.length; k++) {
      if (p[k] > 0) {
        out.put(keyName(k, w.ordered, w.zeroPadding), p[k] / sum);
      }
    }
    return out;
  }

  /** The workload properties the choosers depend on, checked. */
  private record Workload(long records, long insertStart, long insertCount, boolean ordered, int zeroPadding) {
    static Workload of(Properties props) {
      long records = PropertyReader.longValue(props, "recordcount", 1000);
      long insertStart = PropertyReader.longValue(props, "insertstart", 0);
      long insertCount = PropertyReader.longValue(props, "insertcount", records - insertStart);
      if (records < 1 || records > Integer.MAX_VALUE) {
        throw new ConfigException("recordcount must be between 1 and " + Integer.MAX_VALUE + ", got " + records);
      }
      if (insertStart < 0 || insertCount < 1) {
        throw new ConfigException("insertstart must be at least 0 and insertcount at least 1, got " + insertStart
            + " and " + insertCount);
      }
      // CoreWorkload: anything but exactly "hashed" is ordered
      boolean ordered = !"hashed".equals(props.getProperty("insertorder", "hashed"));
      int zeroPadding = (int) PropertyReader.longValue(props, "zeropadding", 1);
      return new Workload(records, insertStart, insertCount, ordered, zeroPadding);
    }
  }

  /** HotspotIntegerGenerator(lb, lb + count - 1, hotData, hotOps) restricted to keynums below p.length. */
  static void hotspot(double[] p, long lb, long count, double hotData, double hotOps) {
    if (hotData < 0 || hotData > 1) {
      hotData = 0; // as YCSB: an out-of-range fraction means no hot set
    }
    if (hotOps < 0 || hotOps > 1) {
      hotOps = 0;
    }
    long hot = (long) (count * hotData);
    long cold = count - hot;
    for (long k = lb; k < lb + count && k < p.length; k++) {
      boolean isHot = k - lb < hot;
      p[(int) k] = isHot ? hotOps / hot : (1 - hotOps) / cold;
    }
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
    long r = 2;
    for (; r < SERIES_FROM; r++) {
      double next = Math.min(1.0, Math.max(u2, g(r + 1, n, theta, eta)));
      add(p, min, itemCount, r, next - prev);
      prev = next;
    }
    // Beyond SERIES_FROM, g(r + 1) - g(r) = K r^a ((1 + 1/r)^a - 1) with a = 1 - theta and
    // K = n^-a / eta: a short series in 1/r instead of a Math.pow per rank (ten million of them
    // took a second or two of every YCSB run's start), and no cancellation between two values near 1.
    // r^a is carried from rank to rank and taken exactly again every RESYNC ranks.
    double a = 1 - theta;
    double scale = Math.pow(n, -a) / eta;
    double ra = Math.pow(r, a);
    for (; r < EXACT_RANKS; r++) {
      double x = 1.0 / r;
      double grow = a * x * (1 + (a - 1) / 2 * x * (1 + (a - 2) / 3 * x * (1 + (a - 3) / 4 * x))); // (1+x)^a - 1
      add(p, min, itemCount, r, scale * ra * grow);
      ra = (r + 1) % RESYNC == 0 ? Math.pow(r + 1, a) : ra * (1 + grow);
    }
    prev = Math.min(1.0, Math.max(u2, g(EXACT_RANKS, n, theta, eta)));
    double tail = 1.0 - prev;
    if (tail > 0) {
      double each = tail / itemCount;
      for (long k = min; k < min + itemCount && k < p.length; k++) {
        p[(int) k] += each;
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
