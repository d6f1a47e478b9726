package io.pancakej.ycsb;

import java.util.Properties;

import io.pancakej.KvClient;
import io.pancakej.baseline.InsecureClient;

/** YCSB binding {@code insecure}: plaintext keys and values on the store (the lower bound on cost). */
public final class InsecureBinding extends KvClientBinding {
  @Override
  protected String name() {
    return "insecure";
  }

  @Override
  protected KvClient openClient(Properties props) {
    return InsecureClient.open(props);
  }
}
