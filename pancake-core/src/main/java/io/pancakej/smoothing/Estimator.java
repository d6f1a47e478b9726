package io.pancakej.smoothing;

import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import org.apache.commons.math3.stat.inference.KolmogorovSmirnovTest;

/**
 * Estimation and change detection (paper section 5.3), off the request path. Gets, updates and
 * deletes record their key slot into a lock-free ring (puts are not counted: their real access is
 * drawn from the estimate, {@link TickRunner}); a background thread counts them into a test window.
 *
 * <p>Windows are disjoint and grow: the first after a new estimate holds {@code firstWindow}
 * accesses when the estimate was only assumed (no prior), as many as it was learned from when
 * learned, and {@code maxWindow} when it was declared; each next one twice as many, up to
 * {@code maxWindow}. When a window is full it is tested once, with a
 * two-sample Kolmogorov-Smirnov test, against the estimate in force: keys in slot order (a
 * secret random order fixed when the state was created, so the order does not depend on either
 * sample and the test keeps its level), the estimate counted as a sample of the accesses it was
 * learned from, or as exact when it was declared (a workload or a distribution file). Each test
 * declares a change with probability at most {@code 1 - confidence} when nothing changed (KS is
 * conservative on discrete data).
 *
 * <ul>
 *   <li>A rejected test is a change: the counts of the next window of the same length, as they
 *       are (no pseudo-counts: a key never seen gets probability 0, and its one replica is then
 *       accessed like a dummy), become the estimate, learned from that many accesses. The
 *       rejecting window itself is not used: it was chosen for being unusual, and as a reference
 *       it would make the next tests reject again.
 *   <li>A learned estimate that passes absorbs the window: it rests on every access since the
 *       change, so it grows more precise than any window and the tests barely depend on each
 *       other. The plan is rebuilt for it each time its sample has doubled.
 * </ul>
 *
 * A cold start or a change is therefore noticed within one short window and followed after a
 * second one, and the estimate then converges without bias while the windows double.
 */
final class Estimator implements AutoCloseable {
  /** Samples behind a declared estimate: exact, trusted for a full window, never refined. */
  static final long EXACT = -1;
  /** Samples behind an assumed estimate (no prior: uniform over the capacity): tested after a short window. */
  static final long ASSUMED = 0;
  private static final int RING = 1 << 18;
  /**
   * Milliseconds the thread sleeps between two steps. Each wake-up takes the CPU that the serving
   * thread and the callers share (the emitter holds the other), for a moment it then cannot give to
   * serving a tick: waking every 5 ms left more of a trace in the silences between calls at one
   * thread than every 50 or 200 ms (docs/security.md, "The callers a tick wakes"). A change is
   * noticed this much later at most, and the ring holds a step's accesses up to 1.3 million a second.
   */
  static final long STEP_INTERVAL_MS = 200;

  /** Receives each new estimate; {@code detected}: a change (not a refinement). */
  interface Listener {
    void estimate(double[] estimate, long samples, boolean detected);
  }

  private final int keySlots;
  private final int firstWindow;
  private final int maxWindow;
  private final double confidence;
  private final Listener listener;
  private final AtomicIntegerArray ring = new AtomicIntegerArray(RING);
  private final AtomicLong head = new AtomicLong();
  private long tail;
  private final int[] windowCounts;
  private long windowFill;
  private long windowTarget;
  /** The estimate in force, as weights: counts when learned, probabilities when exact. */
  private double[] reference;
  private double referenceTotal;
  private long referenceSamples;
  /** Samples behind the estimate the plan was last built for. */
  private long plannedSamples;
  private volatile boolean paused;
  /** A test rejected: the window under way will be the new estimate. */
  private boolean estimating;
  private volatile double lastP = Double.NaN;
  private volatile long tests;
  private volatile long detections;
  private volatile long refinements;
  private final Thread thread;
  private volatile boolean running = true;

  Estimator(int keySlots, int firstWindow, int maxWindow, double confidence, double[] estimate, long samples,
      Listener listener) {
    this(keySlots, firstWindow, maxWindow, confidence, estimate, samples, listener, r -> {
      Thread t = new Thread(r, "pancake-estimator");
      t.setDaemon(true);
      return t;
    });
  }

