package io.pancakej.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.pancakej.distribution.DistributionFile;
import io.pancakej.ycsb.EncryptedBinding;
import io.pancakej.ycsb.PancakeBinding;
import io.pancakej.ycsb.WorkloadDistribution;
import io.pancakej.ycsb.YcsbProcess;
import picocli.CommandLine;

/**
 * The default path a new user runs, attacked as the audit would: {@code ycsb load} then
 * {@code ycsb run} of workload C (zipfian) with nothing but a trace file set, on the default
 * embedded RocksDB. PANCAKE's transcript must pass the audit (uniform label reads, no label
 * persistently hot across the two halves, the frequency attack at chance), and the same audit on
 * {@code encrypted} must fail, so the audit has teeth.
 *
 * <p>What it caught: the binding used to start every state from a uniform estimate, so a default
 * zipfian run was not smoothed at all (chi-square p = 0, split-half rank correlation ~0.3);
 * every reopen read a fixed canary label, a label of its own in the run's transcript; and every
 * insert of the load read its own key's label, so the labels the load never read were all dummies
 * (0 key labels and 616 dummies on the code before the fix, about half and half after).
 */
class DefaultPathAuditTest {
  private static final int RECORDS = 2000;
  private static final int OPERATIONS = 40_000;
  private static final int THREADS = 4;

  @TempDir
  Path dir;

  private String audit(String scheme, Path transcript, Path distribution) {
    return audit(dir, scheme, transcript, distribution);
  }

