package io.pancakej.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.pancakej.distribution.DistributionFile;
import picocli.CommandLine;

/**
 * The stopwatch attack of {@code bin/audit} on synthetic PANCAKE-like transcripts: every label read
 * equally often (real slots on key labels by their rate, fake slots compensating), calls on a
 * 150-us grid with jitter. The leaking one lengthens the silence after a call by 4 us per real
 * access in it, as woken callers delay the next call on a busy machine (security.md, "The callers
 * a tick wakes"); the clean one does not. The attack must catch the first and pass the second.
 */
class TimingAuditTest {
  private static final int KEYS = 500;
  private static final int DUMMIES = 500;
  private static final int CALLS = 30_000;
  private static final int READS = 6;

  @TempDir
  Path dir;

  private final Map<String, String> owner = new HashMap<>();
  private final Map<String, Double> weights = new LinkedHashMap<>();

  /** Keys 0..KEYS-1 with zipf(1) weights, one label each, and DUMMIES labels of no key. */
  private void plan() {
    double sum = 0;
    for (int k = 0; k < KEYS; k++) {
      sum += 1.0 / (k + 1);
    }
    for (int k = 0; k < KEYS; k++) {
      weights.put("user" + k, 1.0 / (k + 1) / sum);
      owner.put(label(k), "user" + k);
    }
  }

  /** A key's label is its name's hex (as insecure's ground truth has it); a dummy's is of no key. */
  private static String label(int i) {
    return i < KEYS ? java.util.HexFormat.of().formatHex(("user" + i).getBytes(StandardCharsets.UTF_8))
        : String.format("dd%030x", i);
  }

  /**
   * Calls of READS reads: each real with probability 1/2 (a key label drawn by weight), else fake
   * (a label drawn to even the counts out: mostly dummies and rare keys). The gap after a call is
   * 150 us, plus up to 40 us of jitter, plus {@code perReal} ns for each real read in it.
   */
  private Path transcript(String name, long perReal, long seed) throws IOException {
    return transcript(name, perReal, 1, seed);
  }

  /** As above, the silence {@code lag - 1} calls later moved by the real reads of a call. */
  private Path transcript(String name, long perReal, int lag, long seed) throws IOException {
    return transcript(name, perReal, lag, 0, seed);
  }

  /**
   * As above, and each call issued {@code ownLateness} ns later per real read in it, the calls after
   * it kept on their times (a build that grows with its real slots, sent when it ends).
   */
  private Path transcript(String name, long perReal, int lag, long ownLateness, long seed) throws IOException {
    int labels = KEYS + DUMMIES;
    double[] real = new double[labels];
    double[] fake = new double[labels];
    for (int k = 0; k < KEYS; k++) {
      real[k] = weights.get("user" + k);
    }
    // each label read 1/labels of the time overall: fake rate = (2/labels - real) where positive
    double fakeSum = 0;
    for (int i = 0; i < labels; i++) {
      fake[i] = Math.max(0, 2.0 / labels - real[i]);
      fakeSum += fake[i];
    }
    double[] realCdf = cdf(real, 1);
    double[] fakeCdf = cdf(fake, fakeSum);
    SplittableRandom rnd = new SplittableRandom(seed);
    Path file = dir.resolve(name);
    long at = 1_000_000;
    long[] moved = new long[CALLS + lag];
    try (Writer w = Files.newBufferedWriter(file, StandardCharsets.US_ASCII)) {
      for (int c = 0; c < CALLS; c++) {
        int reals = 0;
        StringBuilder lines = new StringBuilder();
        for (int r = 0; r < READS; r++) {
          boolean isReal = rnd.nextBoolean();
          reals += isReal ? 1 : 0;
          int i = draw(isReal ? realCdf : fakeCdf, rnd.nextDouble());
          lines.append("R ").append(label(i)).append(" 64 @\n").append("W ").append(label(i)).append(" 64 @\n");
        }
        w.write(lines.toString().replace("@", Long.toString(at + ownLateness * reals)));
        moved[c + lag - 1] += perReal * reals;
        at += 150_000 + rnd.nextLong(40_000) + moved[c];
      }
    }
    return file;
  }

  private static double[] cdf(double[] p, double sum) {
    double[] c = new double[p.length];
    double acc = 0;
    for (int i = 0; i < p.length; i++) {
      acc += p[i] / sum;
      c[i] = acc;
    }
    return c;
  }

  private static int draw(double[] cdf, double u) {
    int i = java.util.Arrays.binarySearch(cdf, u);
    return Math.min(cdf.length - 1, i >= 0 ? i : -i - 1);
  }

  @Test
  void silenceThatFollowsRealAccesses_isCaught() throws IOException {
    plan();
    TimingAudit.Result t = attack(transcript("leaky.trace", 4_000, 1));
    TimingAudit.Score flag = t.score(TimingAudit.Feature.LONGEST_TENTH, 1);
    System.out.printf("timing audit, leaking transcript: %s%n", flag);
    assertTrue(flag.truthZ() > 2 * TimingAudit.LEAK_Z, "the ground-truth attack missed a 4-us-per-real-access leak: " + t);
    assertTrue(t.score(TimingAudit.Feature.RANK, 1).truthZ() > 2 * TimingAudit.LEAK_Z, t.toString());
    assertTrue(t.leaks(), t.toString());
  }

