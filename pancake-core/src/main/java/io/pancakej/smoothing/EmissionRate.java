package io.pancakej.smoothing;

/**
 * How many batches the emitter sends, and how they are grouped into ticks: two levels chosen once
 * per coarse window, from the number of requests that arrived in the previous window and from how
 * busy the emitter and the serving thread were -- never from the queue, the coins or what batches
 * served -- except while a swap's ticks crawl (below). A window is as busy as the busier of the
 * two. Levels are quarter octaves ({@code 2^(1/4)} apart).
 *
 * <p>The <em>batch level</em> L sets the batches per second, about {@code floor x 2^(L/4)}. A
 * window asks for {@code h x arrivals / (B x delta)} batches per second: {@code h} = {@value #ROOMY}
 * while the emitter was busy for less than {@value #BUSY_LOW} of the window (batches are cheap
 * then, and a closed-loop caller, served about 0.7 times per tick, still pulls the level up) as far
 * as the extra batches go out as one-batch ticks, up to the tick cap, and {@code h} = {@value #WIDE}
 * beyond it (there an extra batch only makes every tick larger and emptier); L moves up to an
 * octave towards the lowest level that gives as much; {@code h} =
 * {@value #TIGHT} near the emitter's capacity, where L moves up one step at a time (a level above
 * capacity only gets stepped back down) and, unless the window's batches were full, down to the
 * level the arrivals need, up to an octave a window (a batch beyond what the requests need costs as
 * much as a real one): batches there carry between {@code B x delta / (h x 2^(1/4))} and
 * {@code B x delta / h} requests (the level is the first at or above what is asked) while callers
 * keep them waiting. Idle time lets it fall
 * back to the floor, which keeps a blocked caller served. L starts at the tick cap (one batch a
 * tick at the cap's rate), so an idle client falls from there an octave a window after it opens.
 *
 * <p>The <em>tick level</em> T caps the ticks per second at {@code floor x 2^(T/4)} (at most
 * {@code maxTicks}); the {@code floor x 2^(L/4)} batches of a second go out in ticks of
 * {@code K = ceil(2^((L - min(L, T))/4))} batches each (at most {@code maxBatches}), at
 * {@code floor x 2^(L/4) / K} ticks per second (at most the cap, at least the floor). Every level is then a quarter
 * octave of batches above the one below, also when ticks hold only a few batches (rounding K
 * instead at the cap's rate made the step from 2 to 3 batches a tick half an octave, and a window
 * that stepped down lost a third of its batches). A tick is one store call. When the emitter cannot keep up (more than a tenth of a window's grid
 * points missed while a proxy thread was busy for at least {@value #BUSY_LOW} of it, or busy for
 * more than {@value #BUSY_HIGH} of it) while batches are full (the
 * window's arrivals above {@value #FULL} of the real slots its batches carried: requests wait at
 * every tick) and ticks small (fewer than {@value #SPLIT} batches), T steps down, so the same
 * batches go out in fewer, larger ticks (one round trip for more of them); otherwise L steps down,
 * as many ticks with fewer batches each. A tick serves about the requests waiting when it is
 * built, whatever its size: a few callers that wait for their answers get more of them per second
 * from frequent ticks with fuller batches than from larger ticks at a lower rate (measured in
 * docs/results/timing.md). A window busy for less than {@value #BUSY_LOW} (and at most 1 % of points
 * missed) raises T a step (more, smaller ticks: a shorter wait for the next one); so does, as a
 * probe, any other window that was not overloaded while T binds (more than one batch per tick),
 * and a probe that overloads the next window is taken back, with no probe for
 * {@value #PROBE_COOLDOWN} windows.
 *
 * <p>While a replica swap's ticks crawl at delta' ({@link Transition#crawls}) the batch level is
 * <em>held</em>: in a window with such a tick the arrivals may raise it, never lower it (it still
 * steps down when the emitter cannot keep up; the tick level's probes, which follow how busy it
 * is, go on). The windows keep their grid. A swap that stops making progress (a damaged replica
 * whose value never comes) stops the hold. The crawl is the proxy's own doing: a closed-loop
 * caller, served at delta' instead of 1/2, slows down, and a level that followed it fell to the
 * floor within a second of the swap's install, told the store so, and left the swaps to the
 * floor's batches (about 100 s for some 1 000 swaps at 2 000 keys, against a second or two at the
 * level it had; results/timing/plan-ahead).
 *
 * <p>What the store learns is the pair of levels: a coarse, logarithmic staircase of the request
 * rate and of how long this machine takes for a tick.
 */
