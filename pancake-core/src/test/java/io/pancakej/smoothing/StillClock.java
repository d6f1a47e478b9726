package io.pancakej.smoothing;

import java.util.concurrent.locks.LockSupport;

/**
 * A proxy clock that stands still until a test moves it ({@link #now}); parking waits a
 * millisecond at most, for real, so a thread waiting for a time that never comes still polls.
 */
final class StillClock implements Clock {
  volatile long now = 1_000_000_000L;

  @Override
  public long nanoTime() {
    return now;
  }

  @Override
  public void park(long nanos) {
    LockSupport.parkNanos(Math.min(nanos, 1_000_000));
  }

  @Override
  public void pause() {
    Thread.yield();
  }
}