  @Test
  void silenceThatShrinksWithRealAccesses_isCaughtToo() throws IOException {
    plan();
    // one thread keeping requests in flight gave this sign (results/timing/wake-contention)
    TimingAudit.Result t = attack(transcript("shrinking.trace", -4_000, 3));
    assertTrue(t.score(TimingAudit.Feature.LONGEST_TENTH, 1).truthZ() < -2 * TimingAudit.LEAK_Z,
        "the attack missed a silence that shrinks with real accesses: " + t);
    assertTrue(t.leaks(), t.toString());
  }

  @Test
  void silenceTwoCallsLater_isCaught() throws IOException {
    plan();
    // answers held back to the next call, or callers waiting on the core, moved the leak there
    TimingAudit.Result t = attack(transcript("later.trace", -4_000, 2, 4));
    assertTrue(Math.abs(t.score(TimingAudit.Feature.LONGEST_TENTH, 1).truthZ()) < 4, "lag 1 should be clean here: " + t);
    assertEquals(2, t.strongest().lag(), t.toString());
    assertTrue(t.score(TimingAudit.Feature.LONGEST_TENTH, 2).truthZ() < -2 * TimingAudit.LEAK_Z,
        "the attack missed a leak one call later: " + t);
    assertTrue(t.leaks(), t.toString());
  }

  /**
   * A call that leaves later the more real accesses it carries (its build, sent when it ends), and
   * the silence after it longer by as much (the callers it woke): the silence after a call then
   * carries both, which cancel, while the silence before it carries the first alone. That is what
   * the default path showed before the release time (results/timing/wake-contention/review), made
   * larger here (1.5 us per real read against up to 40 us of jitter) so that 30 000 calls show it.
   * The rank of the silence before a call finds it; the top-tenth flags of the silences after a
   * call, all this audit had before, do not.
   */
  @Test
  void callThatLeavesLateWithItsRealAccesses_isCaughtByTheSilenceBeforeIt() throws IOException {
    plan();
    TimingAudit.Result t = attack(transcript("late.trace", 1_500, 1, 1_500, 6));
    TimingAudit.Score before = t.score(TimingAudit.Feature.RANK, 0);
    System.out.printf("timing audit, a call's own lateness: %s%n", before);
    assertTrue(before.truthZ() > 2 * TimingAudit.LEAK_Z, "the rank of the silence before a call missed it: " + t);
    for (int lag = 1; lag <= TimingAudit.LAGS; lag++) {
      TimingAudit.Score flag = t.score(TimingAudit.Feature.LONGEST_TENTH, lag);
      assertFalse(flag.leaks(), "the top-tenth flags were meant to miss this one: " + flag);
    }
    assertTrue(t.leaks(), t.toString());
  }

  @Test
  void silenceOfTheClockAlone_passes() throws IOException {
    plan();
    for (long seed = 1; seed <= 3; seed++) {
      TimingAudit.Result t = attack(transcript("clean" + seed + ".trace", 0, seed));
      System.out.printf("timing audit, clean transcript %d: strongest %s%n", seed, t.strongest());
      assertEquals(TimingAudit.LAGS + TimingAudit.LAGS + 1, t.scores().size(), t.toString());
      for (TimingAudit.Score s : t.scores()) {
        assertTrue(Math.abs(s.truthZ()) < 4 && Math.abs(s.splitHalfZ()) < 4, s.toString());
      }
      assertFalse(t.leaks(), t.toString());
    }
  }

  /** The attack on {@code trace} with the plan's ground truth (a transcript with timestamps: never null). */
  private TimingAudit.Result attack(Path trace) throws IOException {
    TimingAudit.Result t = TimingAudit.of(trace, 0, owner, weights);
    assertNotNull(t);
    return t;
  }

  /** {@code bin/audit --scheme insecure} of {@code trace} under the plan's weights (exit code 0 asserted). */
  private String audit(Path trace) throws IOException {
    Path distribution = dir.resolve("dist.tsv");
    DistributionFile.write(distribution, weights);
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    int code = new CommandLine(new Audit(new PrintStream(bytes, true, StandardCharsets.UTF_8))).execute(
        "--transcript", trace.toString(), "--distribution", distribution.toString(), "--scheme", "insecure");
    String text = bytes.toString(StandardCharsets.UTF_8);
    assertEquals(0, code, text);
    return text;
  }

  @Test
  void auditCommand_givesTimingAVerdictOfItsOwn() throws IOException {
    plan();
    String text = audit(transcript("leaky.trace", 4_000, 2));
    // insecure's ground truth (a label is its key's hex) scores the attack; the label verdict is its own line
    assertTrue(text.contains("against each label's real-access rate (ground truth)"), text);
    assertTrue(text.contains("timing       LEAKS: the silence after a call follows the real accesses in a call"), text);
    assertTrue(text.contains("verdict      "), text);
  }

  @Test
  void shortTranscript_saysSoRatherThanNaN() throws IOException {
    plan();
    StringBuilder lines = new StringBuilder();
    for (int c = 0; c < 40; c++) {
      lines.append("R ").append(label(c)).append(" 64 ").append(1_000_000L + 150_000L * c).append('\n');
    }
    Path shortTrace = dir.resolve("short.trace");
    Files.writeString(shortTrace, lines);
    String text = audit(shortTrace);
    assertTrue(text.contains("split halves: too few labels read 3 times in each half"), text);
    String timing = text.substring(text.indexOf("timing       "));
    assertFalse(timing.substring(0, timing.indexOf("timing       ", 1)).contains("NaN"), text);
  }

  @Test
  void transcriptWithoutTimestamps_isNotTimed() throws IOException {
    Path old = dir.resolve("old.trace");
    Files.writeString(old, "R 00ff 64\nW 00ff 64\n".repeat(100));
    assertNull(TimingAudit.of(old, 0, Map.of(), Map.of()));
  }
}
