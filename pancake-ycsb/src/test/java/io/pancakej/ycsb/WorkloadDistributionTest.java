package io.pancakej.ycsb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;
import java.util.Properties;

import org.junit.jupiter.api.Test;

import io.pancakej.PancakeConfig;
import site.ycsb.generator.HotspotIntegerGenerator;
import site.ycsb.generator.ScrambledZipfianGenerator;

class WorkloadDistributionTest {
  @Test
  void zipfianWeights_matchYcsbsOwnKeyChooser() {
    int records = 1000;
    Properties props = new Properties();
    props.setProperty("recordcount", String.valueOf(records));
    props.setProperty("requestdistribution", "zipfian");
    Map<String, Double> weights = WorkloadDistribution.weights(props);
    assertEquals(records, weights.size());
    assertEquals(1.0, weights.values().stream().mapToDouble(Double::doubleValue).sum(), 1e-9);

    // YCSB's chooser as CoreWorkload builds it (inclusive range, redraw beyond the last record)
    ScrambledZipfianGenerator chooser = new ScrambledZipfianGenerator(0, records);
    Map<String, Integer> counts = new HashMap<>();
    int draws = 400_000;
    for (int i = 0; i < draws; i++) {
      long k;
      do {
        k = chooser.nextValue();
      } while (k >= records);
      counts.merge(WorkloadDistribution.keyName(k, false, 1), 1, Integer::sum);
    }
    // every key's sampled frequency within 5 standard errors (plus a little) of the computed one
    for (Map.Entry<String, Double> e : weights.entrySet()) {
      double p = e.getValue();
      double observed = counts.getOrDefault(e.getKey(), 0) / (double) draws;
      double se = Math.sqrt(p * (1 - p) / draws);
      assertEquals(p, observed, 5 * se + 1e-4, e.getKey());
    }
  }

  @Test
  void uniformWeights_areEqual_andKeysAreYcsbNames() {
    Properties props = new Properties();
    props.setProperty("recordcount", "10");
    Map<String, Double> weights = WorkloadDistribution.weights(props);
    assertEquals(10, weights.size());
    weights.values().forEach(w -> assertEquals(0.1, w, 1e-12));
    assertEquals("user" + site.ycsb.Utils.hash(3), WorkloadDistribution.keyName(3, false, 1));
  }

  @Test
  void hotspotWeights_matchYcsbsOwnKeyChooser() {
    int records = 1000;
    Properties props = new Properties();
    props.setProperty("recordcount", String.valueOf(records));
    props.setProperty("requestdistribution", "hotspot");
    props.setProperty("hotspotdatafraction", "0.1");
    props.setProperty("hotspotopnfraction", "0.9");
    Map<String, Double> weights = WorkloadDistribution.weights(props);
    assertEquals(1.0, weights.values().stream().mapToDouble(Double::doubleValue).sum(), 1e-9);
    HotspotIntegerGenerator chooser = new HotspotIntegerGenerator(0, records - 1, 0.1, 0.9);
    Map<String, Integer> counts = new HashMap<>();
    int draws = 300_000;
    for (int i = 0; i < draws; i++) {
      counts.merge(WorkloadDistribution.keyName(chooser.nextValue(), false, 1), 1, Integer::sum);
    }
    for (Map.Entry<String, Double> e : weights.entrySet()) {
      double p = e.getValue();
      double observed = counts.getOrDefault(e.getKey(), 0) / (double) draws;
      assertEquals(p, observed, 5 * Math.sqrt(p * (1 - p) / draws) + 1e-4, e.getKey());
    }
  }

  @Test
  void declared_loadIsUniformOverTheInsertedRecords_runFollowsTheChooser_latestIsLearned() {
    Properties props = new Properties();
    props.setProperty("recordcount", "100");
    props.setProperty("insertstart", "20");
    props.setProperty("insertcount", "30");
    props.setProperty("requestdistribution", "zipfian");
    String[] why = {null};
    PancakeConfig.Declared load = WorkloadDistribution.declared(props, why);
    assertEquals(30, load.weights().size());
    assertTrue(load.weights().containsKey(WorkloadDistribution.keyName(20, false, 1)));
    assertFalse(load.weights().containsKey(WorkloadDistribution.keyName(50, false, 1)));
    assertTrue(load.source().contains("load phase"), load.source());

    props.setProperty(KvClientBinding.DO_TRANSACTIONS_PROPERTY, "true");
    PancakeConfig.Declared run = WorkloadDistribution.declared(props, why);
    assertTrue(run.source().contains("requestdistribution=zipfian"), run.source());
    assertTrue(run.weights().keySet().stream().allMatch(k -> !k.equals(WorkloadDistribution.keyName(5, false, 1))),
        "keys below insertstart are never drawn");

    props.setProperty("requestdistribution", "latest");
    assertNull(WorkloadDistribution.declared(props, why));
    assertTrue(why[0].contains("latest"), why[0]);
  }

