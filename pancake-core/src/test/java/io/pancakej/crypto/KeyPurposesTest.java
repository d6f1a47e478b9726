package io.pancakej.crypto;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;

import org.junit.jupiter.api.Test;

/** No two key purposes coincide: two schemes sharing a key file never share a derived key. */
class KeyPurposesTest {
  private static List<String> constants() throws IllegalAccessException {
    List<String> out = new ArrayList<>();
    for (Field f : KeyPurposes.class.getFields()) {
      if (Modifier.isStatic(f.getModifiers()) && f.getType() == String.class) {
        out.add((String) f.get(null));
      }
    }
    return out;
  }

  @Test
  void everyPurpose_isDistinct_includingThePerStateOnes() throws IllegalAccessException {
    byte[] stateId = new byte[16];
    List<String> all = constants();
    assertTrue(all.size() >= 11, "the constants were found: " + all.size());
    all.add(KeyPurposes.pancakeValues(stateId, 0));
    all.add(KeyPurposes.pancakeValues(stateId, 1));
    all.add(KeyPurposes.pancakeLogFile(stateId, 0));
    all.add(KeyPurposes.pancakeLogFile(stateId, 1));
    assertEquals(all.size(), new HashSet<>(all).size(), all.toString());
  }

  /** What every purpose of {@code perState} starts with, whatever the state: the text before the state id. */
  private static String prefix(java.util.function.Function<byte[], String> perState) {
    String a = perState.apply(new byte[] {0});
    String b = perState.apply(new byte[] {(byte) 0xff});
    int i = 0;
    while (a.charAt(i) == b.charAt(i)) {
      i++;
    }
    return a.substring(0, i);
  }

  @Test
  void perStatePurposes_neverCoincideWithAConstant_forAnyStateOrNumber() throws IllegalAccessException {
    String values = prefix(id -> KeyPurposes.pancakeValues(id, 0));
    String logFiles = prefix(id -> KeyPurposes.pancakeLogFile(id, 0));
    assertTrue(!values.startsWith(logFiles) && !logFiles.startsWith(values), values + " / " + logFiles);
    for (String c : constants()) {
      assertTrue(!c.startsWith(values) && !c.startsWith(logFiles), c);
    }
  }
}
