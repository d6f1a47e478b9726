package io.pancakej.smoothing;

import io.pancakej.ConfigException;

/**
 * Lowers the calling thread's scheduling priority to nice 19, on Linux, without native code
 * ({@code renice}, util-linux). For background work that holds no lock the ticks need: it then
 * yields its CPU to the serving thread and the callers, whose delays the store can time
 * (docs/security.md, "The callers a tick wakes"). Linux does not let a thread raise its priority
 * again without privileges, so it is only for threads that stay in the background.
 */
final class LowPriority {
  static final int NICE = 19;

  private LowPriority() {}

  /**
   * Puts the current thread under the idle scheduling policy ({@code SCHED_IDLE}, {@code chrt},
   * util-linux): it runs only when no other thread wants its CPU, and any other that wakes there
   * preempts it at once. For a guest on the emitter's CPU ({@link CorePinning#host}); false (and
   * nothing changed) where that is not possible. Linux lets an unprivileged thread leave that
   * policy only within its nice limit, so it is for threads that stay guests.
   */
  static boolean idleCurrentThread() {
    long tid = CorePinning.currentThreadIdOrNone();
    if (tid < 0) {
      return false;
    }
    try {
      return CorePinning.run(new String[] {"chrt", "--idle", "-p", "0", Long.toString(tid)}) == null;
    } catch (ConfigException e) {
      return false;
    }
  }

  /** Lowers the current thread's priority; false (and nothing changed) where that is not possible. */
  static boolean lowerCurrentThread() {
    long tid = CorePinning.currentThreadIdOrNone();
    if (tid < 0) {
      return false; // not Linux
    }
    try {
      return CorePinning.run(new String[] {"renice", "-n", Integer.toString(NICE), "-p", Long.toString(tid)}) == null;
    } catch (ConfigException e) {
      return false; // no renice (or interrupted): the thread keeps the normal priority
    }
  }
}