  /**
   * A load declares its run's distribution when the run requests exactly the keys it inserts (a
   * put's access follows the estimate, so the load looks the same, and the run needs no swap);
   * otherwise the load is uniform over what it inserts.
   */
  @Test
  void declared_loadTakesTheRunsDistribution_onlyWhenTheRunRequestsExactlyTheLoadedKeys() {
    Properties props = new Properties();
    props.setProperty("recordcount", "500");
    props.setProperty("requestdistribution", "zipfian");
    String[] why = {null};
    PancakeConfig.Declared load = WorkloadDistribution.declared(props, why);
    assertEquals(WorkloadDistribution.weights(props), load.weights());
    assertTrue(load.source().contains("load phase") && load.source().contains("requestdistribution=zipfian"),
        load.source());
    double first = load.weights().values().iterator().next();
    assertTrue(load.weights().values().stream().anyMatch(p -> p > 10 * first)
        || load.weights().values().stream().anyMatch(p -> 10 * p < first), "zipfian, not uniform");

    props.setProperty("requestdistribution", "latest"); // not declared in the run: the load stays uniform
    PancakeConfig.Declared uniform = WorkloadDistribution.declared(props, why);
    assertEquals(500, uniform.weights().size());
    assertEquals(1, uniform.weights().values().stream().distinct().count());
    assertTrue(uniform.source().contains("inserted once (uniform)"), uniform.source());

    props.setProperty("requestdistribution", "zipfian");
    props.setProperty("insertcount", "250"); // a partial load: the run draws from a range one key wider
    PancakeConfig.Declared partial = WorkloadDistribution.declared(props, why);
    assertEquals(250, partial.weights().size());
    assertTrue(partial.source().contains("inserted once (uniform)"), partial.source());
  }

  /**
   * The series that gives ranks from {@code SERIES_FROM} on their mass agrees with a Math.pow per
   * rank (the closed form it replaces) to 10^-8 of every key's weight -- the closed form's own
   * rounding: each rank's mass is the difference of two values near 1, some 10^-8 of them apart --
   * and a series cut after its first term does not (about 10^-5 off).
   */
  @Test
  void zipfianSeries_matchesAPowPerRank() {
    for (int records : new int[] {1000, 100_000}) {
      double[] fast = new double[records];
      WorkloadDistribution.scrambledZipfian(fast, 0, records + 1);
      double[] exact = powPerRank(records, 0, records + 1);
      for (int k = 0; k < records; k++) {
        assertEquals(exact[k], fast[k], 1e-8 * exact[k], "keynum " + k + " of " + records);
      }
    }
  }

  /** The mass of each keynum with one Math.pow per rank (the computation before the series). */
  private static double[] powPerRank(int length, long min, long itemCount) {
    double theta = ScrambledZipfianGenerator.USED_ZIPFIAN_CONSTANT;
    double n = ScrambledZipfianGenerator.ITEM_COUNT;
    double zetan = ScrambledZipfianGenerator.ZETAN;
    double zeta2 = 1 + Math.pow(0.5, theta);
    double eta = (1 - Math.pow(2.0 / n, 1 - theta)) / (1 - zeta2 / zetan);
    double[] p = new double[length];
    double u1 = 1.0 / zetan;
    double u2 = zeta2 / zetan;
    double[] mass = new double[WorkloadDistribution.EXACT_RANKS];
    mass[0] = u1;
    mass[1] = u2 - u1;
    double prev = Math.max(u2, (Math.pow(2 / n, 1 - theta) - 1 + eta) / eta);
    for (int r = 2; r < WorkloadDistribution.EXACT_RANKS; r++) {
      double next = Math.min(1.0, Math.max(u2, (Math.pow((r + 1) / n, 1 - theta) - 1 + eta) / eta));
      mass[r] = next - prev;
      prev = next;
    }
    for (int r = 0; r < mass.length; r++) {
      long keynum = min + site.ycsb.Utils.fnvhash64(r) % itemCount;
      if (mass[r] > 0 && keynum < length) {
        p[(int) keynum] += mass[r];
      }
    }
    double each = (1.0 - prev) / itemCount;
    for (long k = min; k < min + itemCount && k < length; k++) {
      p[(int) k] += each;
    }
    return p;
  }
}
