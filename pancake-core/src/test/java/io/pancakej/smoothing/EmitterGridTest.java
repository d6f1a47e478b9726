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
}
