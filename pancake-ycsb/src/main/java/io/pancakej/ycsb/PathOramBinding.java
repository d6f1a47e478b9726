package io.pancakej.ycsb;

import java.util.Properties;

import io.pancakej.KvClient;
import io.pancakej.pathoram.PathOramClient;

/**
 * YCSB binding {@code pathoram}: a non-recursive Path ORAM client (Z = 4) in the YCSB JVM, on the
 * same store properties and record format as the other bindings.
 */
public final class PathOramBinding extends KvClientBinding {
  @Override
  protected String name() {
    return "pathoram";
  }

  @Override
  protected KvClient openClient(Properties props) {
    return PathOramClient.open(props);
  }
}
