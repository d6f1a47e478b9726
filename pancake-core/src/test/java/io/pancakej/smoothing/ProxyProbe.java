package io.pancakej.smoothing;

import io.pancakej.crypto.EpochAead;

/**
 * What the engine's tests reach inside a {@link Proxy} that the engine itself never needs: the
 * value cipher's counts, replicas read straight from the store, a tick run on the caller's thread,
 * work done with no tick in flight. Kept here, in test code, so no production path carries a hook.
 */
final class ProxyProbe {
  private ProxyProbe() {}

  /** The value cipher (epochs and counts). */
  static EpochAead valueAead(Proxy proxy) {
    return proxy.aead;
  }

  /** Decrypts replica {@code r} straight from the store (to check replicas after quiescence). */
  static byte[] readReplicaValue(Proxy proxy, int r) {
    return readReplica(proxy, proxy.phase, r).valueOrNull();
  }

  /** Replica {@code r} straight from the store, opened as a tick in phase {@code p} would open it. */
  static ReplicaCodec.View readReplica(Proxy proxy, Phase p, int r) {
    byte[] label = proxy.label(r);
    return proxy.runner.serving.opener().open(p, r, label, proxy.store.get(label));
  }

  /** How long close waits for the emitter's thread to end (a store call that never returns). */
  static void emitterStopWait(Proxy proxy, java.time.Duration wait) {
    proxy.emitter.stopWait(wait.toNanos());
  }

  /** Runs one tick of one batch now, on the caller's thread, serving included. */
  static void idleBatch(Proxy proxy) {
    proxy.runner.tick(1);
  }

  /**
   * Runs {@code work} with no tick in flight and no write-back owed: it holds the runner's monitor,
   * which every tick's send takes, after sending what was owed (eager swaps, tampering between ticks).
   */
  static void exclusive(Proxy proxy, Runnable work) {
    synchronized (proxy.runner) {
      proxy.runner.flush();
      work.run();
    }
  }
}
