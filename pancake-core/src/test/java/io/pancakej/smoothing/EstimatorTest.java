package io.pancakej.smoothing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import org.apache.commons.math3.distribution.BinomialDistribution;
import org.junit.jupiter.api.Test;

import io.pancakej.distribution.AliasSampler;

/**
 * The estimator on its own, fed accesses directly, with a listener that adopts each estimate at
 * once (as the proxy does when no replica has to move).
 *
 * <p>What it caught: the old estimator added 0.5 to every key's count and ordered keys by the
 * estimate's own counts, so a steady workload looked changed at every test (the pseudo-counts and
 * the regression of the ordering sample gave D far above the critical value) and the adapted
 * plan was visibly biased.
 */
class EstimatorTest {
  private static final int N = 10_000;
  private static final int FIRST = 10_000;
  private static final int WINDOW = 100_000;
  private static final double CONFIDENCE = 0.95;

  /** Records what the listener saw and adopts it at once. */
  private static class Adopting implements Estimator.Listener {
    Estimator estimator;
    final List<Boolean> detected = new ArrayList<>();
    final List<Long> samples = new ArrayList<>();
    double[] last;

    @Override
    public void estimate(double[] estimate, long samples, boolean detected) {
      this.detected.add(detected);
      this.samples.add(samples);
      this.last = estimate.clone();
      estimator.adopt(estimate, samples);
      estimator.pause(false);
    }
  }

  private static Estimator estimator(Adopting listener) {
    double[] uniform = new double[N];
    Arrays.fill(uniform, 1.0 / N);
    Estimator e = new Estimator(N, FIRST, WINDOW, CONFIDENCE, uniform, Estimator.ASSUMED, listener);
    listener.estimator = e;
    return e;
  }

  /** Key slots drawn from a distribution, O(1) a draw. */
  private record Workload(AliasSampler sampler, SplittableRandom random) {
    int sample() {
      return sampler.sample(random);
    }
  }

  private static Workload zipf(long seed) {
    return zipf(seed, 0);
  }

  private static Workload zipf(long seed, int shift) {
    return new Workload(new AliasSampler(ReplicaPlanTest.zipf(N, 0.99, shift)), new SplittableRandom(seed));
  }

  private static void feed(Estimator e, Workload workload, long accesses) {
    for (long i = 1; i <= accesses; i++) {
      e.record(workload.sample());
      if (i % 5_000 == 0) {
        e.step();
      }
    }
  }

  @Test
  void coldStart_detectsWithinTheFirstWindow_estimatesFromTheNext_refinesWithoutBias_thenSettles() {
    Adopting listener = new Adopting();
    Estimator e = estimator(listener);
    Workload workload = zipf(1);
    feed(e, workload, FIRST);
    assertEquals(1, e.detections(), "uniform -> zipf must be detected at the first window");
    assertTrue(listener.detected.isEmpty(), "the estimate comes from the window after the detection");
    feed(e, workload, FIRST);
    assertEquals(List.of(true), listener.detected, "the new estimate is adopted after a second window");
    assertEquals(FIRST, listener.samples.get(0));
    // the estimate is the window's counts as they are: keys never seen get exactly 0
    double sum = Arrays.stream(listener.last).sum();
    assertEquals(FIRST, sum, 1e-6, "the estimate is made of counts, no pseudo-counts added");
    assertTrue(Arrays.stream(listener.last).anyMatch(c -> c == 0), "unseen keys get no mass");
    // then refined each time its sample doubles, with windows that double up to the maximum (a
    // false alarm, 5 % of tests, starts over from a fresh window)
    feed(e, workload, 6L * WINDOW);
    long lastSamples = listener.samples.get(listener.samples.size() - 1);
    assertTrue(lastSamples >= 2 * WINDOW, "the estimate should rest on two full windows by now: " + listener.samples);
    int refinements = 0;
    for (int i = 1; i < listener.samples.size(); i++) {
      if (!listener.detected.get(i)) {
        refinements++;
        assertTrue(listener.samples.get(i) >= 2 * listener.samples.get(i - 1), "plans follow doublings: " + listener.samples);
      }
    }
    assertEquals(refinements, e.refinements());
    assertTrue(e.detections() <= 2, "refinements are not changes: " + listener.detected);
  }

  @Test
  void steadyWorkload_afterAdapting_declaresChangesNoMoreOftenThanTheTestLevel() {
    Adopting listener = new Adopting();
    Estimator e = estimator(listener);
    Workload workload = zipf(2);
    // adapt and settle (detection, then refinements up to a full window)
    feed(e, workload, 3L * WINDOW);
    long settledAt = e.tests();
    long detectionsBefore = e.detections();
    int windows = 40;
    feed(e, workload, (long) windows * WINDOW);
    long tests = e.tests() - settledAt;
    long falseAlarms = e.detections() - detectionsBefore;
    // each test rejects a steady workload with probability at most 1 - CONFIDENCE; allow what
    // Binomial(tests, 0.05) exceeds with probability 5 % at most
    int allowed = new BinomialDistribution(null, (int) tests, 1 - CONFIDENCE).inverseCumulativeProbability(0.95);
    System.out.printf("steady zipf(0.99): %d tests over %d windows after settling, %d changes declared"
        + " (at most %d allowed); last p = %.3f%n", tests, windows, falseAlarms, allowed, e.lastPValue());
    // a declared change spends the next window on the new estimate instead of a test
    assertTrue(tests + falseAlarms >= windows - 1, "too few tests: " + tests);
    assertTrue(falseAlarms <= allowed, falseAlarms + " changes declared in a steady workload over " + tests + " tests");
  }

