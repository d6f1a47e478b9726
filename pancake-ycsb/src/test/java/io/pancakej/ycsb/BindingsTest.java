package io.pancakej.ycsb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import site.ycsb.DB;

class BindingsTest {
  @Test
  void everySchemeName_mapsToAYcsbDbClass_inTheToolsOrder() throws Exception {
    assertEquals(List.of("insecure", "encrypted", "pancake", "pathoram", "detworam"), List.copyOf(Bindings.BY_SCHEME.keySet()));
    for (Map.Entry<String, String> e : Bindings.BY_SCHEME.entrySet()) {
      assertTrue(DB.class.isAssignableFrom(Class.forName(e.getValue())), e.toString());
      assertEquals(e.getValue(), Bindings.className(e.getKey()));
    }
  }

  @Test
  void unknownScheme_isRejected_namingTheKnownOnes() {
    assertEquals("unknown binding 'redis' (expected insecure, encrypted, pancake, pathoram or detworam)",
        assertThrows(IllegalArgumentException.class, () -> Bindings.className("redis")).getMessage());
    assertThrows(UnsupportedOperationException.class, () -> Bindings.BY_SCHEME.put("x", "y"));
  }
}