final class EmissionRate {
  /** Busy for more than this share of a window: the emitter cannot keep up at these levels. */
  static final double BUSY_HIGH = 0.7;
  /** Busy for less than this share: a quarter octave more ticks would still fit (a tick costs at least as much). */
  static final double BUSY_LOW = 0.5;
  /** Ticks smaller than this are made larger, rather than fewer, when the emitter cannot keep up with a backlog. */
  static final int SPLIT = 8;
  /**
   * Arrivals above this share of the real slots the window's batches carried mean requests wait at
   * every tick (a backlog, or many callers in flight): round trips are then worth saving. A few
   * callers that wait for their answers leave slots empty, and a tick serves about the requests
   * waiting when it is built, whatever its size.
   */
  static final double FULL = 0.93;
  /**
   * Batches asked for, per batch the arrivals need, while the emitter has room to spare, as long as
   * they go out as one-batch ticks (up to the tick cap): more ticks, a shorter wait for the next one.
   */
  static final double ROOMY = 4;
  /**
   * With room to spare, batches asked for beyond the tick cap, per batch the arrivals need: there
   * they only make every tick larger, so about {@code 1.5 / 1.05} requests fill a batch. (It was 1.3
   * while the emitter waited for each call's reply, which kept it busy past half of the window at
   * saturation; with the reply read on the serving thread the emitter has room at saturation, and
   * 1.3 left batches at 1.26-1.28 requests each on Redis at 8 callers. 1.1 gave 1.32-1.34 in
   * 8*10^5-operation runs but 1.299 over a 2*10^6-operation bench on Redis C, under the issue's
   * floor of 1.3; 1.05 gives 1.38.)
   */
  static final double WIDE = 1.05;
  /**
   * Batches asked for, per batch the arrivals need, near the emitter's capacity: none to spare
   * beyond the quarter-octave step above them, so batches there carry 1.26-1.5 requests when
   * requests keep coming. (1.1 left them at 1.26-1.29 on RocksDB at 8 callers, where the serving
   * with the store inside it keeps a proxy thread busy; 1.0 gives 1.29-1.34 with no throughput
   * change beyond the run-to-run spread. Redis's windows mostly have room, and the rules with room
   * ({@link #ROOMY} up to the tick cap, {@link #WIDE} past it) decide there.
   * results/timing/levels-frontier)
   */
  static final double TIGHT = 1.0;
  /** Windows to wait after a probe of a higher tick level overloaded the emitter. */
  static final int PROBE_COOLDOWN = 2;
  /** Levels per doubling. */
  static final int STEPS = 4;

  private final double floor;
  private final int maxTickLevel;
  private final int maxBatches;
  private final int maxLevel;
  private final long windowNanos;
  private final double realSlotsPerBatch;
  private int level;
  private int tickLevel;
  private long windowStart;
  private long windowRequests;
  private boolean started;
  private long windowTicks;
  private long windowBatches;
  private long windowMissed;
  private long windowBusy;
  private long windowServing;
  /** The last window raised the tick level without room to spare (a probe). */
  private boolean probing;
  /** Windows before the next probe, after one that overloaded. */
  private int cooldown;
  /** A tick of the window under way sampled a swap's crawl. */
  private boolean heldInWindow;

