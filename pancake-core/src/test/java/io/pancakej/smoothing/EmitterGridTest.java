package io.pancakej.smoothing;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

/**
 * The emitter on a simulated clock: every call leaves on a grid point of the tick rate in force,
 * from one origin -- never before it, and after it by no more than the OS's wake-up delay --
 * however long the ticks before it took (some run past several points, which are skipped and
 * counted, never sent late), while the load moves the levels.
 */
class EmitterGridTest {
  /** The simulated OS wakes a parked thread up to this late. */
  static final int MAX_OVERSLEEP = 20_000;

  /** Simulated time: parking advances it by what was asked plus a random oversleep; a pause by 1 ns. */
  static final class SimClock implements Clock {
    private final Random random = new Random(11);
    volatile long now = 1_000_000_000L;

    @Override
    public long nanoTime() {
      return now;
    }

    @Override
    public void park(long nanos) {
      now += nanos + random.nextInt(MAX_OVERSLEEP); // the OS wakes late
    }

    @Override
    public void pause() {
      now += 1;
    }
  }

  @Test
  void callsLeaveOnlyOnGridPoints_whateverTheTicksCost() throws Exception {
    SimClock clock = new SimClock();
    EmissionRate rate = new EmissionRate(100, 6400, 64, 3, Emitter.WINDOW_NANOS);
    List<long[]> sends = new ArrayList<>(); // time, period in force
    Random cost = new Random(5);
    long[] requests = {0};
    CountDownLatch done = new CountDownLatch(1);
    Emitter[] emitter = new Emitter[1];
    Ticks ticks = new Ticks() {
      @Override
      public void send(int batches) {
        sends.add(new long[] {clock.now, (long) (1e9 / rate.ticksPerSecond())});
        // a tick costs 50 us to 3 ms: sometimes past the next grid points
        clock.now += 50_000 + (cost.nextInt(10) == 0 ? cost.nextInt(3_000_000) : cost.nextInt(400_000));
        requests[0] += sends.size() < 4000 ? 20 : 0; // load, then none: the levels go up, then down
        if (sends.size() == 8000) {
          done.countDown();
        }
      }

      @Override
      public long servingNanos() {
        return 0;
      }
    };
    emitter[0] = new Emitter(ticks, rate, () -> requests[0], Thread::new, clock);
    emitter[0].start();
    assertTrue(done.await(60, TimeUnit.SECONDS), "8000 ticks on the simulated clock");
    emitter[0].close();

    long origin = sends.get(0)[0];
    java.util.Set<Long> periods = new java.util.HashSet<>();
    for (int i = 0; i < 8000; i++) {
      long t = sends.get(i)[0];
      long period = sends.get(i)[1];
      periods.add(period);
      long offset = (t - origin) % period;
      assertTrue(offset <= MAX_OVERSLEEP, "call " + i + " left " + offset + " ns after a point of the grid of " + period);
      if (i > 0 && sends.get(i - 1)[1] == period) {
        long gap = t - sends.get(i - 1)[0];
        assertTrue(gap >= period - MAX_OVERSLEEP, "call " + i + " left " + gap + " ns after the previous one, period " + period);
      }
    }
    assertTrue(periods.size() >= 4, "the load moved the tick rate: periods " + periods);
    assertTrue(emitter[0].lateTicks() > 0, "ticks that ran past grid points made the emitter skip some");
  }

  /**
   * A tick's call carries the write-back of the tick two before it, so it cannot leave before that
   * tick's serving has ended. A serving that ends past the call's grid point costs the point: the
   * call leaves on a later point, never between two. The fake runner waits for that serving inside
   * {@code send}, as the engine's does, so an emitter that did not wait for it before its grid
   * point would send those calls late, off the grid, and fail here.
   */
  @Test
  void aServingThatEndsPastThePoint_costsThePoint_notALateCall() throws Exception {
    SimClock clock = new SimClock();
    EmissionRate rate = new EmissionRate(100, 6400, 64, 3, Emitter.WINDOW_NANOS);
    List<long[]> sends = new ArrayList<>(); // time, period in force
    List<Long> servedAt = new ArrayList<>(); // when each tick's serving ends
    Random cost = new Random(7);
    int[] pastThePoint = {0};
    CountDownLatch done = new CountDownLatch(1);
    Ticks ticks = new Ticks() {
      private void awaitServing() {
        int k = sends.size();
        if (k >= 2 && clock.now < servedAt.get(k - 2)) {
          clock.now = servedAt.get(k - 2);
        }
      }

      @Override
      public void awaitSendable() {
        int k = sends.size();
        long period = (long) (1e9 / rate.ticksPerSecond());
        if (k >= 2 && servedAt.get(k - 2) > sends.get(k - 1)[0] + period) {
          pastThePoint[0]++;
        }
        awaitServing();
      }

      @Override
      public void send(int batches) {
        awaitServing(); // the engine's runner waits here too
        sends.add(new long[] {clock.now, (long) (1e9 / rate.ticksPerSecond())});
        // its serving: mostly short, one in eight ends 1 to 4 ms later
        servedAt.add(clock.now + (cost.nextInt(8) == 0 ? 1_000_000 + cost.nextInt(3_000_000) : 30_000));
        clock.now += 20_000;
        if (sends.size() == 4000) {
          done.countDown();
        }
      }

      @Override
      public long servingNanos() {
        return 0;
      }
    };
    Emitter emitter = new Emitter(ticks, rate, () -> 0, Thread::new, clock);
    emitter.start();
    assertTrue(done.await(60, TimeUnit.SECONDS), "4000 ticks on the simulated clock");
    emitter.close();

    long origin = sends.get(0)[0];
    for (int i = 0; i < 4000; i++) {
      long t = sends.get(i)[0];
      long period = sends.get(i)[1];
      long offset = (t - origin) % period;
      assertTrue(offset <= MAX_OVERSLEEP, "call " + i + " left " + offset + " ns after a point of the grid of " + period
          + " (after a serving that ended past its point?)");
    }
    assertTrue(pastThePoint[0] > 30, "servings that ended past the next call's point: " + pastThePoint[0]);
    assertTrue(emitter.lateTicks() >= pastThePoint[0], "points skipped " + emitter.lateTicks() + " < " + pastThePoint[0]);
  }
}