  Estimator(int keySlots, int firstWindow, int maxWindow, double confidence, double[] estimate, long samples,
      Listener listener, java.util.concurrent.ThreadFactory threads) {
    this.keySlots = keySlots;
    this.maxWindow = Math.max(1, maxWindow);
    this.firstWindow = Math.max(1, Math.min(firstWindow, maxWindow));
    this.confidence = confidence;
    this.listener = listener;
    this.windowCounts = new int[keySlots];
    adopt(estimate, samples);
    this.thread = threads.newThread(this::loop);
  }

  void start() {
    thread.start();
  }

  /** Hot path: one lock-free append. */
  void record(int keySlot) {
    long i = head.getAndIncrement();
    ring.set((int) (i & (RING - 1)), keySlot + 1);
  }

  /**
   * A new estimate is in force (probabilities), learned from {@code samples} accesses or
   * {@link #EXACT}: later windows are tested against it, from a short window (declared) or one as
   * long as its sample (learned).
   */
  synchronized void adopt(double[] estimate, long samples) {
    double sum = 0;
    for (double p : estimate) {
      sum += p;
    }
    reference = new double[keySlots];
    double scale = samples > 0 ? samples / sum : 1 / sum;
    for (int k = 0; k < keySlots; k++) {
      reference[k] = estimate[k] * scale;
    }
    referenceTotal = samples > 0 ? samples : 1;
    referenceSamples = samples;
    plannedSamples = samples;
    estimating = false;
    clearWindow();
    // a declared estimate is trusted for a full window (an application's own load phase must not
    // look like a change); an assumed one is tested after a short window, so a cold start is
    // noticed fast; a learned one after as many accesses as it rests on (windows double)
    windowTarget = samples == EXACT ? maxWindow
        : samples == ASSUMED ? firstWindow : Math.max(firstWindow, Math.min(maxWindow, samples));
  }

  private void clearWindow() {
    Arrays.fill(windowCounts, 0);
    windowFill = 0;
  }

  /**
   * The estimate in force changed without new information (a deleted key's share went to the
   * others): the reference follows, and the window under way, a pending re-estimation and the
   * window sizes are kept, so deletes cannot hold detection back.
   */
  synchronized void reweight(double[] estimate) {
    double sum = 0;
    for (double p : estimate) {
      sum += p;
    }
    for (int k = 0; k < keySlots; k++) {
      reference[k] = estimate[k] / sum * referenceTotal;
    }
  }

  /** While paused (a swap in progress), accesses are counted but not tested. */
  void pause(boolean pause) {
    this.paused = pause;
  }

  /** The Linux id of the estimator's thread once it runs (tests), -1 before or elsewhere. */
  volatile long threadId = -1;

