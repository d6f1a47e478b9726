package io.pancakej.detworam;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;

import org.junit.jupiter.api.Test;

/** The schedule's arithmetic against a brute-force simulation, and the holding-slot invariant for every small N, M. */
class ScheduleTest {

  @Test
  void everyMainBlock_isRefreshedWithinMWrites_ofAnyWrite_forAllSmallNAndM() {
    for (int n = 1; n <= 40; n++) {
      for (int m = 1; m <= 50; m++) {
        Schedule s = new Schedule(n, m);
        assertEquals((n + m - 1) / m, s.refreshesPerWrite);
        for (long start = 0; start < 3L * n + m; start++) {
          boolean[] seen = new boolean[n];
          for (long w = start; w < start + m; w++) {
            for (int i : s.refreshedBy(w)) {
              seen[i] = true;
            }
          }
          for (int i = 0; i < n; i++) {
            assertTrue(seen[i], "N=" + n + " M=" + m + ": main block " + i + " not refreshed by writes "
                + start + ".." + (start + m - 1));
          }
        }
      }
    }
  }

  @Test
  void lastWriteOfEachPosition_matchesASimulation() {
    for (int n = 1; n <= 20; n++) {
      for (int m = 1; m <= 25; m++) {
        Schedule s = new Schedule(n, m);
        long[] lastMain = new long[n];
        long[] lastHolding = new long[m];
        Arrays.fill(lastMain, Schedule.INIT);
        Arrays.fill(lastHolding, Schedule.INIT);
        for (long steps = 0; steps < 4L * (n + m); steps++) {
          for (int i = 0; i < n; i++) {
            assertEquals(lastMain[i], s.lastMainWrite(i, steps), "main " + i + " after " + steps + " writes, " + s);
          }
          for (int h = 0; h < m; h++) {
            assertEquals(lastHolding[h], s.lastHoldingWrite(h, steps), "holding " + h + " after " + steps + ", " + s);
          }
          lastHolding[s.holdingSlot(steps)] = steps;
          int[] refreshed = s.refreshedBy(steps);
          assertEquals(refreshed.length, Arrays.stream(refreshed).distinct().count(), "distinct refreshes per write");
          for (int i : refreshed) {
            lastMain[i] = steps;
          }
        }
      }
    }
  }
}
