package io.pancakej.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.HashMap;
import java.util.Map;
import java.util.Properties;

import org.junit.jupiter.api.Test;

import site.ycsb.generator.ScrambledZipfianGenerator;

class YcsbDistributionTest {
  @Test
  void zipfianWeights_matchYcsbsOwnKeyChooser() {
    int records = 1000;
    Properties props = new Properties();
    props.setProperty("recordcount", String.valueOf(records));
    props.setProperty("requestdistribution", "zipfian");
    Map<String, Double> weights = YcsbDistribution.weights(props);
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
      counts.merge(YcsbDistribution.keyName(k, false, 1), 1, Integer::sum);
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
    Map<String, Double> weights = YcsbDistribution.weights(props);
    assertEquals(10, weights.size());
    weights.values().forEach(w -> assertEquals(0.1, w, 1e-12));
    assertEquals("user" + site.ycsb.Utils.hash(3), YcsbDistribution.keyName(3, false, 1));
  }
}
