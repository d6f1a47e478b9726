package io.pancakej.smoothing;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.pancakej.PancakeConfig;
import io.pancakej.StateException;
import io.pancakej.crypto.MasterKey;
import io.pancakej.store.KvStore;
import io.pancakej.store.MemoryStore;

/**
 * Plans saved ahead of their install ({@link SavedPlan}): a transition's swaps start at its install
 * with no checkpoint, and a crash in the middle of them reopens from the saved plan with every
 * value kept -- which it would not without the saved plan.
 */
class SavedPlanTest {
  private static final int KEYS = 300;

  @TempDir
  Path dir;

  /** No scheduled checkpoint runs during a test: the saved plan is all that makes a swap durable. */
  private static PancakeConfig.Builder config(Path state, KvStore store, int pacerRate) {
    return PancakeConfig.builder().stateDir(state).capacity(KEYS).valueSize(32).keySize(16).pacerRate(pacerRate)
        .seed(5).adapt(false).store(store).checkpointInterval(Duration.ofMinutes(10));
  }

  private static byte[] key(int i) {
    return SwappingTest.key(i);
  }

  private static byte[] value(int i) {
    return ("value-" + i).getBytes(java.nio.charset.StandardCharsets.UTF_8);
  }

  private static Map<Integer, byte[]> putAll(Proxy proxy) {
    Map<Integer, byte[]> model = new HashMap<>();
    for (int i = 0; i < KEYS; i++) {
      proxy.put(key(i), value(i));
      model.put(i, value(i));
    }
    return model;
  }

  private static boolean startSwapping(Proxy proxy, double[] byKey) {
    return proxy.transitions.start(SwappingTest.bySlot(proxy, byKey), Estimator.EXACT, "test");
  }

  private static double[] reversed(double[] p) {
    double[] out = new double[p.length];
    for (int i = 0; i < p.length; i++) {
      out[i] = p[p.length - 1 - i];
    }
    return out;
  }

  private static void runUntilSteady(Proxy proxy) {
    for (int i = 0; i < 200_000 && proxy.phase instanceof Transition; i++) {
      proxy.get(key(i % KEYS));
    }
    assertTrue(proxy.phase instanceof Phase.Steady, proxy.stats().pendingSwaps() + " swaps still pending");
  }

  /**
   * A saved plan's name is the one earlier versions gave it (a reopen lists them by name): 20
   * digits, zero-padded. Built without String.format since session 51 (its first call loads the
   * locale data while the ticks run).
   */
  @Test
  void planFileNames_keepTheirFormat() {
    assertEquals("plan-00000000000000000001.bin", StateDirectory.planFile(1));
    assertEquals("plan-00000001234567890123.bin", StateDirectory.planFile(1_234_567_890_123L));
    assertEquals("plan-09223372036854775807.bin", StateDirectory.planFile(Long.MAX_VALUE));
    for (long n : new long[] {0, 1, 42, 1_234_567_890_123L, Long.MAX_VALUE}) {
      assertEquals(n, StateDirectory.planNumber(StateDirectory.planFile(n)), "the name of plan " + n + " read back");
    }
    assertEquals(-1, StateDirectory.planNumber(StateDirectory.PLAN_REHEARSAL_FILE), "the rehearsal's file is no plan");
  }

  @Test
  void aSwapStartsAtItsInstall_withNoCheckpoint_andTheNextCheckpointDeletesTheSavedPlan() {
    Path state = dir.resolve("s");
    try (Proxy proxy = Proxy.open(config(state, new MemoryStore(), 2000).build())) {
      Map<Integer, byte[]> model = putAll(proxy);
      long checkpoints = proxy.checkpointer.checkpoints.sum();
      assertTrue(startSwapping(proxy, ReplicaPlanTest.zipf(KEYS, 1.0, 0)));
      assertTrue(proxy.phase instanceof Transition t && t.isDurable(), "the plan is durable at its install");
      assertEquals(1, proxy.checkpointer.plansSavedAhead.sum());
      assertTrue(Files.exists(state.resolve(StateDirectory.planFile(1))));
      runUntilSteady(proxy);
      assertEquals(checkpoints, proxy.checkpointer.checkpoints.sum(),
          "a checkpoint ran during the swaps: they should not have needed one");
      for (Map.Entry<Integer, byte[]> e : model.entrySet()) {
        assertArrayEquals(e.getValue(), proxy.get(key(e.getKey())).orElseThrow());
      }
      proxy.checkpoint();
      assertFalse(Files.exists(state.resolve(StateDirectory.planFile(1))), "the checkpoint holds the plan now");
    }
  }

