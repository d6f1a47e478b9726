package io.pancakej.smoothing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.pancakej.PancakeConfig;
import io.pancakej.store.MemoryStore;

/**
 * Plan changes on a real proxy while the emitter runs (1 000 ticks a second, a 3-s checkpoint
 * interval: slots every second, every third one a checkpoint slot): a swap towards a new estimate,
 * its finish, and a deleted key's reweighting are each installed in a slot, and every silence of
 * the checkpoint budget the store sees falls at a checkpoint slot. Before, each install ran at the
 * time of its change, and a swap's start asked for a checkpoint at once: a padded silence at that
 * moment; later that checkpoint ran in the next slot, which then had the checkpoint budget's
 * silence, at a plan slot. This test finds both.
 */
class PlanSlotsTest {
  private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);
  /** The time between two slots. */
  private static final long INTERVAL = TickPauses.PLAN_SLOT_NANOS;

  @TempDir
  Path dir;

  @Test
  void aSwap_itsFinish_andADeletesReweighting_runInSlots_andTheStoreSeesOnlyTheSlots() throws Exception {
    TickPausesTest.CallTimes store = new TickPausesTest.CallTimes(new MemoryStore());
    int n = 200;
    try (Proxy proxy = Proxy.open(PancakeConfig.builder().stateDir(dir.resolve("s")).capacity(n).valueSize(16)
        .keySize(16).pacerRate(1000).tickRateMax(1000).adapt(false).checkpointInterval(Duration.ofNanos(3 * INTERVAL))
        .store(store).seed(3).build())) {
      for (int i = 0; i < n; i++) {
        proxy.put(SwappingTest.key(i), new byte[] {(byte) i});
      }
      long from = System.nanoTime();
      long firstSlot = proxy.pauses.nextSlotNanos();
      long checkpointSlot = proxy.pauses.nextCheckpointSlotNanos();
      long checkpointsBefore = proxy.checkpointer.checkpoints.sum();
      long budget = proxy.pauses.budgetNanos(); // it only rises: the threshold below is the strictest

      // a swap towards a skewed estimate: the install waits for a slot
      double[] byKey = new double[n];
      java.util.Arrays.fill(byKey, 1);
      byKey[7] = n; // key 7 gains about half the replicas
      while (proxy.pauses.nextSlotNanos() == firstSlot
          || proxy.pauses.nextCheckpointSlotNanos() - proxy.pauses.nextSlotNanos() != 2 * INTERVAL) {
        Thread.sleep(1); // a slot ran and the next two are plan slots: ask a third of an interval after it
      }
      Thread.sleep(INTERVAL / 3 / MS);
      long asked = System.nanoTime();
      assertTrue(proxy.transitions.start(SwappingTest.bySlot(proxy, byKey), Estimator.EXACT, "test"));
      long installed = System.nanoTime();
      assertTrue(proxy.phase instanceof Transition, "a swap started");
      assertSlot(firstSlot, INTERVAL, installed, "the swap's install returned");
      assertTrue(installed - asked >= INTERVAL / 2, "the install waited for the slot: " + (installed - asked) + " ns");

      // its swaps, its finish (in a slot), then a delete whose reweighting is installed in a slot too
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while (proxy.phase instanceof Transition) {
        proxy.get(SwappingTest.key(7));
        assertTrue(System.nanoTime() < deadline, "the swap did not finish: " + proxy.stats().pendingSwaps() + " pending");
      }
      assertTrue(proxy.delete(SwappingTest.key(3)));
      while (!proxy.transitions.estimateSource.endsWith("minus deleted keys")) {
        proxy.get(SwappingTest.key(7));
        assertTrue(System.nanoTime() < deadline, "the deleted key was not dropped from the estimate");
      }
      Thread.sleep(INTERVAL / MS); // one more slot with nothing in it
      long to = System.nanoTime();

      // the store's view: silences of the checkpoint budget only at checkpoint slots (every third
      // slot), none at the plan slots after the swap's install
      List<Long> silences = store.silencesAfter(from, budget * 3 / 4);
      assertFalse(silences.isEmpty(), "no checkpoint's silence seen: the check below would pass on nothing");
      long slots = (to - firstSlot) / INTERVAL + (to >= firstSlot ? 1 : 0);
      for (long s : silences) {
        assertSlot(checkpointSlot, 3 * INTERVAL, s + MS, "a silence after a call at " + (s - from) / MS + " ms");
      }
      assertTrue(silences.size() <= slots / 3 + 1, silences.size() + " silences for " + slots + " slots");
      // the swap's plan was saved by a checkpoint slot's checkpoint, not one of its own
      long checkpoints = proxy.checkpointer.checkpoints.sum() - checkpointsBefore;
      assertTrue(checkpoints <= slots / 3 + 1, checkpoints + " checkpoints in " + slots + " slots");
      // the installs (the swap's start, its finish, the reweighting) ran in slots, none at once
      assertTrue(proxy.pauses.slotPlansRun() >= 3, proxy.pauses.slotPlansRun() + " plan installs in slots");
      assertEquals(0, proxy.pauses.atOnceRun(), "pauses run at once, outside the slots");
    }
  }

  /** {@code at} (ns) falls within 5 ms of a slot of the schedule from {@code firstSlot}, one each {@code period}. */
  private static void assertSlot(long firstSlot, long period, long at, String what) {
    long off = Math.floorMod(at - firstSlot, period);
    long distance = Math.min(off, period - off);
    assertTrue(distance <= 5 * MS + TimeUnit.MILLISECONDS.toNanos(40),
        what + " " + distance / 1000 + " us from the nearest slot");
  }

  /**
   * A transition whose last swap was done but whose finish (which waits for a slot) was not saved
   * reopens steady on its plan: it used to stay a transition for good (nothing finished it), with
   * the estimator paused and freed slots never dropped.
   */
  @Test
  void aTransitionSavedWithNoSwapLeft_reopensSteady() throws Exception {
    Path state = dir.resolve("done");
    MemoryStore store = new MemoryStore();
    try (Proxy proxy = Proxy.open(PancakeConfig.builder().stateDir(state).capacity(50).valueSize(16).keySize(16)
        .store(store).seed(3).build())) {
      proxy.put(SwappingTest.key(1), new byte[] {1});
    }
    // the saved plan, saved again as a transition from itself with no swap pending
    io.pancakej.crypto.MasterKey key = io.pancakej.crypto.MasterKey.load(state.resolve("master.key"));
    try (StateDirectory sd = StateDirectory.lock(state)) {
      ProxyState s = sd.load(key);
      ProxyState done = new ProxyState(s.storeDescription(), s.stateId(), s.capacity(), s.valueSize(), s.keySize(),
          s.estimate(), s.ownerOf(), s.indexOf(), s.keyOfSlot(), s.freeOrder(), s.nextFree(), s.pending(),
          new ProxyState.TransitionState(s.estimate(), s.ownerOf(), s.indexOf(), new int[0]), s.walSequence(),
          s.deletedSlots(), s.estimateSamples(), s.estimateSource(), s.keyEpoch());
      sd.save(done, key);
    }
    try (Proxy proxy = Proxy.open(PancakeConfig.builder().stateDir(state).capacity(50).valueSize(16).keySize(16)
        .store(store.reopen()).seed(3).build())) {
      assertTrue(proxy.phase instanceof Phase.Steady, "reopened as " + proxy.phase.getClass().getSimpleName());
      org.junit.jupiter.api.Assertions.assertArrayEquals(new byte[] {1}, proxy.get(SwappingTest.key(1)).orElseThrow());
    }
  }
}
