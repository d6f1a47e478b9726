package io.pancakej.smoothing;

/**
 * How many batches the emitter sends, and how often: a level chosen once per coarse window from
 * the number of requests that arrived in the previous window -- never from the queue, the coins or
 * what batches served. Levels double: {@code floor * 2^i} ticks per second of one batch each, up
 * to {@code maxTicks}; above that, {@code maxTicks} ticks of 2, 4, ... batches, up to
 * {@code maxBatches} per tick. The level moves at most one step per window, so the store learns
 * the request rate only as this coarse, logarithmic staircase.
 *
 * <p>A window asks for {@code 2 x arrivals / (B x delta)} batches per second (twice what the
 * arrivals need on average) and takes the lowest level that gives as much. A closed-loop caller
 * therefore pulls the level up (it can only send as fast as it is served), and idle time lets it
 * fall back to the floor, which keeps a blocked caller served. A window in which more than a
 * tenth of the grid points were missed (the proxy cannot keep up) steps the level down instead.
 */
final class EmissionRate {
  private final double floor;
  private final int maxTickLevel;
  private final int maxLevel;
  private final long windowNanos;
  private final double realSlotsPerBatch;
  private int level;
  private long windowStart;
  private long windowRequests;
  private boolean started;
  private long windowTicks;
  private long windowMissed;

  /**
   * @param floor ticks per second at idle (one batch each)
   * @param maxTicks most ticks per second (rounded down to floor x 2^i)
   * @param maxBatches most batches per tick (rounded down to a power of two)
   * @param batchSize B
   * @param windowNanos the length of a window
   */
  EmissionRate(double floor, double maxTicks, int maxBatches, int batchSize, long windowNanos) {
    if (!(floor > 0) || maxTicks < floor || maxBatches < 1) {
      throw new IllegalArgumentException("need 0 < floor <= maxTicks and maxBatches >= 1");
    }
    this.floor = floor;
    this.maxTickLevel = 31 - Integer.numberOfLeadingZeros((int) Math.min(1 << 20, Math.floor(maxTicks / floor)));
    this.maxLevel = maxTickLevel + 31 - Integer.numberOfLeadingZeros(maxBatches);
    this.windowNanos = windowNanos;
    this.realSlotsPerBatch = batchSize * 0.5;
  }

  /** Ticks per second at the current level. */
  double ticksPerSecond() {
    return floor * (1 << Math.min(level, maxTickLevel));
  }

  /** Batches per tick at the current level. */
  int batchesPerTick() {
    return 1 << Math.max(0, level - maxTickLevel);
  }

  /** Batches per second at the current level. */
  double batchesPerSecond() {
    return ticksPerSecond() * batchesPerTick();
  }

  int level() {
    return level;
  }

  /**
   * Called after every tick with the clock, the running count of requests and the grid points the
   * tick before this one missed; moves the level when a window has ended (one step down instead
   * when more than a tenth of the window's points were missed). Returns true if the level changed.
   */
  boolean onTick(long nowNanos, long requests, int missedPoints) {
    windowTicks++;
    windowMissed += missedPoints;
    if (!started) {
      started = true;
      windowStart = nowNanos;
      windowRequests = requests;
      return false;
    }
    long elapsed = nowNanos - windowStart;
    if (elapsed < windowNanos) {
      return false;
    }
    double arrivals = (requests - windowRequests) * 1e9 / elapsed;
    boolean overloaded = windowMissed * 10 > windowTicks + windowMissed;
    windowTicks = 0;
    windowMissed = 0;
    windowStart = nowNanos;
    windowRequests = requests;
    double needed = 2 * arrivals / realSlotsPerBatch;
    int wanted = 0;
    while (wanted < maxLevel && batchesAt(wanted) < needed) {
      wanted++;
    }
    int next = overloaded ? Math.max(0, level - 1) : Math.max(level - 1, Math.min(level + 1, wanted));
    boolean changed = next != level;
    level = next;
    return changed;
  }

  private double batchesAt(int l) {
    return floor * (1 << Math.min(l, maxTickLevel)) * (1 << Math.max(0, l - maxTickLevel));
  }
}
