package io.pancakej.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.pancakej.detworam.DetWoOramClient;
import io.pancakej.distribution.DistributionFile;
import io.pancakej.store.MemoryStore;
import io.pancakej.store.TracingStore;
import picocli.CommandLine;

/**
 * The audit with teeth on DetWoORAM: on a zipfian read/update workload (YCSB A), the write
 * transcript (positions set by the write counter) passes the uniformity, persistence and attack
 * checks, and the read transcript of the same run fails the uniformity and persistence checks
 * and the linking attack (per-label frequency analysis is blurred there: hot keys keep moving
 * through holding slots, but refresh and update reads tie each slot to its block's home);
 * on a read-only zipfian workload (YCSB C) the frequency attack on the reads recovers hot keys,
 * as it does against encrypted.
 */
class DetWoOramAuditTest {
  private static final int KEYS = 1000;
  private static final int OPERATIONS = 40_000;

  @TempDir
  Path dir;

  private String audit(Path transcript, Path distribution, String ops) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    int code = new CommandLine(new Audit(new PrintStream(bytes, true, StandardCharsets.UTF_8))).execute(
        "--transcript", transcript.toString(), "--distribution", distribution.toString(), "--scheme", "detworam",
        "--state-dir", dir.resolve("state").toString(), "--kinds", ops);
    String text = bytes.toString(StandardCharsets.UTF_8);
    assertEquals(0, code, text);
    System.out.println("--- audit of detworam, " + ops + " lines\n" + text);
    return text;
  }

  @Test
  void zipfianWorkload_writeTranscriptPassesTheAudit_readTranscriptLeaks() throws Exception {
    double[] weight = new double[KEYS];
    double[] cumulative = new double[KEYS];
    Map<String, Double> distribution = new LinkedHashMap<>();
    double sum = 0;
    for (int i = 0; i < KEYS; i++) {
      weight[i] = 1 / Math.pow(i + 1, 0.99);
      sum += weight[i];
      cumulative[i] = sum;
      distribution.put("user" + i, weight[i]);
    }
    Path distributionFile = dir.resolve("zipf.dist");
    DistributionFile.write(distributionFile, distribution);

    MemoryStore memory = new MemoryStore();
    DetWoOramClient.Builder builder = DetWoOramClient.builder().stateDir(dir.resolve("state")).capacity(KEYS)
        .valueSize(64);
    // loaded in a shuffled order, as YCSB's hashed insert order does: blocks are bound in load order, and
    // popularity must not line up with block numbers (nor, then, with the round-robin refresh order)
    java.util.List<Integer> order = new java.util.ArrayList<>();
    for (int i = 0; i < KEYS; i++) {
      order.add(i);
    }
    java.util.Collections.shuffle(order, new Random(17));
    try (DetWoOramClient load = builder.store(memory).build()) {
      for (int i : order) {
        load.put(("user" + i).getBytes(StandardCharsets.UTF_8), new byte[] {(byte) i});
      }
    }
    Path trace = dir.resolve("run.trace");
    Random r = new Random(18);
    try (DetWoOramClient run = DetWoOramClient.builder().stateDir(dir.resolve("state"))
        .store(new TracingStore(memory.reopen(), trace)).build()) {
      for (int op = 0; op < OPERATIONS; op++) {
        int rank = Arrays.binarySearch(cumulative, r.nextDouble() * sum);
        byte[] key = ("user" + Math.min(KEYS - 1, rank < 0 ? -rank - 1 : rank)).getBytes(StandardCharsets.UTF_8);
        if (r.nextBoolean()) {
          run.get(key);
        } else {
          run.update(key, v -> new byte[] {(byte) (v[0] + 1)});
        }
      }
    }
    String writes = audit(trace, distributionFile, "W");
    assertTrue(writes.contains("verdict      no leakage detected"), writes);
    String reads = audit(trace, distributionFile, "R");
    assertTrue(reads.contains("verdict      LEAKS: label accesses are not uniform"), reads);

    // the per-label attack is blurred (hot keys keep moving through holding slots), but the store can follow
    // them: linking each holding slot to the block whose refresh or update reads it recovers the hot keys
    assertTrue(reads.contains("attack       top-10    recovered     0 of 10"), reads);
    assertTrue(reads.matches("(?s).*linking      top-10    recovered    (9|10) of 10 .*BEYOND CHANCE.*"), reads);

    // read-only (workload C): every read of a key fetches its main block, and frequency analysis names the hot keys
    Path readOnly = dir.resolve("readonly.trace");
    try (DetWoOramClient run = DetWoOramClient.builder().stateDir(dir.resolve("state"))
        .store(new TracingStore(memory.reopen(), readOnly)).build()) {
      for (int op = 0; op < OPERATIONS / 2; op++) {
        int rank = Arrays.binarySearch(cumulative, r.nextDouble() * sum);
        run.get(("user" + Math.min(KEYS - 1, rank < 0 ? -rank - 1 : rank)).getBytes(StandardCharsets.UTF_8));
      }
    }
    String c = audit(readOnly, distributionFile, "R");
    assertTrue(c.contains("verdict      LEAKS") && c.contains("BEYOND CHANCE"), c);
  }
}