  private void loop() {
    threadId = CorePinning.currentThreadIdOrNone();
    while (running) {
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(STEP_INTERVAL_MS));
      try {
        step();
      } catch (RuntimeException e) {
        // estimation must never take the proxy down; the next step retries
      }
    }
  }

  /**
   * Drains recorded accesses and tests every window they fill; returns true if a change was
   * declared. The listener is called without this object's lock held: it takes the proxy's phase
   * lock, under which the proxy calls {@link #adopt}.
   */
  boolean step() {
    boolean detected = false;
    long end = head.get(); // what was recorded before this step: a fast producer cannot keep it going
    NewEstimate next;
    while (running && (next = nextEstimate(end)) != null) {
      // the proxy switches to a plan for it and calls adopt: the next window is as large as the
      // sample behind the new estimate, so windows double while it is refined
      listener.estimate(next.estimate(), next.samples(), next.detected());
      detected |= next.detected();
    }
    return detected;
  }

  private record NewEstimate(double[] estimate, long samples, boolean detected) {}

  /**
   * Tests the windows the accesses recorded before {@code end} fill, each at its own size (a step
   * drains no further than the window under way), until one gives a new estimate; null when none
   * is full any more, or while paused.
   */
  private synchronized NewEstimate nextEstimate(long end) {
    while (true) {
      drain(end);
      if (paused || windowFill < windowTarget) {
        return null;
      }
      if (estimating) {
        // the window after the one that showed the change: a sample of the new workload that
        // no test selected (adopting the rejecting window itself would keep a window chosen for
        // being unusual as the reference, and the next tests would reject it again)
        estimating = false;
        double[] next = new double[keySlots];
        for (int k = 0; k < keySlots; k++) {
          next[k] = windowCounts[k];
        }
        return emit(next, windowFill, true);
      } else if (test()) {
        estimating = true;
        clearWindow(); // the next window, as long as this one, becomes the estimate
      } else if (referenceSamples > 0) {
        // no change: the window joins the sample the estimate rests on, which so grows more
        // precise than any one window (tests then barely depend on each other); the plan follows
        // each time that sample has doubled
        for (int k = 0; k < keySlots; k++) {
          reference[k] += windowCounts[k];
        }
        referenceSamples += windowFill;
        referenceTotal = referenceSamples;
        clearWindow();
        windowTarget = Math.max(firstWindow, Math.min(maxWindow, referenceSamples));
        if (referenceSamples >= 2 * plannedSamples) {
          refinements++;
          return emit(reference.clone(), referenceSamples, false);
        }
      } else {
        clearWindow();
        windowTarget = Math.min(maxWindow, 2 * windowTarget);
      }
    }
  }

  private NewEstimate emit(double[] estimate, long samples, boolean detected) {
    clearWindow();
    paused = true; // until the proxy adopts the estimate (or resumes if it is not used)
    return new NewEstimate(estimate, samples, detected);
  }

  /** Runs the change test on the full window; true if it rejects "no change". */
  private boolean test() {
    double p = pValue();
    lastP = p;
    tests++;
    if (p < 1 - confidence) {
      detections++;
      return true;
    }
    return false;
  }

  /**
   * Counts the accesses recorded before {@code end} into the window, up to its size unless paused
   * (then all of them, untested: the window under way during a swap is as long as the swap).
   */
  private void drain(long end) {
    while (tail < end && (paused || windowFill < windowTarget)) {
      int idx = (int) (tail & (RING - 1));
      int v = ring.get(idx);
      if (v == 0) {
        return;
      }
      ring.set(idx, 0);
      tail++;
      int slot = v - 1;
      if (slot >= keySlots) {
        continue;
      }
      windowCounts[slot]++;
      windowFill++;
    }
  }

  /** Two-sample KS p-value of the window against the reference, keys in slot order. */
  private double pValue() {
    double d = 0;
    double cumWindow = 0;
    double cumRef = 0;
    for (int k = 0; k < keySlots; k++) {
      cumWindow += windowCounts[k];
      cumRef += reference[k];
      d = Math.max(d, Math.abs(cumWindow / windowFill - cumRef / referenceTotal));
    }
    int refSize = referenceSamples <= 0 ? Integer.MAX_VALUE : (int) Math.min(Integer.MAX_VALUE, referenceSamples);
    int size = (int) Math.min(Integer.MAX_VALUE, windowFill);
    if (d * Math.sqrt((double) size * refSize / ((double) size + refSize)) < 1e-3) {
      return 1.0; // no difference beyond rounding (Commons Math's series does not converge there)
    }
    try {
      return new KolmogorovSmirnovTest().approximateP(d, size, refSize);
    } catch (org.apache.commons.math3.exception.MathIllegalStateException e) {
      return 1.0; // the series did not converge: D too small to mean anything
    }
  }

  /**
   * The change test's library path once, on made-up counts ({@code Transitions.rehearse}): its first
   * call loads Commons Math's classes.
   */
  static void rehearseTest() {
    new KolmogorovSmirnovTest().approximateP(0.05, 1_000, 1_000);
  }

  double lastPValue() {
    return lastP;
  }

  long tests() {
    return tests;
  }

  long detections() {
    return detections;
  }

  long refinements() {
    return refinements;
  }

  @Override
  public void close() {
    running = false;
    LockSupport.unpark(thread);
    try {
      thread.join(TimeUnit.SECONDS.toMillis(5));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
