package io.pancakej.smoothing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.StampedLock;
import java.util.function.Supplier;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.pancakej.smoothing.EmitterGridTest.SimClock;
import io.pancakej.store.ForwardingStore;
import io.pancakej.store.KvStore;
import io.pancakej.store.MemoryStore;

/**
 * The pauses of the ticks on a simulated clock (a tick rate pinned at 1 000 a second, so the
 * grid's period is 1 ms). A checkpoint's pause (padded) leaves the same silence between two calls
 * whether its snapshot took 1 ms or 3 ms, and every call leaves on a grid point; the same detector
 * finds the pause's length when the pause holds the emitter inside its tick instead, after its
 * point (the engine before: the checkpoint thread took the phase lock's write side itself).
 */
class TickPausesTest {
  private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);
  /** Pause lengths, both under half the first budget (32 ms): the budget does not move. */
  private static final long SHORT = MS;
  private static final long LONG = 3 * MS;
  /** The first budget in grid periods (ms). */
  private static final long BUDGET = TickPauses.FIRST_BUDGET_NANOS / MS;

  /** One run: the silence around each pause (ns), by the pause's length. */
  private static final class Run {
    final TreeMap<Long, List<Long>> silences = new TreeMap<>();
    final List<long[]> sends = new ArrayList<>();
    long budget;
    long pausedPoints;
  }

  /**
   * Sends 3 000 ticks, then asks for 20 pauses alternating between {@link #SHORT} and
   * {@link #LONG}, 50 ticks apart, from another thread. {@code onEmitter}: through
   * {@link TickPauses} (padded, as checkpoints are); else the way before: the pause holds the
   * emitter inside its tick, after its grid point.
   */
  private static Run run(boolean onEmitter) throws Exception {
    SimClock clock = new SimClock();
    StampedLock lock = new StampedLock();
    TickPauses pauses = TickPauses.withoutSlots(lock, clock, TimeUnit.SECONDS.toNanos(10));
    Run out = new Run();
    AtomicReference<long[]> inTick = new AtomicReference<>(); // the old way: {length}
    List<long[]> paused = new ArrayList<>(); // {index of the first call after it, length}
    Emitter emitter = simulatedEmitter(clock, pauses, () -> {
      long[] p = inTick.getAndSet(null);
      if (p != null) {
        clock.now += p[0]; // the emitter waited for the lock after its point
        synchronized (paused) {
          paused.add(new long[] {out.sends.size(), p[0]});
        }
      }
      synchronized (out.sends) {
        out.sends.add(new long[] {clock.now});
      }
    });
    emitter.start();
    try {
      awaitSends(out, 3000);
      for (int i = 0; i < 20; i++) {
        long length = i % 2 == 0 ? SHORT : LONG;
        if (onEmitter) {
          pauses.run(() -> {
            synchronized (paused) {
              paused.add(new long[] {out.sends.size(), length});
            }
            clock.now += length; // the snapshot's work, on the emitter's thread
            return null;
          }, true);
        } else {
          inTick.set(new long[] {length});
          while (inTick.get() != null) {
            Thread.onSpinWait();
          }
        }
        awaitSends(out, sendCount(out) + 50);
      }
    } finally {
      emitter.close();
    }
    synchronized (paused) {
      for (long[] p : paused) {
        int k = (int) p[0];
        long silence = out.sends.get(k)[0] - out.sends.get(k - 1)[0];
        out.silences.computeIfAbsent(p[1], x -> new ArrayList<>()).add(silence);
      }
    }
    out.budget = pauses.budgetNanos();
    out.pausedPoints = emitter.pausedPoints();
    return out;
  }

  /**
   * An emitter at 1 000 ticks a second on {@code clock}, not started, whose every call runs
   * {@code onSend} at its time and then takes 50 us of the tick's own work.
   */
  private static Emitter simulatedEmitter(SimClock clock, TickPauses pauses, Runnable onSend) {
    Ticks ticks = new Ticks() {
      @Override
      public void send(int batches) {
        onSend.run();
        clock.now += 50_000; // the tick's own work
      }

      @Override
      public long servingNanos() {
        return 0;
      }
    };
    EmissionRate rate = new EmissionRate(1000, 1000, 1, 3, Emitter.WINDOW_NANOS);
    return new Emitter(ticks, rate, () -> 0, Thread::new, clock, io.pancakej.PancakeConfig.EMITTER_CPU_NONE, pauses);
  }

  private static int sendCount(Run r) {
    synchronized (r.sends) {
      return r.sends.size();
    }
  }

  private static void awaitSends(Run r, int n) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (sendCount(r) < n) {
      assertTrue(System.nanoTime() < deadline, "the simulated emitter stalled at " + sendCount(r) + " calls");
      Thread.sleep(1);
    }
  }

  /** The difference between the mean silences after long and after short pauses (ns). */
  private static long lengthShows(Run r) {
    return mean(r.silences.get(LONG)) - mean(r.silences.get(SHORT));
  }

  private static long mean(List<Long> xs) {
    return (long) xs.stream().mapToLong(Long::longValue).average().orElseThrow();
  }

  @Test
  void aPaddedPause_leavesTheSameSilence_whateverItTook_onTheGrid() throws Exception {
    Run r = run(true);
    assertEquals(10, r.silences.get(SHORT).size());
    assertEquals(10, r.silences.get(LONG).size());
    long origin = r.sends.get(0)[0];
    for (int i = 0; i < r.sends.size(); i++) {
      long offset = (r.sends.get(i)[0] - origin) % MS;
      assertTrue(offset <= EmitterGridTest.MAX_OVERSLEEP, "call " + i + " left " + offset + " ns after its grid point");
    }
    // the budget (32 ms) from the point after the last call: 33 periods, whatever the pause took
    for (List<Long> s : r.silences.values()) {
      for (long silence : s) {
        assertTrue(Math.abs(silence - (BUDGET + 1) * MS) <= EmitterGridTest.MAX_OVERSLEEP, "silence " + silence
            + " ns, not " + (BUDGET + 1) + " ms: "
            + r.silences);
      }
    }
    assertTrue(Math.abs(lengthShows(r)) <= EmitterGridTest.MAX_OVERSLEEP, "the pause's length shows: " + r.silences);
    assertEquals(TickPauses.FIRST_BUDGET_NANOS, r.budget, "pauses under half the budget leave it where it was");
    assertEquals(20 * BUDGET, r.pausedPoints, BUDGET + " points left silent a pause (not counted as missed)");
  }

  /**
   * The control: the same detector on a model of the engine before (the pause holds the emitter
   * inside its tick, after its point) finds the 2 ms between the pauses' lengths.
   * {@link #aCheckpoint_leavesTheBudgetsSilence_onARealProxy} is the engine's own check.
   */
  @Test
  void aPauseInsideTheTick_showsItsLength() throws Exception {
    Run r = run(false);
    long shows = lengthShows(r);
    assertTrue(Math.abs(shows - (LONG - SHORT)) <= EmitterGridTest.MAX_OVERSLEEP,
        "silences by pause length " + r.silences + ": the detector should see the 2 ms, saw " + shows);
  }

  /** A pause that outlasts half its budget doubles it (a power of two, twice its length), and only an overrun shows. */
  @Test
  void aLongPause_raisesTheBudget_onAPowerOfTwoStep() throws Exception {
    SimClock clock = new SimClock();
    TickPauses pauses = TickPauses.withoutSlots(new StampedLock(), clock, TimeUnit.SECONDS.toNanos(10));
    CompletableFuture<Long> held = new CompletableFuture<>();
    CompletableFuture<Void> started = new CompletableFuture<>();
    Thread emitter = new Thread(() -> {
      pauses.emitterStarted();
      started.complete(null);
      try {
        long silence = 0;
        while (silence == 0) {
          silence = pauses.runDue(clock.now);
          Thread.onSpinWait();
        }
        held.complete(silence);
      } finally {
        pauses.emitterStopped();
      }
    });
    emitter.start();
    started.get(10, TimeUnit.SECONDS);
    pauses.run(() -> clock.now += 20 * MS, true);
    assertEquals(TickPauses.FIRST_BUDGET_NANOS, held.get(10, TimeUnit.SECONDS), "this pause's silence: the old budget");
    emitter.join(10_000);
    assertEquals(1L << 26, pauses.budgetNanos(), "the next: 2^26 ns, the power of two at or above 40 ms");
  }

  @TempDir
  Path dir;

  /** Records when each tick's call left (also PlanSlotsTest's). */
  static final class CallTimes extends ForwardingStore {
    private final List<Long> times = new ArrayList<>();

    CallTimes(KvStore delegate) {
      super(delegate);
    }

    @Override
    public PendingReply sendPutGet(List<byte[]> putKeys, List<byte[]> putValues, List<byte[]> getKeys) {
      synchronized (times) {
        times.add(System.nanoTime());
      }
      return super.sendPutGet(putKeys, putValues, getKeys);
    }

    /** The longest silence between two calls that ends after {@code from} and starts before {@code to}. */
    long longestSilence(long from, long to) {
      synchronized (times) {
        long longest = 0;
        for (int i = 1; i < times.size(); i++) {
          if (times.get(i) > from && times.get(i - 1) < to) {
            longest = Math.max(longest, times.get(i) - times.get(i - 1));
          }
        }
        return longest;
      }
    }

    /** Calls that follow a silence of at least {@code min} ns after {@code from}: the call before each. */
    List<Long> silencesAfter(long from, long min) {
      List<Long> out = new ArrayList<>();
      synchronized (times) {
        for (int i = 1; i < times.size(); i++) {
          if (times.get(i - 1) >= from && times.get(i) - times.get(i - 1) >= min) {
            out.add(times.get(i - 1));
          }
        }
      }
      return out;
    }
  }

  /**
   * On a real proxy (1 000 ticks a second): a checkpoint's pause runs on the emitter and leaves the
   * budget's silence, its grid points counted as paused, whatever the copy took (under a
   * millisecond here). Before, the store saw the copy's length.
   */
  @Test
  void aCheckpoint_leavesTheBudgetsSilence_onARealProxy() throws Exception {
    CallTimes store = new CallTimes(new MemoryStore());
    try (Proxy proxy = Proxy.open(io.pancakej.PancakeConfig.builder().stateDir(dir.resolve("s")).capacity(200)
        .valueSize(16).keySize(16).pacerRate(1000).tickRateMax(1000).store(store).build())) {
      for (int i = 0; i < 100; i++) {
        proxy.put(("k" + i).getBytes(StandardCharsets.UTF_8), new byte[] {(byte) i}); // an UpdateCache to copy
      }
      Thread.sleep(100);
      int retries = 0;
      for (int round = 0; round < 3; round++) {
        long budget = proxy.pauses.budgetNanos();
        long points = (budget + MS - 1) / MS;
        long pausedBefore = proxy.emitter.pausedPoints();
        long slotsBefore = proxy.pauses.slotsRun();
        long asked = System.nanoTime();
        proxy.checkpoint();
        long done = System.nanoTime();
        Thread.sleep(100); // the silence, and the calls after it
        if (proxy.pauses.slotsRun() != slotsBefore) {
          assertTrue(++retries < 10, "a slot fell in every round");
          round--; // a slot's silence fell in this round (one a second): counted with it, so again
          continue;
        }
        assertEquals(points, proxy.emitter.pausedPoints() - pausedBefore, "grid points left silent by checkpoint " + round);
        long silence = store.longestSilence(asked, done);
        assertTrue(silence >= budget, "checkpoint " + round + ": a silence of " + silence + " ns, under the budget " + budget);
      }
    }
  }

  /** Before the emitter runs and after it stops, a pause runs on its caller; a failing one fails its caller only. */
  @Test
  void withoutAnEmitter_aPauseRunsOnItsCaller_andItsFailureIsTheCallers() throws Exception {
    StampedLock lock = new StampedLock();
    TickPauses pauses = new TickPauses(lock, new SimClock(), TimeUnit.SECONDS.toNanos(10));
    Thread caller = Thread.currentThread();
    assertEquals(caller, pauses.run(() -> {
      assertTrue(lock.isWriteLocked(), "a pause holds the write side");
      return Thread.currentThread();
    }, true));
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> pauses.run(() -> {
      throw new IllegalStateException("snapshot failed");
    }, false));
    assertEquals("snapshot failed", e.getMessage());
    assertTrue(!lock.isWriteLocked(), "the lock is released after a failure");

    // an emitter that stops runs what was asked for meanwhile, on its way out
    CompletableFuture<Void> started = new CompletableFuture<>();
    CompletableFuture<Void> stop = new CompletableFuture<>();
    Thread emitter = new Thread(() -> {
      pauses.emitterStarted();
      started.complete(null);
      stop.join();
      pauses.emitterStopped();
    });
    emitter.start();
    started.get(10, TimeUnit.SECONDS);
    CompletableFuture<Thread> ranOn = CompletableFuture.supplyAsync(() -> pauses.run(Thread::currentThread, false));
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!pauses.pending() && System.nanoTime() < deadline) {
      Thread.sleep(1);
    }
    assertTrue(pauses.pending(), "the pause waits for the emitter");
    stop.complete(null);
    assertEquals(emitter, ranOn.get(10, TimeUnit.SECONDS), "the stopping emitter ran the pause asked for");
    assertEquals(caller, pauses.run(Thread::currentThread, false), "after it stopped: the caller");
  }

  /** Slots of a simulated run: the grid points its calls left on, when a plan ran, the slot times, the silences. */
  private record Slotted(java.util.SortedSet<Long> points, long planRanAt, long firstSlot, List<long[]> gaps) {
  }

  /** A checkpoint interval of 2 s: slots every second, every other one a checkpoint slot. */
  private static final long CHECKPOINT_INTERVAL = 2_000 * MS;
  private static final long SLOT = TickPauses.PLAN_SLOT_NANOS;

  /**
   * 4.5 s of simulated time at 1 000 ticks a second; after 2 500 calls another thread asks for a
   * 1-ms plan install: {@code "slot"} through {@link TickPauses#runInSlot}, as the engine does;
   * {@code "now"} as an unpadded pause at once (the engine before); {@code "none"}: no plan.
   */
  private static Slotted slotted(String plan) throws Exception {
    SimClock clock = new SimClock();
    TickPauses pauses = new TickPauses(new StampedLock(), clock, CHECKPOINT_INTERVAL);
    long firstSlot = pauses.nextSlotNanos();
    List<Long> sends = new ArrayList<>();
    Emitter emitter = simulatedEmitter(clock, pauses, () -> {
      synchronized (sends) {
        sends.add(clock.now);
      }
    });
    long[] ranAt = {-1};
    Thread asker = null;
    emitter.start();
    try {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (sendsSize(sends) < 2500) {
        assertTrue(System.nanoTime() < deadline, "the simulated emitter stalled");
        Thread.sleep(1);
      }
      Supplier<Object> install = () -> {
        ranAt[0] = clock.now;
        clock.now += MS; // the install's work, on the emitter's thread
        return null;
      };
      if (!plan.equals("none")) {
        asker = new Thread(() -> {
          if (plan.equals("slot")) {
            pauses.runInSlot(install, TickPauses.SlotWork.PLAN);
          } else {
            pauses.run(install, false);
          }
        });
        asker.start();
      }
      while (clock.now < firstSlot + 3_600 * MS) {
        assertTrue(System.nanoTime() < deadline, "the simulated emitter stalled");
        Thread.sleep(1);
      }
    } finally {
      emitter.close();
    }
    if (asker != null) {
      asker.join(10_000);
    }
    java.util.SortedSet<Long> points = new java.util.TreeSet<>();
    List<long[]> gaps = new ArrayList<>(); // {the call before, the silence}
    synchronized (sends) {
      long origin = sends.get(0);
      for (int i = 0; i < sends.size(); i++) {
        long t = sends.get(i);
        if (t > firstSlot + 3_500 * MS) {
          break; // the same stretch of every run
        }
        points.add((t - origin + MS / 2) / MS);
        if (i > 0 && t - sends.get(i - 1) > 2 * MS) {
          gaps.add(new long[] {sends.get(i - 1), t - sends.get(i - 1)});
        }
      }
    }
    return new Slotted(points, ranAt[0], firstSlot, gaps);
  }

  private static int sendsSize(List<Long> sends) {
    synchronized (sends) {
      return sends.size();
    }
  }

  /**
   * The slots are silent whether or not anything waited for them, on a schedule of the clock alone:
   * every second, for the plan budget (4 ms), and every other second, a checkpoint slot, for the
   * checkpoint budget (32 ms). A plan install asked for between two slots waits for the next, so
   * the calls leave on exactly the grid points they leave on without one. The control: the same
   * install run at once (the engine before) moves calls, and the same comparison finds it.
   */
  @Test
  void aPlanWaitsForTheNextSlot_andTheCallsLeaveAsWithoutIt() throws Exception {
    Slotted none = slotted("none");
    Slotted slot = slotted("slot");
    Slotted now = slotted("now");
    List<String> seen = new ArrayList<>();
    for (long[] g : none.gaps()) {
      seen.add((g[0] - none.firstSlot()) / 1000 + " us: " + g[1] / 1000 + " us");
    }
    assertEquals(4, none.gaps().size(), "one silence per slot: " + seen);
    for (int k = 0; k < 4; k++) {
      long slotAt = none.firstSlot() + k * SLOT;
      long[] g = none.gaps().get(k);
      assertTrue(g[0] < slotAt && slotAt - g[0] <= 2 * MS, "silence " + k + " not at its slot: " + seen);
      long budget = k % 2 == 1 ? TickPauses.FIRST_BUDGET_NANOS : TickPauses.FIRST_PLAN_BUDGET_NANOS;
      assertTrue(Math.abs(g[1] - budget - MS) <= EmitterGridTest.MAX_OVERSLEEP, "silence " + k + ": " + seen);
    }
    assertEquals(none.points(), slot.points(), "a plan in a slot moved no call");
    long after = slot.planRanAt() - slot.firstSlot();
    long off = Math.floorMod(after, SLOT);
    assertTrue(off >= SLOT - MS || off <= MS, "the plan ran " + after + " ns after the first slot: not in a slot");
    assertTrue(after >= 2 * SLOT - MS, "the plan, asked for after the second slot, ran before the third");
    assertTrue(!now.points().equals(none.points()), "the control: an install at once should move calls");
  }
}
