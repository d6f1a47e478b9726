package io.pancakej.ycsb;

import java.util.Properties;

import io.pancakej.KvClient;
import io.pancakej.baseline.EncryptedClient;

/**
 * YCSB binding {@code encrypted}: PRF labels and AEAD-sealed padded values, one store access per
 * request, no frequency smoothing. Its master key lives in {@code <pancake.state.dir>/master.key}
 * (or {@code pancake.key.file}), created by the load phase.
 */
public final class EncryptedBinding extends KvClientBinding {
  @Override
  protected String name() {
    return "encrypted";
  }

  @Override
  protected KvClient openClient(Properties props) {
    return EncryptedClient.open(props);
  }
}
