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
