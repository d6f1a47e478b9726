package io.pancakej.bench;

import java.util.ArrayList;
import java.util.List;

/** JVM options given as one string ({@code -jvm-args}, {@code --jvm-args}, JAVA_OPTS), split into words. */
public final class ShellWords {
  private ShellWords() {}

  /** Splits like a POSIX shell (quotes and backslashes; no expansion), as stock's shlex.split. */
  public static List<String> split(String s) {
    List<String> words = new ArrayList<>();
    StringBuilder w = new StringBuilder();
    boolean inWord = false;
    char quote = 0;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (quote != 0) {
        if (c == quote) {
          quote = 0;
        } else if (c == '\\' && quote == '"' && i + 1 < s.length()) {
          w.append(s.charAt(++i));
        } else {
          w.append(c);
        }
      } else if (c == '\'' || c == '"') {
        quote = c;
        inWord = true;
      } else if (c == '\\' && i + 1 < s.length()) {
        w.append(s.charAt(++i));
        inWord = true;
      } else if (Character.isWhitespace(c)) {
        if (inWord) {
          words.add(w.toString());
          w.setLength(0);
          inWord = false;
        }
      } else {
        w.append(c);
        inWord = true;
      }
    }
    if (quote != 0) {
      throw new IllegalArgumentException("unbalanced quote in JVM arguments: " + s);
    }
    if (inWord) {
      words.add(w.toString());
    }
    return words;
  }
}
