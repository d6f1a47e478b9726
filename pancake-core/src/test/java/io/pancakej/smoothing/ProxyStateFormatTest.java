package io.pancakej.smoothing;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.pancakej.StateException;

class ProxyStateFormatTest {
  private static ProxyState state(ProxyState.KeyEpoch epoch) {
    return new ProxyState("memory", new byte[16], 2, 8, 8, new double[] {0.5, 0.5}, new int[] {0, 1, -1, -1},
        new int[] {0, 0, 0, 1}, new byte[2][], new int[] {0, 1}, 0, List.of(), null, 7, new int[] {1}, 1234,
        "learned from 1234 accesses", epoch);
  }

  @Test
  void keyEpoch_roundTrips() {
    ProxyState s = ProxyState.fromBytes(state(new ProxyState.KeyEpoch(12, 1L << 31)).toBytes());
    assertEquals(new ProxyState.KeyEpoch(12, 1L << 31), s.keyEpoch());
    assertEquals(7, s.walSequence());
    assertArrayEquals(new int[] {1}, s.deletedSlots());
    assertEquals(1234, s.estimateSamples());
    assertEquals("learned from 1234 accesses", s.estimateSource());
  }

  @Test
  void aFormat3State_isRefusedWithAClearMessage() {
    byte[] bytes = state(new ProxyState.KeyEpoch(0, 0)).toBytes();
    ByteBuffer.wrap(bytes).putInt(3);
    StateException e = assertThrows(StateException.class, () -> ProxyState.fromBytes(bytes));
    assertTrue(e.getMessage().contains("format 3") && e.getMessage().contains("fresh state"), e.getMessage());
  }

  @Test
  void keyEpochsAreOrderedByEpochThenCount() {
    ProxyState.KeyEpoch a = new ProxyState.KeyEpoch(3, 900);
    ProxyState.KeyEpoch b = new ProxyState.KeyEpoch(4, 10);
    assertEquals(b, ProxyState.KeyEpoch.max(a, b));
    assertEquals(b, ProxyState.KeyEpoch.max(b, a));
    assertEquals(new ProxyState.KeyEpoch(4, 11), ProxyState.KeyEpoch.max(b, new ProxyState.KeyEpoch(4, 11)));
  }
}
