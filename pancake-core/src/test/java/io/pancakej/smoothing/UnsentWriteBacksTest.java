package io.pancakej.smoothing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.pancakej.smoothing.TickServing.Prepared;
import io.pancakej.smoothing.TickServing.WriteBack;

/**
 * What a tick's serving takes from the write-backs its call did not carry: those of the
 * {@code lag - 1} ticks before it, the latest write of each replica; none from a tick its call (or
 * an earlier one) carried.
 */
class UnsentWriteBacksTest {
  private static WriteBack wb(String what) {
    return new WriteBack(what.getBytes(), -1, false);
  }

  /** Tick {@code tick}'s write-back of the replicas given, each to {@code what}. */
  private static Prepared tick(long tick, String what, int... replicas) {
    Map<Integer, WriteBack> plan = new LinkedHashMap<>();
    for (int r : replicas) {
      plan.put(r, wb(what + "@" + tick));
    }
    return new Prepared(tick, null, null, List.of(), plan);
  }

  private static String text(WriteBack w) {
    return new String(w.plaintext());
  }

  @Test
  void aTickSeesTheLatestWriteOfTheTicksItsCallDidNotCarry_andNoOther() {
    UnsentWriteBacks unsent = new UnsentWriteBacks(4); // tick k's call carries tick k-4's write-back
    unsent.add(tick(10, "a", 1, 2));
    unsent.add(tick(11, "b", 2, 3));
    unsent.add(tick(12, "c", 3));
    Map<Integer, WriteBack> at13 = unsent.unseenBy(13, new int[] {1, 2, 3, 4});
    assertEquals("a@10", text(at13.get(1)));
    assertEquals("b@11", text(at13.get(2)), "the later of two writes");
    assertEquals("c@12", text(at13.get(3)));
    assertEquals(3, at13.size(), "replica 4 was not written: read from the store");
    // tick 14's call carried tick 10's write-back: replica 1 comes from the store again
    Map<Integer, WriteBack> at14 = unsent.unseenBy(14, new int[] {1, 2, 3});
    assertTrue(!at14.containsKey(1), "tick 10 was carried by tick 14's call");
    assertEquals("b@11", text(at14.get(2)));
    // tick 15: ticks 10 and 11 carried; only tick 12's write remains
    Map<Integer, WriteBack> at15 = unsent.unseenBy(15, new int[] {1, 2, 3});
    assertEquals(Map.of(3, at15.get(3)), at15);
    assertEquals("c@12", text(at15.get(3)));
    assertSame(Map.of(), unsent.unseenBy(16, new int[] {1, 2, 3}), "every write carried by tick 16's call");
  }

  @Test
  void eachTickSeesTheTicksBeforeIt_andAReplacementReplacesEverything() {
    UnsentWriteBacks unsent = new UnsentWriteBacks(32);
    unsent.add(tick(5, "old", 7, 8));
    // a tick is served (and asks) before its own write-back is added
    assertEquals("old@5", text(unsent.unseenBy(6, new int[] {7}).get(7)));
    unsent.add(tick(6, "mine", 7));
    Map<Integer, WriteBack> at7 = unsent.unseenBy(7, new int[] {7, 8});
    assertEquals("mine@6", text(at7.get(7)));
    assertEquals("old@5", text(at7.get(8)));
    unsent.replaceAll(List.of(tick(6, "resealed", 7)));
    Map<Integer, WriteBack> again = unsent.unseenBy(7, new int[] {7, 8});
    assertEquals("resealed@6", text(again.get(7)));
    assertTrue(!again.containsKey(8), "what was not sealed again is gone");
    unsent.clear();
    assertSame(Map.of(), unsent.unseenBy(8, new int[] {7, 8}));
  }
}
