package io.pancakej.ycsb;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The YCSB bindings by scheme name, the one place the names are written: {@code bin/pancake ycsb},
 * {@code bench} and {@code compare} all look schemes up here.
 */
public final class Bindings {
  /** Scheme name to binding class name, in the order the tools list and run them. */
  public static final Map<String, String> BY_SCHEME;

  static {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("insecure", InsecureBinding.class.getName());
    m.put("encrypted", EncryptedBinding.class.getName());
    m.put("pancake", PancakeBinding.class.getName());
    m.put("pathoram", PathOramBinding.class.getName());
    m.put("detworam", DetWoOramBinding.class.getName());
    BY_SCHEME = Collections.unmodifiableMap(m);
  }

  private Bindings() {}

  /**
   * The binding class of {@code scheme}.
   *
   * @throws IllegalArgumentException naming the known schemes, for an unknown one
   */
  public static String className(String scheme) {
    String c = BY_SCHEME.get(scheme);
    if (c == null) {
      throw new IllegalArgumentException("unknown binding '" + scheme + "' (expected " + names() + ")");
    }
    return c;
  }

  /** The scheme names for messages: {@code insecure, encrypted, pancake, pathoram or detworam}. */
  public static String names() {
    String all = String.join(", ", BY_SCHEME.keySet());
    int last = all.lastIndexOf(", ");
    return last < 0 ? all : all.substring(0, last) + " or " + all.substring(last + 2);
  }
}
