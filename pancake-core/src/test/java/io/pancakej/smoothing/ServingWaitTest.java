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
 * The serving thread's wait for the next tick: on the core (yielding) only while ticks come close
 * together, parked when they come further apart, and never in the way of a tick's own serving or
 * of close. The proxy's clock stands still, so a wait on the core ends only when a tick arrives or
 * the client closes: a serving that finished its tick only after that wait would never finish.
 */
class ServingWaitTest {
  @TempDir
  Path dir;

  @Test
  void closeTicks_waitOnTheCore_spreadTicksPark_andNeitherHoldsATickOrClose() throws Exception {
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
      clock.now += TimeUnit.MICROSECONDS.toNanos(300); // ticks 300 us apart: under load
      assertTimeoutPreemptively(Duration.ofSeconds(10), () -> proxy.runner.tick(1),
          "a tick's serving must end before its thread waits for the next tick");
      Thread serving = proxy.runner.servingThread();
      assertNotNull(serving);
      for (int i = 0; i < 20; i++) { // the clock stands still: the wait on the core goes on
        Thread.sleep(10);
        assertEquals(Thread.State.RUNNABLE, serving.getState(), "waiting for the next tick on the core");
      }

      clock.now += TimeUnit.MILLISECONDS.toNanos(2); // the next tick 2 ms later: idle
      assertTimeoutPreemptively(Duration.ofSeconds(10), () -> proxy.runner.tick(1));
      Thread.State state = serving.getState();
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (state != Thread.State.WAITING && System.nanoTime() < deadline) {
        Thread.sleep(5);
        state = serving.getState();
      }
      assertEquals(Thread.State.WAITING, state, "at idle the serving thread parks until the next tick");

      clock.now += TimeUnit.MICROSECONDS.toNanos(300);
      assertTimeoutPreemptively(Duration.ofSeconds(10), () -> proxy.runner.tick(1));
      Thread.sleep(20);
      assertEquals(Thread.State.RUNNABLE, serving.getState(), "close together again: on the core");
    } finally {
      // close sends no tick here (the clock stands still): it must end the wait on the core itself
      assertTimeoutPreemptively(Duration.ofSeconds(20), proxy::close, "close ends the serving thread's wait");
    }
  }
}
