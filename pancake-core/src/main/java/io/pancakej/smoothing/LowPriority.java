package io.pancakej.smoothing;

import java.io.IOException;
import java.util.concurrent.TimeUnit;

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
    long tid;
    try {
      tid = CorePinning.currentThreadId();
    } catch (RuntimeException notLinux) {
      return false;
    }
    try {
      Process p = new ProcessBuilder("renice", "-n", Integer.toString(NICE), "-p", Long.toString(tid))
          .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD).start();
      if (!p.waitFor(10, TimeUnit.SECONDS)) {
        p.destroy();
        return false;
      }
      return p.exitValue() == 0;
    } catch (IOException e) {
      return false; // no renice: the thread keeps the normal priority
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }
}