  @Test
  void aRealChangeAfterSettling_isDetectedWithinOneWindow() {
    Adopting listener = new Adopting();
    Estimator e = estimator(listener);
    feed(e, zipf(3), 3L * WINDOW);
    long before = e.detections();
    // the same skew on other keys: the hot set moves by 100 ranks
    feed(e, zipf(4, 100), 2L * WINDOW);
    assertTrue(e.detections() > before, "a shift of the hot set went unnoticed for two windows");
  }

  /**
   * The thread wakes about once a {@link Estimator#STEP_INTERVAL_MS}: every wake-up takes the CPU
   * the serving thread and the callers share. Fails with the 5 ms sleep of before (about 200 a
   * second).
   */
  @Test
  void theThread_wakesAboutOnceAStepInterval() throws Exception {
    assumeTrue(Files.exists(Path.of("/proc/thread-self/schedstat")), "Linux with schedstat only");
    Estimator e = estimator(new Adopting());
    e.start();
    try {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (e.threadId <= 0 && System.nanoTime() < deadline) {
        Thread.sleep(5);
      }
      assertTrue(e.threadId > 0, "the estimator's thread did not start");
      long before = timesScheduled(e.threadId);
      long t0 = System.nanoTime();
      Thread.sleep(1_000);
      long after = timesScheduled(e.threadId);
      long elapsedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
      assumeTrue(after > 0, "this kernel does not count schedules (schedstat reads 0)");
      long expected = elapsedMs / Estimator.STEP_INTERVAL_MS;
      assertTrue(after - before >= 1 && after - before <= 2 * expected + 2, "the estimator's thread was scheduled "
          + (after - before) + " times in " + elapsedMs + " ms; about " + expected + " expected");
    } finally {
      e.close();
    }
  }

  /** How many times a thread of this process was put on a CPU (the third field of its schedstat). */
  private static long timesScheduled(long tid) throws java.io.IOException {
    return Long.parseLong(Files.readString(Path.of("/proc/self/task/" + tid + "/schedstat")).trim().split(" ")[2]);
  }

  /**
   * A step tests each window at its own size, however many accesses wait in the ring: it drains
   * no further than the window under way (a step every 200 ms would otherwise make windows grow
   * by however many accesses came meanwhile). Two windows' worth of accesses in one step test
   * both; the old drain took all of them into the first.
   */
  @Test
  void aStep_testsEachWindowAtItsOwnSize() {
    Estimator e = estimator(new Adopting());
    Workload uniform = new Workload(new AliasSampler(uniform()), new SplittableRandom(3));
    for (int i = 0; i < FIRST + 2 * FIRST; i++) { // the first window, then the second (twice as long)
      e.record(uniform.sample());
    }
    e.step();
    assertEquals(0, e.detections(), "a uniform workload against a uniform estimate (this seed)");
    assertEquals(2, e.tests(), "windows of " + FIRST + " and " + 2 * FIRST + " accesses tested");
    for (int i = 0; i < 4 * FIRST - 1; i++) { // one short of the third window
      e.record(uniform.sample());
    }
    e.step();
    assertEquals(2, e.tests(), "the third window is not full");
    e.record(uniform.sample());
    e.step();
    assertEquals(3, e.tests(), "the third window, " + 4 * FIRST + " accesses, tested once full");
  }

  private static double[] uniform() {
    double[] p = new double[N];
    Arrays.fill(p, 1.0 / N);
    return p;
  }

  /**
   * One step goes on past a new estimate: a cold start under a skewed workload is detected in the
   * first window, the second becomes the estimate, and the third, tested against it, makes its
   * sample twice as large (a refinement), all in the step that found the three windows.
   */
  @Test
  void aStep_goesOnPastANewEstimate() {
    Adopting listener = new Adopting();
    Estimator e = estimator(listener);
    Workload skewed = zipf(5);
    for (int i = 0; i < 3 * FIRST; i++) {
      e.record(skewed.sample());
    }
    e.step();
    assertEquals(List.of(true, false), listener.detected, "a change, then a refinement, in one step");
    assertEquals(List.of((long) FIRST, 2L * FIRST), listener.samples, "the estimates' samples");
    assertEquals(2, e.tests(), "the first window (rejected) and the third (passed) tested");
  }

  /**
   * A step ends with what was recorded when it began: accesses that arrive meanwhile wait for the
   * next one, so a producer faster than the tests cannot keep a step (and the lock it holds for
   * each window) going. Here every new estimate brings a burst of accesses during the step.
   */
  @Test
  void aStep_endsWithWhatWasRecordedWhenItBegan() {
    Workload skewed = zipf(5);
    Adopting listener = new Adopting() {
      @Override
      public void estimate(double[] estimate, long samples, boolean detected) {
        super.estimate(estimate, samples, detected);
        for (int i = 0; i < 10 * FIRST; i++) {
          estimator.record(skewed.sample());
        }
      }
    };
    Estimator e = estimator(listener);
    for (int i = 0; i < 3 * FIRST; i++) {
      e.record(skewed.sample());
    }
    e.step();
    assertEquals(2, e.tests(), "only the three windows recorded before the step");
    assertEquals(List.of(true, false), listener.detected);
    e.step();
    assertTrue(e.tests() > 2, "the next step tests what came during the last one");
  }
}
