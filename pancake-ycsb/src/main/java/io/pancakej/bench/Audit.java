package io.pancakej.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;

import io.pancakej.distribution.DistributionFile;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code bin/audit}: what an adversary holding a transcript learns. Reads a transcript
 * ({@code pancake.trace.file}) and the true key distribution, and prints the uniformity of label
 * accesses and the success of a frequency-analysis attack against chance.
 *
 * <p>Which lines count: by default the {@code R} lines, after skipping {@code --skip-lines}
 * lines. Every scheme here reads a label before it writes it on every request (PANCAKE reads and
 * writes back each of its B labels; the baselines' updates are read-modify-write), so reads are
 * the access frequency and writes would only double-count them. The load phase writes each label
 * once whatever the distribution, which dilutes nothing for reads but is a different experiment:
 * trace the run phase into its own file (as bin/bench does), or skip the load phase's lines.
 */
@Command(name = "audit", mixinStandardHelpOptions = true,
    description = "Audits a transcript: label-access uniformity and a frequency-analysis attack.")
public final class Audit implements Callable<Integer> {
  @Option(names = "--transcript", required = true, description = "transcript file (pancake.trace.file)")
  Path transcript;

  @Option(names = "--distribution", required = true,
      description = "true key distribution: weight<TAB>key lines (bin/distribution writes one for a YCSB workload)")
  Path distribution;

  @Option(names = "--scheme", required = true, description = "insecure, encrypted, pancake or pathoram (for the ground truth)")
  String scheme;

  @Option(names = "--state-dir", description = "the scheme's pancake.state.dir (master key; pancake's state.bin)")
  Path stateDir;

  @Option(names = "--key-file", description = "master key file, if not <state-dir>/master.key")
  Path keyFile;

  @Option(names = "--skip-lines", defaultValue = "0", description = "ignore the first N transcript lines (e.g. the load phase)")
  long skipLines;

  @Option(names = "--ops", defaultValue = "R", description = "which operations count: R (default), W, RW")
  String ops;

  @Option(names = "--top", split = ",", defaultValue = "1,10,100,1000", description = "k values for the attack")
  int[] top;

  private final PrintStream out;

  Audit(PrintStream out) {
    this.out = out;
  }

  public Audit() {
    this(System.out);
  }

  public static void main(String[] args) {
    System.exit(new CommandLine(new Audit()).execute(args));
  }

  /** Accesses per label hex, counting the selected operations after the skipped lines. */
  static Map<String, Long> readTranscript(Path file, long skipLines, String ops) throws IOException {
    String wanted = ops.toUpperCase(Locale.ROOT);
    Map<String, Long> counts = new HashMap<>();
    try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.US_ASCII)) {
      String line;
      long n = 0;
      while ((line = in.readLine()) != null) {
        if (n++ < skipLines || line.length() < 3) {
          continue;
        }
        if (wanted.indexOf(line.charAt(0)) < 0) {
          continue;
        }
        int end = line.indexOf(' ', 2);
        String label = end < 0 ? line.substring(2) : line.substring(2, end);
        counts.merge(label, 1L, Long::sum);
      }
    }
    return counts;
  }

  @Override
  public Integer call() throws IOException {
    Map<String, Double> weights = DistributionFile.read(distribution);
    List<String> keys = new ArrayList<>(weights.keySet());
    keys.sort(Comparator.<String>comparingDouble(weights::get).reversed().thenComparing(Comparator.naturalOrder()));
    Map<String, Long> counts = readTranscript(transcript, skipLines, ops);
    if (counts.isEmpty()) {
      out.println("audit: no " + ops + " lines in " + transcript + " after " + skipLines + " skipped lines");
      return 1;
    }
    GroundTruth truth = GroundTruth.of(scheme, keys, stateDir, keyFile);
    Set<String> universe = new LinkedHashSet<>(truth.labels());
    universe.addAll(counts.keySet());
    Map<String, Long> all = new HashMap<>();
    for (String label : universe) {
      all.put(label, counts.getOrDefault(label, 0L));
    }
    long total = counts.values().stream().mapToLong(Long::longValue).sum();
    out.printf(Locale.ROOT, "transcript   %s (%s lines after %d skipped): %d accesses to %d distinct labels%n",
        transcript, ops, skipLines, total, counts.size());
    out.printf(Locale.ROOT, "scheme       %s; %d keys in the distribution; %d labels in the universe%n",
        scheme, keys.size(), universe.size());

    AuditStats.Uniformity u = AuditStats.uniformity(AuditStats.countsOver(universe, counts));
    out.printf(Locale.ROOT, "uniformity   chi-square %.1f on %d df, p = %.3g; max/min count %s (max %d, min %d, mean %.1f)%n",
        u.chiSquare(), u.cells() - 1, u.pValue(),
        Double.isInfinite(u.maxMinRatio()) ? "inf" : String.format(Locale.ROOT, "%.2f", u.maxMinRatio()),
        u.max(), u.min(), (double) u.total() / u.cells());
    if ((double) u.total() / u.cells() < 5) {
      out.println("             (fewer than 5 accesses per label on average: the chi-square approximation is rough)");
    }
    boolean leak = u.pValue() < 1e-3;
    if ("pathoram".equalsIgnoreCase(scheme)) {
      out.println("             (Path ORAM reads whole root-to-leaf paths: a bucket's frequency depends on its tree level,"
          + " so non-uniformity across all buckets is expected and is not a leak of keys)");
      leak = false;
    }

    List<AuditStats.AttackResult> attack = AuditStats.attack(all, truth.owner(), keys, top);
    boolean attackWins = false;
    if (truth.owner().isEmpty()) {
      out.println("attack       labels belong to no key (buckets): nothing to recover");
    }
    for (AuditStats.AttackResult a : attack) {
      out.printf(Locale.ROOT, "attack       top-%-5d recovered %5d of %-5d  (chance %.3f, p = %.3g)%s%n",
          a.k(), a.recovered(), a.k(), a.chance(), a.pValue(), a.beatsChance() ? "  BEYOND CHANCE" : "");
      attackWins |= a.beatsChance();
    }
    if ("pathoram".equalsIgnoreCase(scheme) && !attackWins) {
      out.println("verdict      no key leakage detected: bucket labels belong to no key and every access reads one uniformly random path");
    } else if (leak || attackWins) {
      out.println("verdict      LEAKS: " + (leak ? "label accesses are not uniform (p < 0.001)" : "")
          + (leak && attackWins ? "; " : "") + (attackWins ? "frequency analysis recovers keys beyond chance" : ""));
    } else {
      out.println("verdict      no leakage detected: uniform label accesses and an attack no better than chance");
    }
    return 0;
  }
}