  /** What a crash in the middle of the swaps leaves: the store and the state directory as they were. */
  private record Crashed(MemoryStore store, Path state, Map<Integer, byte[]> model, int pending) {}

  private Crashed crashInTheMiddleOfTheSwaps(String name) throws Exception {
    return crashInTheMiddleOfTheSwaps(name, true);
  }

  /** {@code checkpointBetween}: a checkpoint after the first transition, else both plans saved ahead only. */
  private Crashed crashInTheMiddleOfTheSwaps(String name, boolean checkpointBetween) throws Exception {
    MemoryStore memory = new MemoryStore();
    KeyEpochTest.CrashableStore store = new KeyEpochTest.CrashableStore(memory);
    Path state = dir.resolve(name);
    Path afterCrash = dir.resolve(name + "-after-crash");
    Map<Integer, byte[]> model = null;
    int pending = -1;
    try (Proxy proxy = Proxy.open(config(state, store, 500).build())) {
      model = putAll(proxy);
      // from uniform to zipf the swaps only hand dummies to the hot keys, so a lost plan would
      // lose nothing: a second transition to the reverse order takes replicas from keys
      assertTrue(startSwapping(proxy, ReplicaPlanTest.zipf(KEYS, 1.0, 0)));
      runUntilSteady(proxy);
      if (checkpointBetween) {
        proxy.checkpoint(); // the state file holds the first plan and every key: what follows is the second swap
      }
      long checkpoints = proxy.checkpointer.checkpoints.sum();
      assertTrue(startSwapping(proxy, reversed(ReplicaPlanTest.zipf(KEYS, 1.0, 0))));
      int total = proxy.stats().pendingSwaps();
      for (int i = 0; i < 100_000 && proxy.stats().pendingSwaps() > total / 2; i++) {
        proxy.get(key(i % KEYS));
      }
      pending = proxy.stats().pendingSwaps();
      assertTrue(pending > 0 && pending < total, pending + " of " + total + " swaps pending");
      store.crash();
      Thread.sleep(100); // a pacer tick in flight finishes or fails
      assertEquals(checkpoints, proxy.checkpointer.checkpoints.sum(), "a checkpoint saved the swap's plan");
      KeyEpochTest.copyStateDir(state, afterCrash);
    } catch (io.pancakej.StoreException ignored) {
      // closing after the crash may fail; the copy is what counts
    }
    assertTrue(model != null && pending > 0, "the crash came before the swaps were under way");
    return new Crashed(memory, afterCrash, model, pending);
  }

  private static void assertEveryValueKept(Crashed c) {
    try (Proxy proxy = Proxy.open(config(c.state(), c.store().reopen(), 2000).createIfMissing(false).build())) {
      for (Map.Entry<Integer, byte[]> e : c.model().entrySet()) {
        assertArrayEquals(e.getValue(), proxy.get(key(e.getKey())).orElseThrow(), "key " + e.getKey());
      }
      ProxyCorrectnessTest.quiesce(proxy);
      ProxyCorrectnessTest.assertEveryReplicaHoldsLatest(proxy, c.model());
    }
  }

