package io.pancakej.smoothing;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.pancakej.PancakeConfig;
import io.pancakej.distribution.DistributionFile;
import io.pancakej.store.MemoryStore;

/**
 * A tick's call leaves a fixed time after the tick starts, not when its build ends: the build is
 * longer the more of its slots are real (a queue poll and a replica draw against one fake draw),
 * and calls sent at the end of the build left about 220 ns later per real access on the default
 * path, which a store with a fine clock reads (results/timing/wake-contention/review). The code
 * before this sent at the end of the build, a few microseconds after the start, and fails here.
 */
class TickReleaseTest {
  private static final int KEYS = 200;

  @TempDir
  Path dir;

  @Test
  void everyTicksCall_leavesNoSoonerThanTheReleaseTime_whateverItServed() throws Exception {
    Path distribution = dir.resolve("uniform.dist");
    Map<String, Double> weights = new LinkedHashMap<>();
    for (int i = 0; i < KEYS; i++) {
      weights.put("user" + i, 1.0 / KEYS);
    }
    DistributionFile.write(distribution, weights);
    PancakeConfig config = PancakeConfig.builder().stateDir(dir.resolve("state")).capacity(KEYS)
        .distributionFile(distribution).valueSize(16).keySize(16).adapt(false).store(new MemoryStore()).build();
    try (Proxy proxy = Proxy.open(config)) {
      for (int i = 0; i < KEYS; i++) {
        proxy.put(key(i), new byte[] {(byte) i});
      }
      for (int i = 0; i < 500; i++) {
        proxy.get(key(i % KEYS)); // ticks that serve a request, between ticks that serve none
      }
      long shortest = proxy.runner.shortestIssueDelay;
      assertTrue(shortest != Long.MAX_VALUE, "no tick was timed");
      assertTrue(shortest >= TickRunner.RELEASE_NANOS, "a call left " + shortest + " ns after its tick started, before"
          + " the release time of " + TickRunner.RELEASE_NANOS + " ns: its build decided when it left");
    }
  }

  private static byte[] key(int i) {
    return ("user" + i).getBytes(StandardCharsets.UTF_8);
  }
}
