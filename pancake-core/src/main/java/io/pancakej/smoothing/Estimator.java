package io.pancakej.smoothing;

import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

import org.apache.commons.math3.stat.inference.KolmogorovSmirnovTest;

/**
 * Estimation and change detection (paper section 5.3), off the request path. Requests record
 * their key slot into a lock-free ring; a background thread moves them into a histogram of all
 * accesses and a sliding window of the last w accesses, and every w/10 new accesses runs a
 * two-sample Kolmogorov-Smirnov test between the window and the current estimate (keys in order
 * of estimated popularity). When the test rejects at the configured confidence, the window --
 * lightly smoothed so that no key gets probability zero -- becomes the new estimate.
 */
final class Estimator implements AutoCloseable {
  /** Pseudo-count added to every key of the window when it becomes the estimate. */
  static final double SMOOTHING = 0.5;
  private static final int RING = 1 << 18;

  private final int keySlots;
  private final int window;
  private final double confidence;
  private final Consumer<double[]> onChange;
  private final AtomicIntegerArray ring = new AtomicIntegerArray(RING);
  private final AtomicLong head = new AtomicLong();
  private long tail;
  private final int[] windowSlots;
  private final int[] windowCounts;
  private final long[] totalCounts;
  private int windowPosition;
  private int windowFill;
  private long sinceTest;
  private long sinceChange;
  private double[] reference;
  private int[] order;
  private volatile boolean paused;
  private volatile double lastP = Double.NaN;
  private volatile long tests;
  private volatile long detections;
  private final Thread thread;
  private volatile boolean running = true;

  Estimator(int keySlots, int window, double confidence, double[] estimate, Consumer<double[]> onChange) {
    this.keySlots = keySlots;
    this.window = window;
    this.confidence = confidence;
    this.onChange = onChange;
    this.windowSlots = new int[window];
    this.windowCounts = new int[keySlots];
    this.totalCounts = new long[keySlots];
    reset(estimate);
    this.thread = new Thread(this::loop, "pancake-estimator");
    this.thread.setDaemon(true);
  }

  void start() {
    thread.start();
  }

  /** Hot path: one lock-free append. */
  void record(int keySlot) {
    long i = head.getAndIncrement();
    ring.set((int) (i & (RING - 1)), keySlot + 1);
  }

  /** A new estimate is in force: compare later windows against it. */
  synchronized void reset(double[] estimate) {
    reference = estimate.clone();
    // ordered at the first test, on the estimator's thread: sorting 10^5 slots before the JIT
    // has compiled anything would add ~0.1 s to every open
    order = null;
    sinceChange = 0;
    sinceTest = 0;
  }

  /**
   * Key slots by descending weight, ties by slot. Primitive sorts only: this runs when a proxy
   * opens, before anything is compiled, where sorting 10^5 boxed slots with comparator lambdas
   * took ~140 ms.
   */
  static int[] byDescendingWeight(double[] weight) {
    double[] distinct = weight.clone();
    Arrays.sort(distinct);
    int m = 0;
    for (double w : distinct) {
      if (m == 0 || Double.compare(distinct[m - 1], w) != 0) {
        distinct[m++] = w;
      }
    }
    long[] keyed = new long[weight.length];
    for (int k = 0; k < weight.length; k++) {
      long rank = Arrays.binarySearch(distinct, 0, m, weight[k]); // among distinct weights, ascending
      keyed[k] = ((m - 1 - rank) << 32) | k;
    }
    Arrays.sort(keyed);
    int[] order = new int[weight.length];
    for (int i = 0; i < order.length; i++) {
      order[i] = (int) keyed[i];
    }
    return order;
  }

  /** While paused (a swap in progress), accesses are counted but no change is declared. */
  void pause(boolean pause) {
    this.paused = pause;
  }

  private void loop() {
    while (running) {
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
      try {
        step();
      } catch (RuntimeException e) {
        // estimation must never take the proxy down; the next step retries
      }
    }
  }

  /** Drains recorded accesses and tests if due; returns true if a change was declared. */
  synchronized boolean step() {
    drain();
    if (paused || windowFill < window || sinceChange < window || sinceTest < Math.max(1, window / 10)) {
      return false;
    }
    sinceTest = 0;
    double p = pValue();
    lastP = p;
    tests++;
    if (p < 1 - confidence) {
      detections++;
      double[] next = new double[keySlots];
      for (int k = 0; k < keySlots; k++) {
        next[k] = windowCounts[k] + SMOOTHING;
      }
      reset(next);
      paused = true;
      onChange.accept(next);
      return true;
    }
    return false;
  }

  private void drain() {
    while (true) {
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
      totalCounts[slot]++;
      if (windowFill == window) {
        windowCounts[windowSlots[windowPosition]]--;
      } else {
        windowFill++;
      }
      windowSlots[windowPosition] = slot;
      windowCounts[slot]++;
      windowPosition = windowPosition + 1 == window ? 0 : windowPosition + 1;
      sinceTest++;
      sinceChange++;
    }
  }

  /** Two-sample KS p-value of the window against the reference, keys by estimated popularity. */
  private double pValue() {
    double refTotal = 0;
    for (double w : reference) {
      refTotal += w;
    }
    double d = 0;
    double cumWindow = 0;
    double cumRef = 0;
    if (order == null) {
      order = byDescendingWeight(reference);
    }
    for (int k : order) {
      cumWindow += windowCounts[k];
      cumRef += reference[k];
      d = Math.max(d, Math.abs(cumWindow / windowFill - cumRef / refTotal));
    }
    return new KolmogorovSmirnovTest().approximateP(d, window, window);
  }

  synchronized long[] totalCounts() {
    return totalCounts.clone();
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

  int windowFill() {
    return windowFill;
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

  /** For callers that need the window's snapshot (tests). */
  synchronized int[] windowCounts() {
    return Arrays.copyOf(windowCounts, keySlots);
  }
}
