package io.pancakej.smoothing;

import java.nio.file.Path;

import io.pancakej.KvClient;
import io.pancakej.PancakeClient;
import io.pancakej.PancakeConfig;
import io.pancakej.PancakeStats;
import io.pancakej.crypto.MasterKey;

/**
 * What {@link io.pancakej.PancakeClient} reaches of the engine, and the only public type of this
 * package: public only because the client lives in another package. Not an API of its own: use
 * {@link io.pancakej.PancakeClient}.
 */
public interface Engine extends KvClient {
  /** Opens (or creates) the proxy state in the configured directory and connects to the store. */
  static Engine open(PancakeConfig config) {
    return Proxy.open(config);
  }

  /** See {@link PancakeClient#labelOwners}. */
  static PancakeClient.LabelOwners labelOwners(Path stateDir, MasterKey masterKey) {
    return SavedLabels.read(stateDir, masterKey);
  }

  /** A snapshot of the engine's counters. */
  PancakeStats stats();

  /** Persists the proxy state now (it is also saved at close and on a fixed schedule). */
  void checkpoint();
}
