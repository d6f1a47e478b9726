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
 * DetWoORAM is the exception: it hides writes and not reads, and its writes go to positions set
 * by a write counter rather than read-modify-write of the key's label; audit them with
 * {@code --kinds W} (bin/bench does both for it). Its R audit adds a linking attack
 * ({@link DetWoOramLinks}): per-label counts blur a hot key whose copies move through holding
 * slots, but the store can follow them.
 *
 * <p>A transcript with timestamps (the fourth column) also gets the stopwatch attack
 * ({@link TimingAudit}), with a verdict line of its own: the first verdict is about which labels
 * are read, the timing one about when calls leave.
 */
@Command(name = "audit", mixinStandardHelpOptions = true,
    description = "Audits a transcript: label-access uniformity and a frequency-analysis attack; with timestamps"
        + " (the fourth column), the stopwatch attack too, with a verdict line of its own.")
public final class Audit implements Callable<Integer> {
  @Option(names = "--transcript", required = true, description = "transcript file (pancake.trace.file)")
  Path transcript;

  @Option(names = "--distribution", required = true,
      description = "true key distribution: weight<TAB>key lines (bin/distribution writes one for a YCSB workload)")
  Path distribution;

  @Option(names = "--scheme", required = true, description = "insecure, encrypted, pancake, pathoram or detworam (for the ground truth)")
  String scheme;

  @Option(names = "--state-dir", description = "the scheme's pancake.state.dir (master key; pancake's state.bin)")
  Path stateDir;

  @Option(names = "--key-file", description = "master key file, if not <state-dir>/master.key")
  Path keyFile;

  @Option(names = "--skip-lines", defaultValue = "0", description = "ignore the first N transcript lines (e.g. the load phase)")
  long skipLines;

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  /** Which store operations count, by their transcript letter: R, W or RW. */
  String kinds;

  @Option(names = "--kinds", defaultValue = "R", paramLabel = "R|W|RW",
      description = "which store operations count: R (reads, default), W (writes) or RW (both)")
  void kinds(String value) {
    String k = value.trim().toUpperCase(Locale.ROOT);
    if (!k.equals("R") && !k.equals("W") && !k.equals("RW") && !k.equals("WR")) {
      throw new CommandLine.ParameterException(spec.commandLine(), "--kinds must be R, W or RW, got '" + value + "'");
    }
    kinds = k;
  }

  /** The old name of {@code --kinds}, kept hidden for old command lines (in bench and compare {@code --ops} is a count). */
  @Option(names = "--ops", hidden = true, paramLabel = "R|W|RW")
  void deprecatedOps(String value) {
    spec.commandLine().getErr().println("pancake audit: --ops is deprecated here, use --kinds " + value);
    kinds(value);
  }

  @Option(names = "--top", split = ",", defaultValue = "1,10,100,1000", description = "k values for the attack")
  int[] top;

  @Option(names = "--chunk", defaultValue = "0",
      description = "also print the audit of every N accesses, in order: when and for how long a run leaked")
  long chunk;

  int repeatWindow;

  @Option(names = "--repeat-window", defaultValue = "32",
      description = "the repeat test counts accesses that hit a label one of the previous N accesses hit (default 32)")
  void repeatWindow(int value) {
    if (value < 1) {
      throw new CommandLine.ParameterException(spec.commandLine(), "--repeat-window must be at least 1, got " + value);
    }
    repeatWindow = value;
  }

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

  /** The selected accesses of a transcript, in order: label texts and each access's label index. */
  record Accesses(List<String> labels, int[] sequence) {
    /** Accesses per label over {@code universe} (a label list) in {@code [from, to)}. */
    long[] counts(Map<String, Integer> universeIndex, int universeSize, int from, int to) {
      int[] toUniverse = new int[labels.size()];
      for (int i = 0; i < toUniverse.length; i++) {
        toUniverse[i] = universeIndex.get(labels.get(i));
      }
      long[] out = new long[universeSize];
      for (int i = from; i < to; i++) {
        out[toUniverse[sequence[i]]]++;
      }
      return out;
    }
  }