  @Test
  void aCrashInTheMiddleOfTheSwaps_reopensFromTheSavedPlan_andKeepsEveryValue() throws Exception {
    Crashed c = crashInTheMiddleOfTheSwaps("c");
    assertTrue(Files.exists(c.state().resolve(StateDirectory.planFile(2))), "the crash left the saved plan");
    MasterKey key = MasterKey.load(c.state().resolve("master.key"));
    List<byte[]> ownersBefore = io.pancakej.PancakeClient.labelOwners(c.state(), key).keys();
    assertEveryValueKept(c);
    assertFalse(Files.exists(c.state().resolve(StateDirectory.planFile(2))), "the open's checkpoint holds it");
    // an audit's ground truth read before the reopen already serves the saved plan
    List<byte[]> ownersAfter = io.pancakej.PancakeClient.labelOwners(c.state(), key).keys();
    for (int r = 0; r < ownersAfter.size(); r++) {
      assertArrayEquals(ownersAfter.get(r), ownersBefore.get(r), "the owner of replica slot " + r);
    }
  }

  /**
   * Two plans saved ahead and no checkpoint since the first: the reopen follows both from the state
   * file's layout, keeps every value, and numbers the next plan after them.
   */
  @Test
  void aCrashAfterTwoPlansWithNoCheckpoint_reopensThroughBoth() throws Exception {
    Crashed c = crashInTheMiddleOfTheSwaps("two", false);
    assertTrue(Files.exists(c.state().resolve(StateDirectory.planFile(1))), "the first plan is still needed");
    assertTrue(Files.exists(c.state().resolve(StateDirectory.planFile(2))));
    try (Proxy proxy = Proxy.open(config(c.state(), c.store().reopen(), 2000).createIfMissing(false).build())) {
      for (Map.Entry<Integer, byte[]> e : c.model().entrySet()) {
        assertArrayEquals(e.getValue(), proxy.get(key(e.getKey())).orElseThrow(), "key " + e.getKey());
      }
      runUntilSteady(proxy);
      ProxyCorrectnessTest.quiesce(proxy);
      ProxyCorrectnessTest.assertEveryReplicaHoldsLatest(proxy, c.model());
      assertTrue(startSwapping(proxy, ReplicaPlanTest.zipf(KEYS, 1.0, 0)));
      assertTrue(Files.exists(c.state().resolve(StateDirectory.planFile(3))), "numbered after the plans found");
      assertFalse(Files.exists(c.state().resolve(StateDirectory.planFile(2))), "the open's checkpoint holds them");
    }
  }

  /**
   * The check has teeth: the same crash with the saved plan removed reopens the old plan over slots
   * that hold their new owners' values, and the check sees it.
   */
  @Test
  void withoutTheSavedPlan_theSameCrashLosesValues() throws Exception {
    Crashed c = crashInTheMiddleOfTheSwaps("t");
    Files.delete(c.state().resolve(StateDirectory.planFile(2)));
    Throwable loss = assertThrows(Throwable.class, () -> assertEveryValueKept(c));
    System.out.println("without the saved plan: " + loss);
    // the old plan's owner reads a slot that holds its new owner's replica
    assertTrue(loss instanceof io.pancakej.IntegrityException && loss.getMessage().contains("another replica's data")
        || loss instanceof AssertionError && loss.getMessage().startsWith("key "), "unexpected failure: " + loss);
  }

  /**
   * A reopen follows the saved plans from the state file's layout in their order; a later plan from
   * the layout the last applied one started from replaces it (that one was never installed); plans
   * the state file already holds are passed over.
   */
  @Test
  void resume_followsTheChainFromTheStateFilesLayout() {
    ReplicaPlan p0 = ReplicaPlan.build(ReplicaPlanTest.zipf(50, 0.3, 0), new java.util.SplittableRandom(1));
    ReplicaPlan.Successor s1 = p0.successor(ReplicaPlanTest.zipf(50, 1.2, 0), new java.util.SplittableRandom(2));
    ReplicaPlan.Successor s2 = s1.plan().successor(ReplicaPlanTest.zipf(50, 0.6, 0), new java.util.SplittableRandom(3));
    ReplicaPlan.Successor other = s1.plan().successor(ReplicaPlanTest.zipf(50, 1.5, 0), new java.util.SplittableRandom(4));
    StateDirectory.NumberedPlan n1 = numbered(1, p0, s1);
    StateDirectory.NumberedPlan n2 = numbered(2, s1.plan(), s2);
    StateDirectory.NumberedPlan n3 = numbered(3, s1.plan(), other);

    assertNull(SavedPlan.resume(p0, List.of()));
    SavedPlan.Resumed both = SavedPlan.resume(p0, List.of(n1, n2));
    assertArrayEquals(s2.plan().ownerOf, both.to().ownerOf);
    assertArrayEquals(s1.plan().ownerOf, both.from().ownerOf);
    // the state file holds the first plan already: only the second applies
    assertArrayEquals(s2.plan().ownerOf, SavedPlan.resume(s1.plan(), List.of(n1, n2)).to().ownerOf);
    // plan 2 was never installed: plan 3, from the same layout, replaces it
    SavedPlan.Resumed replaced = SavedPlan.resume(p0, List.of(n1, n2, n3));
    assertArrayEquals(other.plan().ownerOf, replaced.to().ownerOf);
    assertArrayEquals(s1.plan().ownerOf, replaced.from().ownerOf);
    // the state file holds a later layout than any saved plan starts from
    assertNull(SavedPlan.resume(s2.plan(), List.of(n1, n2)));
  }