  /**
   * @param floor ticks per second at idle (one batch each)
   * @param maxTicks most ticks per second (rounded down to a level)
   * @param maxBatches most batches per tick
   * @param batchSize B
   * @param windowNanos the length of a window
   */
  EmissionRate(double floor, double maxTicks, int maxBatches, int batchSize, long windowNanos) {
    if (!(floor > 0) || maxTicks < floor || maxBatches < 1) {
      throw new IllegalArgumentException("need 0 < floor <= maxTicks and maxBatches >= 1");
    }
    this.floor = floor;
    this.maxTickLevel = (int) Math.floor(STEPS * Math.log(Math.min(1 << 20, maxTicks / floor)) / Math.log(2) + 1e-9);
    this.maxBatches = maxBatches;
    this.maxLevel = maxTickLevel + (int) Math.floor(STEPS * Math.log(maxBatches) / Math.log(2) + 1e-9);
    this.tickLevel = maxTickLevel;
    // both levels start at the tick cap, one batch a tick: a client opened under load does not climb
    // from the floor an octave a window (six windows, 0.6 s, in which one closed-loop caller got
    // about 500 requests served instead of 2 000: 7 % of a 20 000-operation YCSB run;
    // results/timing/startup); an idle one is back at the floor as many windows later
    this.level = maxTickLevel;
    this.windowNanos = windowNanos;
    this.realSlotsPerBatch = batchSize * 0.5;
  }

  private double at(int l) {
    return floor * Math.pow(2, (double) l / STEPS);
  }

  /** Ticks per second at the current levels: level L's batches per second in ticks of {@link #batchesPerTick()}. */
  double ticksPerSecond() {
    return ticksPerSecond(level);
  }

  double ticksPerSecond(int l) {
    // never under the floor, the rate at idle (with the tick cap at the floor a level just above
    // it sends a few more batches than it asks for, rather than fewer ticks than the floor)
    return Math.min(at(Math.min(l, tickLevel)), Math.max(floor, at(l) / batchesPerTick(l)));
  }

  /** Batches per tick at the current levels. */
  int batchesPerTick() {
    return batchesPerTick(level);
  }

  int batchesPerTick(int l) {
    int ticks = Math.min(l, tickLevel);
    // enough whole batches for level l at the tick cap's rate (the tick rate then comes down to it)
    double needed = Math.pow(2, (double) (l - ticks) / STEPS);
    return (int) Math.min(maxBatches, Math.max(1, Math.ceil(needed - 1e-9)));
  }

  /** Batches per second at the current levels. */
  double batchesPerSecond() {
    return batchesPerSecond(level);
  }

  /** What batch level {@code l} sends at the current tick level. */
  double batchesPerSecond(int l) {
    return ticksPerSecond(l) * batchesPerTick(l);
  }

  int level() {
    return level;
  }

  int tickLevel() {
    return tickLevel;
  }

  /**
   * Called after every tick with the clock, the running count of requests, the grid points the
   * tick before this one missed and how long this tick kept the emitter busy (from its grid point
   * to its end); moves the levels when a window has ended. Returns true if either changed.
   */
  boolean onTick(long nowNanos, long requests, int missedPoints, long busyNanos) {
    return onTick(nowNanos, requests, missedPoints, busyNanos, 0);
  }

  /**
   * As above, with the time the serving thread spent on ticks since the last call: a window is as
   * busy as the busier of the two threads (the emitter waits for the serving only when it falls
   * two ticks behind, so the emitter's own time alone undercounts a serving-bound machine).
   */
  boolean onTick(long nowNanos, long requests, int missedPoints, long busyNanos, long servingNanos) {
    return onTick(nowNanos, requests, missedPoints, busyNanos, servingNanos, false);
  }