  private String audit(Path base, String scheme, Path transcript, Path distribution) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
    int code = new CommandLine(new Audit(out)).execute("--transcript", transcript.toString(), "--distribution",
        distribution.toString(), "--scheme", scheme, "--state-dir", base.resolve("data").resolve(scheme).resolve("state")
            .toString(), "--chunk", "30000");
    String text = bytes.toString(StandardCharsets.UTF_8);
    assertEquals(0, code, text);
    System.out.println("--- audit of " + scheme + " (" + transcript.getFileName() + ")\n" + text);
    return text;
  }

  private YcsbProcess.Result ycsb(String phase, String db, Path trace) throws Exception {
    return ycsb(dir, phase, db, trace);
  }

  private YcsbProcess.Result ycsb(Path base, String phase, String db, Path trace) throws Exception {
    return ycsb(base, phase, db, trace, Map.of());
  }

  private YcsbProcess.Result ycsb(Path base, String phase, String db, Path trace, Map<String, String> extra)
      throws Exception {
    Map<String, String> props = new LinkedHashMap<>();
    props.put("recordcount", Integer.toString(RECORDS));
    props.put("operationcount", Integer.toString(OPERATIONS));
    props.put("pancake.trace.file", trace.toString());
    props.putAll(extra);
    YcsbProcess.Result r = YcsbProcess.run(base, phase, db, "workloadc", THREADS, props);
    assertEquals(0, r.exitCode(), r.toString());
    return r;
  }

  private static boolean passes(String audit) {
    return audit.contains("verdict      no leakage detected") && audit.contains("timeline     0 chunk(s) with a popularity signal");
  }

  /** The audits of one pancake load and of the run after it. */
  private record Audits(String load, String run) {
    boolean pass() {
      return load.contains("verdict      no leakage detected") && passes(run);
    }
  }

  /** Load then run pancake under {@code base}; returns both transcripts' audits. */
  private Audits pancakeRun(Path base, Path distribution) throws Exception {
    java.nio.file.Files.createDirectories(base);
    YcsbProcess.Result load = ycsb(base, "load", PancakeBinding.class.getName(), base.resolve("pancake-load.trace"));
    assertTrue(load.stderr().contains("[pancake] estimate: the workload: YCSB load phase")
        && load.stderr().contains("under the run's estimate (requestdistribution=zipfian"), load.toString());
    assertLoadKeepsKeyLabelsAmongTheUnread(base.resolve("data").resolve("pancake").resolve("state"),
        base.resolve("pancake-load.trace"));
    YcsbProcess.Result run = ycsb(base, "run", PancakeBinding.class.getName(), base.resolve("pancake-run.trace"));
    assertTrue(run.stderr().contains("[pancake] estimate: the workload: YCSB run phase, requestdistribution=zipfian"),
        run.toString());
    return new Audits(audit(base, "pancake", base.resolve("pancake-load.trace"), distribution),
        audit(base, "pancake", base.resolve("pancake-run.trace"), distribution));
  }

  /**
   * The labels a load never read are key labels and dummies in the proportion of all labels
   * (ground truth read after the load). While a put read its own key's replica, every key's label
   * was read at its insert and the unread labels were all dummies (security.md, "the load").
   */
  private static void assertLoadKeepsKeyLabelsAmongTheUnread(Path state, Path trace) throws java.io.IOException {
    Map<String, Long> reads = Audit.readTranscript(trace, 0, "R");
    GroundTruth truth = GroundTruth.pancake(state, io.pancakej.crypto.MasterKey.load(state.resolve("master.key")));
    int keyLabels = 0;
    int others = 0;
    for (String label : truth.labels()) {
      if (!reads.containsKey(label)) {
        if (truth.owner().containsKey(label)) {
          keyLabels++;
        } else {
          others++;
        }
      }
    }
    // the load runs under the run's estimate (zipfian): more key labels than dummies, in that proportion
    double expected = truth.owner().size() / (double) truth.labels().size();
    System.out.printf("--- load: labels never read: %d key labels, %d dummies (key labels are %.3f of all)%n",
        keyLabels, others, expected);
    assertTrue(keyLabels + others > 100, "too few unread labels to judge: " + keyLabels + " + " + others);
    double share = keyLabels / (double) (keyLabels + others);
    assertTrue(Math.abs(share - expected) < 0.15, "the load's unread labels are " + keyLabels + " key labels and "
        + others + " dummies, against a share of " + expected + " of all labels: the store tells key labels from dummies");
  }

  /** The true key distribution of a YCSB zipfian run over the records, as the audit reads it. */
  private Path zipfianDistribution(String file) throws java.io.IOException {
    Properties workload = new Properties();
    workload.setProperty("recordcount", Integer.toString(RECORDS));
    workload.setProperty("requestdistribution", "zipfian");
    Path distribution = dir.resolve(file);
    DistributionFile.write(distribution, WorkloadDistribution.weights(workload));
    return distribution;
  }

  @Test
  void defaultZipfianRun_passesTheAuditForPancake_andFailsItForEncrypted() throws Exception {
    Path distribution = zipfianDistribution("workloadc.dist");

    Audits audits = pancakeRun(dir, distribution);
    if (!audits.pass()) {
      // each load and run makes about a dozen tests at p < 0.001 (whole transcript, chunks, repeats): about
      // 1 % of clean pairs flag one by chance (CI once failed on the load's chi-square, p = 0.000173; 24
      // fresh loads after it gave p 0.037-0.987). A leak shows again in an independent load and run (the
      // uniform-estimate bug was at p = 0 in every chunk); chance does not, so a flag is judged on a
      // second pair in a fresh directory
      System.out.println("--- the first load or run flagged a statistic; judging an independent second pair");
      audits = pancakeRun(dir.resolve("again"), distribution);
    }
    assertTrue(audits.load().contains("verdict      no leakage detected"), audits.load());
    String pancake = audits.run();
    assertTrue(pancake.contains("verdict      no leakage detected"), pancake);
    assertTrue(pancake.contains("timeline     0 chunk(s) with a popularity signal"), pancake);
    // the store is asked for its 2n replica labels and nothing else: the canary that every open
    // used to read was a 4001st label, read once against ~30 reads of every other one
    assertTrue(pancake.contains("; " + 2 * RECORDS + " labels in the universe"), pancake);

    // independent requests: labels come back within a few calls no more often than chance
    assertTrue(pancake.contains("repeats      ") && !pancake.contains("CORRELATED"), pancake);

    ycsb("load", EncryptedBinding.class.getName(), dir.resolve("encrypted-load.trace"));
    ycsb("run", EncryptedBinding.class.getName(), dir.resolve("encrypted-run.trace"));
    String encrypted = audit("encrypted", dir.resolve("encrypted-run.trace"), distribution);
    assertTrue(encrypted.contains("verdict      LEAKS"), encrypted);
  }

  /**
   * The known limit, pinned: correlated requests are outside PANCAKE's guarantee (paper section 7),
   * and the commonest correlation, a read and then the update of the same key (YCSB's
   * read-modify-write, workload F's mix), shows. A key with one replica answers both from the same
   * label a few calls apart, so labels repeat at short range far more often than independent
   * accesses would, while the count tests see little. The audit's repeat test must flag it (the
   * test that passes workload C above has teeth), and the binding must say so at open.
   */
  @Test
  void readModifyWrite_showsAsShortRangeRepeats_andTheBindingSaysSo() throws Exception {
    Path distribution = zipfianDistribution("workloadf.dist");
    Map<String, String> mix = Map.of("readproportion", "0.5", "readmodifywriteproportion", "0.5",
        "operationcount", Integer.toString(OPERATIONS / 4));
    String binding = PancakeBinding.class.getName();
    ycsb(dir, "load", binding, dir.resolve("rmw-load.trace"), mix);
    YcsbProcess.Result run = ycsb(dir, "run", binding, dir.resolve("rmw-run.trace"), mix);
    assertTrue(run.stderr().contains("[pancake] note: readmodifywriteproportion=0.5"), run.toString());
    String audit = audit("pancake", dir.resolve("rmw-run.trace"), distribution);
    assertTrue(audit.contains("CORRELATED"), audit);
    assertTrue(audit.contains("verdict      LEAKS"), audit);
  }
}