  private static StateDirectory.NumberedPlan numbered(long number, ReplicaPlan from, ReplicaPlan.Successor next) {
    return new StateDirectory.NumberedPlan(number,
        SavedPlan.of(new Transition(from, next.plan(), next.swaps()), number, "test " + number));
  }

  @Test
  void aSavedPlanRoundTrips_andIsBoundToItsStateAndNumber() throws Exception {
    Path state = dir.resolve("r");
    MasterKey key = MasterKey.generate(new java.security.SecureRandom());
    byte[] stateId = new byte[16];
    stateId[0] = 1;
    ReplicaPlan from = ReplicaPlan.build(ReplicaPlanTest.zipf(50, 0.5, 0), new java.util.SplittableRandom(1));
    ReplicaPlan.Successor next = from.successor(ReplicaPlanTest.zipf(50, 1.2, 0), new java.util.SplittableRandom(2));
    Transition t = new Transition(from, next.plan(), next.swaps());
    SavedPlan saved = SavedPlan.of(t, 1234, "a test");
    try (StateDirectory sd = StateDirectory.lock(state)) {
      sd.savePlan(7, saved, key, stateId);
      List<StateDirectory.NumberedPlan> plans = sd.loadPlans(key, stateId);
      assertEquals(1, plans.size());
      assertEquals(7, plans.get(0).number());
      assertEquals(saved, plans.get(0).plan());
      assertTrue(plans.get(0).plan().startsFrom(from));
      assertFalse(plans.get(0).plan().startsFrom(next.plan()));
      Transition back = SavedPlan.resume(from, plans).transition();
      assertEquals(t.totalSwaps(), back.totalSwaps());
      assertTrue(back.isDurable());

      byte[] otherState = stateId.clone();
      otherState[0] = 2;
      StateException foreign = assertThrows(StateException.class, () -> sd.loadPlans(key, otherState));
      assertTrue(foreign.getMessage().contains("another state"), foreign.getMessage());
      // renumbered (moved to another place in the order): its number is sealed with it
      Files.move(state.resolve(StateDirectory.planFile(7)), state.resolve(StateDirectory.planFile(3)));
      assertThrows(StateException.class, () -> sd.loadPlans(key, stateId));
      Files.move(state.resolve(StateDirectory.planFile(3)), state.resolve(StateDirectory.planFile(7)));
      byte[] bytes = Files.readAllBytes(state.resolve(StateDirectory.planFile(7)));
      bytes[bytes.length - 1] ^= 1;
      Files.write(state.resolve(StateDirectory.planFile(7)), bytes);
      StateException damaged = assertThrows(StateException.class, () -> sd.loadPlans(key, stateId));
      assertTrue(damaged.getMessage().contains("damaged"), damaged.getMessage());

      sd.deletePlans(6);
      assertTrue(Files.exists(state.resolve(StateDirectory.planFile(7))));
      sd.deletePlans(7);
      assertNull(sd.loadPlans(key, stateId).isEmpty() ? null : "left");
    }
  }
}