  /**
   * As above; {@code hold}: the tick sampled a swap's crawl, so the arrivals say nothing of the
   * callers: a window that held any such tick lets them raise the batch level, never lower it (the
   * levels still step down when the emitter cannot keep up, and the tick level still probes). The
   * windows keep their grid: a restart when the crawl ended would date it.
   */
  boolean onTick(long nowNanos, long requests, int missedPoints, long busyNanos, long servingNanos, boolean hold) {
    heldInWindow |= hold;
    windowTicks++;
    windowBatches += batchesPerTick();
    windowMissed += missedPoints;
    windowBusy += busyNanos;
    windowServing += servingNanos;
    if (!started) {
      started = true;
      windowStart = nowNanos;
      windowRequests = requests;
      windowBatches = 0;
      windowBusy = 0;
      windowServing = 0;
      return false;
    }
    long elapsed = nowNanos - windowStart;
    if (elapsed < windowNanos) {
      return false;
    }
    double arrivals = (requests - windowRequests) * 1e9 / elapsed;
    double busy = (double) Math.max(windowBusy, windowServing) / elapsed;
    // missed points while both proxy threads were mostly idle are the emitter held up by something
    // other than its ticks (a core given to the callers, the store, the JIT, a collection): counted
    // as overload they lowered the tick level with room to spare (one thread: a higher read p99;
    // results/timing/missed-busy)
    boolean missedMany = windowMissed * 10 > windowTicks + windowMissed;
    boolean overloaded = missedMany && busy >= BUSY_LOW || busy > BUSY_HIGH;
    boolean full = requests - windowRequests > FULL * realSlotsPerBatch * windowBatches;
    boolean easy = busy < BUSY_LOW && windowMissed * 100 <= windowTicks + windowMissed; // at most 1 % missed
    boolean held = heldInWindow;
    heldInWindow = hold; // a crawl that goes on holds the next window from its first tick
    windowTicks = 0;
    windowBatches = 0;
    windowMissed = 0;
    windowBusy = 0;
    windowServing = 0;
    windowStart = nowNanos;
    windowRequests = requests;
    int oldLevel = level;
    int oldTickLevel = tickLevel;
    int ticks = Math.min(level, tickLevel);
    boolean probed = probing;
    probing = false;
    if (cooldown > 0) {
      cooldown--;
    }
    if (overloaded) {
      if (probed && ticks > 0) {
        tickLevel = ticks - 1; // the extra ticks cost more than they gave: back, and wait before trying again
        cooldown = PROBE_COOLDOWN;
      } else if (batchesPerTick() < SPLIT && ticks > 0 && full) {
        tickLevel = ticks - 1; // requests wait at every tick: the same batches in fewer, larger ticks
      } else {
        // slots left empty (larger ticks at a lower rate would serve fewer requests a second), or
        // large ticks already: fewer batches in as many ticks, each fuller
        level--;
      }
    } else {
      if (tickLevel < maxTickLevel && (easy || cooldown == 0 && level > tickLevel && batchesPerTick() > 1)) {
        // more, smaller ticks (a shorter wait for the next one): surely affordable when the emitter
        // is idle half the time; otherwise tried, and taken back if the next window overloads
        tickLevel++;
        probing = !easy;
      }
    }
    if (!overloaded) {
      boolean room = busy < BUSY_LOW;
      // with room to spare, ask for four times the batches the arrivals need (a closed loop that
      // gets about 0.7 requests served per tick then still pulls the level up); near the emitter's
      // capacity, what they need (the level at or above it), up a step at a time (a level above
      // capacity only gets stepped back down) and down to that at once (up to an octave a window):
      // a batch beyond what the requests need costs the emitter and the store as much as a real one
      double need = arrivals / realSlotsPerBatch;
      // with room, the extra batches are extra ticks up to the tick cap (a shorter wait for the next
      // one); beyond it they only make each tick larger and emptier, so a few are kept for the tick
      // that finds more requests waiting than slots
      double needed = room ? Math.max(Math.min(ROOMY * need, at(tickLevel)), WIDE * need) : TIGHT * need;
      int wanted = 0;
      while (wanted < maxLevel && batchesPerSecond(wanted) < needed) {
        wanted++;
      }
      if (room) {
        // a crawl's arrivals say nothing of the callers: they may raise the level, not lower it
        level = Math.max(held ? level : level - STEPS, Math.min(level + STEPS, wanted));
      } else if (wanted > level) {
        level++;
      } else if (!full && !held) {
        // slots were left empty, so the arrivals are what the callers ask for: batches they do
        // not need cost as much as real ones (full batches say nothing of what is asked)
        level = Math.max(level - STEPS, wanted);
      }
    }
    int batchShift = maxLevel - maxTickLevel;
    level = Math.max(0, Math.min(level, tickLevel + batchShift));
    return level != oldLevel || tickLevel != oldTickLevel;
  }
}
