package io.pancakej.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;

import org.junit.jupiter.api.Test;

class ShellWordsTest {
  @Test
  void splitsLikeAShell() {
    assertEquals(List.of("-Xmx1g", "-Da=b c", "-Dq=\"x\"", "-Dz=a b"),
        ShellWords.split("  -Xmx1g '-Da=b c'  -Dq=\\\"x\\\" \"-Dz=a b\""));
    assertEquals(List.of(), ShellWords.split("   "));
    assertThrows(IllegalArgumentException.class, () -> ShellWords.split("'open"));
  }
}
