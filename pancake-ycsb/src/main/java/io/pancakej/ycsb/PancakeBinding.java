package io.pancakej.ycsb;

import java.util.Properties;

import io.pancakej.KvClient;
import io.pancakej.PancakeClient;
import io.pancakej.PancakeConfig;

/**
 * YCSB binding {@code pancake}: a {@link PancakeClient} proxy in the YCSB JVM, configured from
 * the {@code pancake.*} properties ({@link PancakeConfig#fromProperties}).
 */
public final class PancakeBinding extends KvClientBinding {
  @Override
  protected String name() {
    return "pancake";
  }

  @Override
  protected KvClient openClient(Properties props) {
    return PancakeClient.open(PancakeConfig.fromProperties(props));
  }
}
