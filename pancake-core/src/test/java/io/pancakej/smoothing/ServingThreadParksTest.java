package io.pancakej.smoothing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.pancakej.PancakeConfig;
import io.pancakej.store.MemoryStore;

/**
 * Between ticks the serving thread parks, however close together the ticks come: one that waited
 * on its core (yielding while ticks came less than 500 us apart, the code before 2026-11-28) kept
 * both cores of a small machine busy, so the callers it had just woken took the emitter's core at
 * the next grid point, and the silence after a call followed how many requests the call answered
 * (docs/security.md, "The callers a tick wakes"). The proxy's clock stands still here, so the old
 * wait on the core never ended and this test fails on it.
 */
class ServingThreadParksTest {
  @TempDir
  Path dir;

  @Test
  void afterEachTick_theServingThreadParks_whetherTicksComeCloseOrApart() throws Exception {
    StillClock clock = new StillClock();
    // the tick cap at the floor: the emitter's grid points 10 ms apart, far beyond the 2.6 ms this
    // test moves the clock (a client starts at the tick cap, whose points would come every 156 us)
    Proxy proxy = ProxyOpener.open(PancakeConfig.builder().stateDir(dir.resolve("s")).capacity(50).valueSize(16)
        .keySize(16).tickRateMax(100).store(new MemoryStore()).build(), clock);
    try {
      // the emitter sends its first tick at once, then waits for a grid point the still clock never reaches
      long deadline0 = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (proxy.emitter.ticks() == 0 && System.nanoTime() < deadline0) {
        Thread.sleep(1);
      }
      assertEquals(1, proxy.emitter.ticks());
      long[] steps = {TimeUnit.MICROSECONDS.toNanos(300), TimeUnit.MILLISECONDS.toNanos(2), TimeUnit.MICROSECONDS.toNanos(150)};
      for (long step : steps) {
        clock.now += step; // ticks 300 us apart (under load), 2 ms (idle), 150 us (the tick cap)
        assertTimeoutPreemptively(Duration.ofSeconds(10), () -> proxy.runner.tick(1));
        Thread serving = proxy.runner.servingThread();
        assertNotNull(serving);
        assertEquals(Thread.State.WAITING, parkedWithin(serving, 10), "ticks " + step / 1000 + " us apart: the serving"
            + " thread must park, not wait for the next tick on its core");
      }
    } finally {
      assertTimeoutPreemptively(Duration.ofSeconds(20), proxy::close, "close ends the serving thread");
    }
  }

  /** The thread's state once it parks, or after {@code seconds}. */
  private static Thread.State parkedWithin(Thread thread, int seconds) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    Thread.State state = thread.getState();
    while (state != Thread.State.WAITING && System.nanoTime() < deadline) {
      Thread.sleep(5);
      state = thread.getState();
    }
    // and it stays parked: a thread that yields on its core passes through WAITING only by chance
    for (int i = 0; i < 20 && state == Thread.State.WAITING; i++) {
      Thread.sleep(5);
      state = thread.getState();
    }
    return state;
  }
}