  /** The selected operations after the skipped lines, in transcript order. */
  static Accesses readAccesses(Path file, long skipLines, String kinds) throws IOException {
    String wanted = kinds.toUpperCase(Locale.ROOT);
    Map<String, Integer> index = new HashMap<>();
    List<String> labels = new ArrayList<>();
    int[] sequence = new int[1 << 16];
    int size = 0;
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
        Integer id = index.get(label);
        if (id == null) {
          id = labels.size();
          index.put(label, id);
          labels.add(label);
        }
        if (size == sequence.length) {
          sequence = java.util.Arrays.copyOf(sequence, size * 2);
        }
        sequence[size++] = id;
      }
    }
    return new Accesses(labels, java.util.Arrays.copyOf(sequence, size));
  }

  /** Accesses per label hex, counting the selected operations after the skipped lines. */
  static Map<String, Long> readTranscript(Path file, long skipLines, String kinds) throws IOException {
    Accesses a = readAccesses(file, skipLines, kinds);
    Map<String, Long> counts = new HashMap<>();
    for (int id : a.sequence()) {
      counts.merge(a.labels().get(id), 1L, Long::sum);
    }
    return counts;
  }

  @Override
  public Integer call() throws IOException {
    Map<String, Double> weights = DistributionFile.read(distribution);
    List<String> keys = new ArrayList<>(weights.keySet());
    keys.sort(Comparator.<String>comparingDouble(weights::get).reversed().thenComparing(Comparator.naturalOrder()));
    Accesses accesses = readAccesses(transcript, skipLines, kinds);
    Map<String, Long> counts = new HashMap<>();
    for (int id : accesses.sequence()) {
      counts.merge(accesses.labels().get(id), 1L, Long::sum);
    }
    if (counts.isEmpty()) {
      out.println("audit: no " + kinds + " lines in " + transcript + " after " + skipLines + " skipped lines");
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
        transcript, kinds, skipLines, total, counts.size());
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
    Map<String, Integer> universeIndex = new HashMap<>();
    for (String label : universe) {
      universeIndex.put(label, universeIndex.size());
    }
    int half = accesses.sequence().length / 2;
    AuditStats.Persistence halves = AuditStats.persistence(
        accesses.counts(universeIndex, universe.size(), 0, half),
        accesses.counts(universeIndex, universe.size(), half, accesses.sequence().length), 100);
    double rhoP = persistenceP(halves, universe.size());
    out.printf(Locale.ROOT, "persistence  split halves: rank correlation %.3f (p = %.3g); top-%d labels of the first half"
        + " among the top-%d of the second: %d (chance %.1f)%n", halves.rankCorrelation(), rhoP, halves.top(),
        halves.top(), halves.topOverlap(), halves.chanceOverlap());
    boolean persists = rhoP < 1e-3;
    if ("pathoram".equalsIgnoreCase(scheme)) {
      out.println("             (Path ORAM reads whole root-to-leaf paths: a bucket's frequency depends on its tree level,"
          + " so non-uniformity across all buckets is expected and is not a leak of keys)");
      leak = false;
    }
    if ("detworam".equalsIgnoreCase(scheme)) {
      out.println("             (DetWoORAM hides writes, not reads: --kinds W audits what it hides, its write positions;"
          + " the R lines are its reads, which fetch the one block holding the key)");
    }

    boolean repeats = repeatTest(accesses, universe, universeIndex, truth, weights);
    boolean dummiesApart = dummyTest(universe, counts, truth);

    List<AuditStats.AttackResult> attack = AuditStats.attack(all, truth.owner(), keys, top);
    boolean attackWins = false;
    if (persists && !"pathoram".equalsIgnoreCase(scheme)) {
      leak = true; // the store sees the same labels hot in both halves, with no ground truth needed
    }
    leak |= repeats || dummiesApart;
    if (truth.owner().isEmpty()) {
      out.println("attack       labels belong to no key (buckets): nothing to recover");
    }
    for (AuditStats.AttackResult a : attack) {
      out.printf(Locale.ROOT, "attack       top-%-5d recovered %5d of %-5d  (chance %.3f, p = %.3g)%s%n",
          a.k(), a.recovered(), a.k(), a.chance(), a.pValue(), a.beatsChance() ? "  BEYOND CHANCE" : "");
      attackWins |= a.beatsChance();
    }
    if ("detworam".equalsIgnoreCase(scheme) && kinds.contains("R") && skipLines == 0) {
      attackWins |= linkingAttack(truth, keys);
    }
    if ("pathoram".equalsIgnoreCase(scheme) && !attackWins) {
      out.println("verdict      no key leakage detected: bucket labels belong to no key and every access reads one uniformly random path");
    } else if (leak || attackWins) {
      out.println("verdict      LEAKS: " + (leak ? "label accesses are not uniform, persist, repeat at short range,"
          + " or tell key labels from dummies (p < 0.001)" : "")
          + (leak && attackWins ? "; " : "") + (attackWins ? "frequency analysis recovers keys beyond chance" : ""));
    } else {
      out.println("verdict      no leakage detected: uniform label accesses and an attack no better than chance");
    }
    timing(truth, weights);
    if (chunk > 0) {
      timeline(accesses, universe, universeIndex, truth, keys);
    }
    return 0;
  }

  /**
   * The stopwatch attack ({@link TimingAudit}) on the transcript's timestamps: a verdict of its own,
   * since it tells real accesses from fake ones by when calls leave, not by which labels they read.
   */
  private void timing(GroundTruth truth, Map<String, Double> weights) throws IOException {
    TimingAudit.Result t = TimingAudit.of(transcript, skipLines, truth.owner(), weights);
    if (t == null) {
      out.println("timing       no timestamps (or fewer than 20 calls that read): nothing to time");
      return;
    }
    out.printf(Locale.ROOT, "timing       %d calls, silence after a call median %.1f us, p90 %.1f us; per label, the mean over"
        + " the calls that read it of:%n", t.calls(), t.gapMedianMicros(), t.gapP90Micros());
    for (TimingAudit.Score s : t.scores()) {
      String halves = Double.isNaN(s.splitHalfRho()) ? "split halves: too few labels read 3 times in each half"
          : String.format(Locale.ROOT, "split halves %.3f (z = %.1f, %d labels)", s.splitHalfRho(), s.splitHalfZ(),
              s.splitHalfLabels());
      out.printf(Locale.ROOT, "             %-52s %s%s%n", s.name(), halves, Double.isNaN(s.truthRho()) ? ""
          : String.format(Locale.ROOT, "; against each label's real-access rate (ground truth) %.3f (z = %.1f, %d labels)",
              s.truthRho(), s.truthZ(), s.truthLabels()));
    }
    if (t.leaks()) {
      out.printf(Locale.ROOT, "timing       LEAKS: the %s follows the real accesses in a call (|z| > %.0f;"
          + " docs/security.md, \"The callers a tick wakes\", \"The work before a call\")%n",
          t.strongest().silence(), TimingAudit.LEAK_Z);
    } else {
      out.printf(Locale.ROOT, "timing       no timing leak detected (|z| <= %.0f)%n", TimingAudit.LEAK_Z);
    }
  }

  /**
   * The repeat test (what a store sees without any ground truth: labels that come back within a
   * few calls) and, with the ground truth, whether a label's repeats follow its key's popularity.
   * Returns whether the repeats count as a leak: more than chance does; fewer (the order of a
   * load's inserts) is reported, not counted. Not judged for Path ORAM (every path reads the root
   * bucket) nor DetWoORAM (its reads fetch the key's own block, its writes move on in order), where
   * how labels repeat is the scheme's design, which the notes above describe.
   */
  private boolean repeatTest(Accesses accesses, Set<String> universe, Map<String, Integer> universeIndex,
      GroundTruth truth, Map<String, Double> weights) {
    if (universe.size() < 2) {
      return false; // the uniformity test above already refused a single label
    }
    int[] sequence = new int[accesses.sequence().length];
    for (int i = 0; i < sequence.length; i++) {
      sequence[i] = universeIndex.get(accesses.labels().get(accesses.sequence()[i]));
    }
    AuditStats.Repeats r = AuditStats.repeats(sequence, universe.size(), repeatWindow);
    if ("pathoram".equalsIgnoreCase(scheme) || "detworam".equalsIgnoreCase(scheme)) {
      out.printf(Locale.ROOT, "repeats      %d accesses hit a label one of the previous %d hit (%.0f expected of independent"
          + " accesses; not judged for %s: how its labels repeat is its design)%n", r.observed(), r.window(), r.expected(),
          scheme);
      return false;
    }
    out.printf(Locale.ROOT, "repeats      %d accesses hit a label one of the previous %d hit (%.0f expected of independent"
        + " accesses with the same label counts, ratio %.2f, p = %.3g)%s%n", r.observed(), r.window(), r.expected(),
        r.ratio(), r.pValue(), r.excess() ? "  CORRELATED" : r.significant() ? "  FEWER THAN CHANCE" : "");
    if (r.significant() && !r.excess()) {
      out.println("             (fewer repeats than chance: requests that never repeat a key, such as a load inserting"
          + " each record once, do that; not counted as a leak of popularity)");
    }
    if (r.excess() && !truth.owner().isEmpty()) {
      // ground truth: do a label's repeats follow its key's weight (0 for labels of no key)?
      double[] counts = new double[universe.size()];
      double[] weight = new double[universe.size()];
      int i = 0;
      for (String label : universe) {
        counts[i] = r.perLabel()[i];
        String key = truth.owner().get(label);
        weight[i++] = key == null ? 0 : weights.getOrDefault(key, 0.0);
      }
      double rho = new org.apache.commons.math3.stat.correlation.SpearmansCorrelation().correlation(counts, weight);
      out.printf(Locale.ROOT, "             (ground truth: rank correlation of a label's repeats with its key's weight %.3f;"
          + " for pancake, docs/security.md, \"Correlated queries\")%n", Double.isNaN(rho) ? 0 : rho);
    }
    return r.excess();
  }

  /**
   * PANCAKE only, with the ground truth: are the labels of keys read like the labels of no key
   * (dummies, unused key slots)? Smoothing gives every replica slot the same access probability,
   * whoever owns it, so the two groups' counts must have one distribution. Catches what uniformity
   * tests for popularity miss: a load that read each key's label once, at its insert, left key
   * labels with counts of at least 1 and only dummies unread (docs/security.md, "the load"); a
   * read-modify-write mix gives key labels more reads.
   */
  private boolean dummyTest(Set<String> universe, Map<String, Long> counts, GroundTruth truth) {
    if (!"pancake".equalsIgnoreCase(scheme)) {
      return false;
    }
    List<Long> keyLabels = new ArrayList<>();
    List<Long> others = new ArrayList<>();
    for (String label : universe) {
      (truth.owner().containsKey(label) ? keyLabels : others).add(counts.getOrDefault(label, 0L));
    }
    AuditStats.Homogeneity h = AuditStats.homogeneity(keyLabels.stream().mapToLong(Long::longValue).toArray(),
        others.stream().mapToLong(Long::longValue).toArray());
    if (h.bins() < 2) {
      out.printf(Locale.ROOT, "dummies      %d key labels, %d labels of no key: too few to compare%n", h.labelsA(),
          h.labelsB());
      return false;
    }
    out.printf(Locale.ROOT, "dummies      key labels vs labels of no key (ground truth): never read %d of %d vs %d of %d;"
        + " count histograms chi-square %.1f on %d df, p = %.3g%s%n", h.zeroA(), h.labelsA(), h.zeroB(), h.labelsB(),
        h.chiSquare(), h.bins() - 1, h.pValue(), h.apart() ? "  APART" : "");
    return h.apart();
  }

  /**
   * DetWoORAM only: the frequency attack on reads credited to main positions through the links
   * the store sees (refresh and update reads, {@link DetWoOramLinks}), instead of per label.
   */
  private boolean linkingAttack(GroundTruth truth, List<String> keys) throws IOException {
    Map<String, Long> perHome = DetWoOramLinks.readsPerHome(transcript);
    if (perHome.isEmpty()) {
      return false;
    }
    boolean wins = false;
    for (AuditStats.AttackResult a : AuditStats.attack(perHome, truth.owner(), keys, top)) {
      out.printf(Locale.ROOT, "linking      top-%-5d recovered %5d of %-5d  (chance %.3f, p = %.3g)%s%n",
          a.k(), a.recovered(), a.k(), a.chance(), a.pValue(), a.beatsChance() ? "  BEYOND CHANCE" : "");
      wins |= a.beatsChance();
    }
    out.println("             (linking: reads credited to the " + perHome.size() + " main positions the run refreshed,"
        + " following each holding slot to the block whose refresh or update read it)");
    return wins;
  }

  /**
   * The audit of each chunk of {@code --chunk} accesses, in order: uniformity within the chunk,
   * the rank correlation of its label counts with the next chunk's (the store's own view: do the
   * same labels stay hot?), and the top-100 attack with the ground truth.
   */
  private void timeline(Accesses accesses, Set<String> universe, Map<String, Integer> universeIndex,
      GroundTruth truth, List<String> keys) {
    int total = accesses.sequence().length;
    out.printf(Locale.ROOT, "timeline     chunks of %d accesses (signal: chi-square, correlation with the next"
        + " chunk or the attack at p < 0.001)%n", chunk);
    int leaking = 0;
    long lastLeakEnd = 0;
    long[] next = null;
    for (long from = 0; from < total; from += chunk) {
      int to = (int) Math.min(total, from + chunk);
      long[] c = next != null ? next : accesses.counts(universeIndex, universe.size(), (int) from, to);
      int nextTo = (int) Math.min(total, to + chunk);
      next = to < total ? accesses.counts(universeIndex, universe.size(), to, nextTo) : null;
      AuditStats.Uniformity u = AuditStats.uniformity(c);
      String persistence = "";
      boolean persists = false;
      if (next != null && nextTo - to == to - from) {
        AuditStats.Persistence p = AuditStats.persistence(c, next, 100);
        double rhoP = persistenceP(p, universe.size());
        persists = rhoP < 1e-3;
        persistence = String.format(Locale.ROOT, "corr with next %.3f (p = %.2g)", p.rankCorrelation(), rhoP);
      }
      Map<String, Long> chunkCounts = new HashMap<>();
      int i = 0;
      for (String label : universe) {
        chunkCounts.put(label, c[i++]);
      }
      boolean attack = false;
      String attackText = "";
      if (!truth.owner().isEmpty()) {
        AuditStats.AttackResult a = AuditStats.attack(chunkCounts, truth.owner(), keys, 100).get(0);
        attack = a.beatsChance();
        attackText = String.format(Locale.ROOT, "top-%d attack %d (chance %.1f)", a.k(), a.recovered(), a.chance());
      }
      boolean pathoram = "pathoram".equalsIgnoreCase(scheme);
      boolean signal = attack || (!pathoram && (u.pValue() < 1e-3 || persists));
      if (signal) {
        leaking++;
        lastLeakEnd = to;
      }
      out.printf(Locale.ROOT, "  [%9d, %9d)  chi-square p = %-9.3g %-32s %-28s %s%n", from, to, u.pValue(), persistence,
          attackText, signal ? "SIGNAL" : "clean");
    }
    out.printf(Locale.ROOT, "timeline     %d chunk(s) with a popularity signal; the last one ends at access %d%n",
        leaking, lastLeakEnd);
  }

  /** One-sided p-value of a rank correlation this large among {@code labels} equally likely labels. */
  static double persistenceP(AuditStats.Persistence p, int labels) {
    double z = p.rankCorrelation() * Math.sqrt(labels - 1.0);
    return 1 - new org.apache.commons.math3.distribution.NormalDistribution().cumulativeProbability(z);
  }
}
