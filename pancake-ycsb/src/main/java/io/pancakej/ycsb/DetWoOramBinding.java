package io.pancakej.ycsb;

import java.util.Properties;

import io.pancakej.KvClient;
import io.pancakej.detworam.DetWoOramClient;

/**
 * YCSB binding {@code detworam}: a DetWoORAM client (write-only oblivious: deterministic
 * sequential writes, unhidden reads) in the YCSB JVM, on the same store properties and record
 * format as the other bindings.
 */
public final class DetWoOramBinding extends KvClientBinding {
  @Override
  protected String name() {
    return "detworam";
  }

  @Override
  protected KvClient openClient(Properties props) {
    return DetWoOramClient.open(props);
  }
}
