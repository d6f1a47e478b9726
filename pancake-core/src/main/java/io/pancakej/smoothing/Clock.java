package io.pancakej.smoothing;

import java.util.concurrent.locks.LockSupport;

/**
 * The engine's time (one instance per proxy: {@code Proxy.clock}): the system's monotonic clock,
 * or a test's simulated one. The emitter's grid, the serving thread's busy time, checkpoints and
 * progress messages read it; nothing in the engine reads the system's time directly. Not
 * configurable from outside the engine: when calls leave is the timing property the store sees.
 */
interface Clock {
  long nanoTime();

  /** Waits about {@code nanos} (it may wake early or late: callers read the time again). */
  void park(long nanos);

  /** Gives the core up for a moment (the last microseconds before a grid point). */
  void pause();

  Clock SYSTEM = new Clock() {
    @Override
    public long nanoTime() {
      return System.nanoTime();
    }

    @Override
    public void park(long nanos) {
      Thread.interrupted(); // a stray interrupt must not turn parking into spinning
      LockSupport.parkNanos(nanos);
    }

    @Override
    public void pause() {
      Thread.yield();
    }
  };
}
