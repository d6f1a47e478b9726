package io.pancakej.smoothing;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.pancakej.PancakeConfig;
import io.pancakej.store.MemoryStore;

/**
 * A swap's crawl does not pull the emitter's level down: one closed-loop caller, slowed to a
 * trickle by delta' from uniform to zipf (0.004 at 500 keys), would take the level to the floor
 * within a second (telling the store a swap started, and leaving the swaps to the floor's
 * batches); the proxy holds its levels while the ticks sample a transition
 * ({@link EmissionRate}). The check has teeth: with the hold wired to the phase the proxy opened
 * with (a bug once made), the level fell to the floor.
 */
class SwapCrawlLevelTest {
  private static final int KEYS = 500;

  @TempDir
  Path dir;

  @Test
  void aClosedLoopCallersCrawl_doesNotPullTheLevelDown() throws Exception {
    try (Proxy proxy = Proxy.open(PancakeConfig.builder().stateDir(dir.resolve("s")).capacity(KEYS).valueSize(32)
        .keySize(16).seed(3).adapt(false).store(new MemoryStore()).build())) {
      for (int i = 0; i < KEYS; i++) {
        proxy.put(SwappingTest.key(i), new byte[] {(byte) i});
      }
      AtomicBoolean stop = new AtomicBoolean();
      Thread caller = new Thread(() -> {
        for (int i = 0; !stop.get(); i++) {
          proxy.get(SwappingTest.key(i % KEYS));
        }
      });
      caller.start();
      try {
        Thread.sleep(1500); // the level follows the caller
        double before = proxy.emitter.batchesPerSecond();
        assertTrue(proxy.transitions.start(SwappingTest.bySlot(proxy, ReplicaPlanTest.zipf(KEYS, 1.2, 0)),
            Estimator.EXACT, "test"));
        double lowest = before;
        long end = System.nanoTime() + 1_500_000_000L;
        while (System.nanoTime() < end && proxy.phase.sampling() instanceof Transition) {
          lowest = Math.min(lowest, proxy.emitter.batchesPerSecond());
          Thread.sleep(20);
        }
        System.out.printf("swap crawl: %.0f batches/s before, lowest %.0f while the ticks crawled; %d swaps pending%n",
            before, lowest, proxy.stats().pendingSwaps());
        // the machine may step the level down a little if it cannot keep up, never to the floor
        assertTrue(lowest >= before / 4, "the level fell from " + before + " to " + lowest + " batches/s");
      } finally {
        stop.set(true);
        caller.join();
      }
    }
  }

  /**
   * A swap that stops making progress (a damaged replica whose value never comes) stops holding the
   * levels after {@link Transition#STALL_NANOS}: otherwise the level would stop following the
   * callers for as long as the swap stays open, which the store, having damaged the label, could see.
   */
  @Test
  void aSwapThatMakesNoProgress_stopsHoldingTheLevels() {
    ReplicaPlan from = ReplicaPlan.build(ReplicaPlanTest.zipf(50, 0.3, 0), new java.util.SplittableRandom(1));
    ReplicaPlan.Successor next = from.successor(ReplicaPlanTest.zipf(50, 1.3, 0), new java.util.SplittableRandom(2));
    Transition t = new Transition(from, next.plan(), next.swaps());
    long s = Transition.STALL_NANOS;
    assertTrue(t.crawls(1_000));
    assertTrue(t.crawls(1_000 + s - 1), "within the stall limit");
    assertFalse(t.crawls(1_000 + s), "no swap for the stall limit: not held");
    t.completeSwap(next.swaps()[0]);
    assertTrue(t.crawls(2 * s), "a swap done: held again");
    for (int r : next.swaps()) {
      t.completeSwap(r);
    }
    assertFalse(t.crawls(2 * s + 1), "every swap done");
  }
}
