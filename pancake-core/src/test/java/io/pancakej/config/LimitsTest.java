package io.pancakej.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import io.pancakej.ConfigException;
import io.pancakej.ValueTooLargeException;

class LimitsTest {
  private final Limits limits = new Limits(8, 16, "fixed when the state is created");

  @Test
  void sizeBounds_areOneTo64MiB_forValues_andOneTo65535_forKeys() {
    assertEquals(1, Limits.checkValueSize(1));
    assertEquals(64 << 20, Limits.checkValueSize(64 << 20));
    assertEquals(1, Limits.checkKeySize(1));
    assertEquals(65_535, Limits.checkKeySize(65_535));
    for (int bad : new int[] {0, -1, (64 << 20) + 1, Integer.MAX_VALUE}) {
      String m = assertThrows(ConfigException.class, () -> Limits.checkValueSize(bad)).getMessage();
      assertTrue(m.contains("pancake.value.size") && m.contains("64 MiB") && m.contains(Integer.toString(bad)), m);
    }
    for (int bad : new int[] {0, 65_536}) {
      String m = assertThrows(ConfigException.class, () -> Limits.checkKeySize(bad)).getMessage();
      assertTrue(m.contains("pancake.key.size") && m.contains("65535") && m.contains(Integer.toString(bad)), m);
    }
    assertThrows(ConfigException.class, () -> new Limits(0, 16, null));
    assertThrows(ConfigException.class, () -> new Limits(8, (64 << 20) + 1, null));
  }

  @Test
  void keysUpToTheKeySize_pass_andLongerOnesNameThePropertyItsValueAndWhy() {
    limits.checkKey(new byte[1]);
    limits.checkKey(new byte[8]);
    ValueTooLargeException e = assertThrows(ValueTooLargeException.class, () -> limits.checkKey(new byte[9]));
    assertEquals("key of 9 bytes exceeds pancake.key.size=8; raise property pancake.key.size"
        + " (fixed when the state is created)", e.getMessage());
    assertTrue(assertThrows(IllegalArgumentException.class, () -> limits.checkKey(null)).getMessage().contains("key"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> limits.checkKey(new byte[0])).getMessage()
        .contains("key"));
  }

  @Test
  void valuesUpToTheValueSize_pass_emptyIsAValue_andLongerOnesNameTheProperty() {
    limits.checkValue(new byte[0]);
    limits.checkValue(new byte[16]);
    ValueTooLargeException e = assertThrows(ValueTooLargeException.class, () -> limits.checkValue(new byte[17]));
    assertEquals("value of 17 bytes exceeds pancake.value.size=16; raise property"
        + " pancake.value.size (fixed when the state is created)", e.getMessage());
    assertTrue(assertThrows(IllegalArgumentException.class, () -> limits.checkValue(null)).getMessage()
        .contains("value"));
  }
}
