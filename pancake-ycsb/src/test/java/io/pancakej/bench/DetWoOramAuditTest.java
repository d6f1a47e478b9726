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
 * checks, and the read transcript of the same run fails the uniformity and persistence checks;
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
        "--state-dir", dir.resolve("state").toString(), "--ops", ops);
    String text = bytes.toString(StandardCharsets.UTF_8);
    assertEquals(0, code, text);
    System.out.println("--- audit of detworam, " + ops + " lines\n" + text);
    return text;
  }

  /** One store call of a transcript: R or W and its labels (lines of one call share their time stamp). */
  private record Call(char kind, java.util.List<String> labels) {}

  /**
   * The store's own linking attack on a DetWoORAM transcript with M = N (k = 1), no ground truth
   * needed: a write is an R call of its refresh source (preceded, for an update, by the block's
   * current position) followed by a W call of [holding slot, refreshed main block]. A refresh
   * links its source to the main block's home; an update links the new holding slot to the
   * position it read. Reads are summed over each linked history and credited to its main label.
   */
  static Map<String, Long> linkedReadCounts(Path trace) throws java.io.IOException {
    java.util.List<Call> calls = new java.util.ArrayList<>();
    String lastStamp = null;
    for (String line : java.nio.file.Files.readAllLines(trace, StandardCharsets.US_ASCII)) {
      String[] f = line.split(" ");
      String stamp = f[0] + f[3];
      if (!stamp.equals(lastStamp)) {
        calls.add(new Call(f[0].charAt(0), new java.util.ArrayList<>()));
        lastStamp = stamp;
      }
      calls.get(calls.size() - 1).labels().add(f[1]);
    }
    Map<String, Integer> nodeOf = new java.util.HashMap<>();
    java.util.List<Integer> parent = new java.util.ArrayList<>();
    java.util.List<Long> reads = new java.util.ArrayList<>();
    java.util.function.IntUnaryOperator find = new java.util.function.IntUnaryOperator() {
      @Override
      public int applyAsInt(int x) {
        while (parent.get(x) != x) {
          parent.set(x, parent.get(parent.get(x)));
          x = parent.get(x);
        }
        return x;
      }
    };
    java.util.function.Supplier<Integer> fresh = () -> {
      parent.add(parent.size());
      reads.add(0L);
      return parent.size() - 1;
    };
    java.util.function.Function<String, Integer> node = label -> nodeOf.computeIfAbsent(label, l -> fresh.get());
    java.util.function.BiConsumer<Integer, Integer> union = (a, b) -> {
      int ra = find.applyAsInt(a);
      int rb = find.applyAsInt(b);
      if (ra != rb) {
        parent.set(ra, rb);
        reads.set(rb, reads.get(rb) + reads.get(ra));
      }
    };
    for (int c = 0; c < calls.size(); c++) {
      Call call = calls.get(c);
      Call next = c + 1 < calls.size() ? calls.get(c + 1) : null;
      if (call.kind() != 'R') {
        continue;
      }
      if (next == null || next.kind() != 'W') { // a get: one read of the key's position
        for (String label : call.labels()) {
          int root = find.applyAsInt(node.apply(label));
          reads.set(root, reads.get(root) + 1);
        }
        continue;
      }
      boolean update = call.labels().size() == next.labels().size();
      String current = update ? call.labels().get(0) : null;
      String source = call.labels().get(call.labels().size() - 1);
      if (update) {
        int root = find.applyAsInt(node.apply(current));
        reads.set(root, reads.get(root) + 1);
      }
      union.accept(node.apply(source), node.apply(next.labels().get(1)));
      int sealed = fresh.get(); // a new tenure of the holding slot
      nodeOf.put(next.labels().get(0), sealed);
      if (update) {
        union.accept(sealed, node.apply(current));
      }
      c++;
    }
    Map<String, Long> perLabel = new java.util.HashMap<>();
    for (Map.Entry<String, Integer> e : nodeOf.entrySet()) {
      perLabel.put(e.getKey(), reads.get(find.applyAsInt(e.getValue())));
    }
    return perLabel;
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
    assertTrue(reads.contains("verdict      LEAKS: label accesses are not uniform or persist"), reads);

    // the per-label attack is blurred (hot keys keep moving through holding slots), but the store can
    // follow them: linking each holding slot to the block whose refresh or update reads it recovers hot keys
    DetWoOramClient.LabelOwners owners = DetWoOramClient.labelOwners(dir.resolve("state"),
        io.pancakej.crypto.MasterKey.load(dir.resolve("state").resolve("master.key")));
    Map<String, Long> linked = linkedReadCounts(trace);
    Map<String, Long> perHome = new LinkedHashMap<>();
    Map<String, String> owner = new java.util.HashMap<>();
    for (int i = 0; i < KEYS; i++) {
      String label = java.util.HexFormat.of().formatHex(owners.labels().get(i));
      perHome.put(label, linked.getOrDefault(label, 0L));
      owner.put(label, new String(owners.keys().get(i), StandardCharsets.UTF_8));
    }
    java.util.List<String> byPopularity = new java.util.ArrayList<>(distribution.keySet());
    java.util.List<AuditStats.AttackResult> attack = AuditStats.attack(perHome, owner, byPopularity, 10, 100);
    System.out.println("linking attack on detworam's A-like transcript: " + attack);
    assertTrue(attack.get(0).beatsChance() && attack.get(0).recovered() >= 5, attack.toString());

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
