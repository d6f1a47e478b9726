package io.pancakej.smoothing;

/** What the emitter drives: sending a tick, and how long the serving of ticks has taken so far. */
interface Ticks {
  /** Sends a tick of {@code batches} batches (returns once its call is sent). */
  void send(int batches);

  /**
   * Waits until the next tick can be sent at once: the serving its call depends on has ended (the
   * emitter calls it before it waits for its grid point, so a serving that ends past the point
   * makes it skip the point rather than send late). At once by default.
   */
  default void awaitSendable() {
  }

  /**
   * True if, as the next tick is about to be sent, the serving of a tick two or more before it is
   * still under way: the serving is falling behind the clock. With a write-back lag of 2 that cost
   * the grid point; the levels still count it as a missed point, though the grid keeps it.
   */
  default boolean servingBehind() {
    return false;
  }

  /** How long the last tick waited, idle, for its call's release time (not busy time). */
  default long lastReleaseWaitNanos() {
    return 0;
  }

  /** Nanoseconds the serving thread has spent on ticks so far. */
  long servingNanos();
}
