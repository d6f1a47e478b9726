package io.pancakej.ycsb;

import java.util.Properties;

import io.pancakej.KvClient;
import io.pancakej.PancakeClient;
import io.pancakej.PancakeConfig;

/**
 * YCSB binding {@code pancake}: a {@link PancakeClient} proxy in the YCSB JVM, configured from
 * the {@code pancake.*} properties ({@link PancakeConfig#fromProperties}).
 *
 * <p>Secure by default: unless {@code pancake.distribution.file} names one, the binding declares
 * the key distribution of the workload it is given ({@link WorkloadDistribution}) -- YCSB's key
 * chooser in a run, and the same in the load before it when the run requests exactly the records
 * the load inserts (else uniform over them) -- so the estimate matches what YCSB will request, and
 * a run whose distribution differs from the state's moves to it (by swapping replicas) before its
 * first request. It prints one line at open saying where the
 * estimate came from.
 */
public final class PancakeBinding extends KvClientBinding {
  @Override
  protected String name() {
    return "pancake";
  }

  @Override
  protected KvClient openClient(Properties props) {
    PancakeConfig.Builder builder = PancakeConfig.builderFromProperties(props);
    String file = props.getProperty(PancakeConfig.DISTRIBUTION_FILE_PROPERTY);
    String[] why = {null};
    if (file == null || file.isBlank()) {
      PancakeConfig.Declared declared = WorkloadDistribution.declared(props, why);
      if (declared != null) {
        builder.distribution(declared.weights(), declared.source());
      }
    }
    PancakeClient client = PancakeClient.open(builder.build());
    String source = client.stats().estimateSource();
    System.err.println("[pancake] estimate: " + source + (why[0] == null ? ""
        : " (the workload was not declared: " + why[0] + "; the proxy learns it, and leaks until it has)"));
    double readModifyWrite = io.pancakej.config.PropertyReader.doubleValue(props, "readmodifywriteproportion", 0);
    boolean run = Boolean.parseBoolean(props.getProperty(DO_TRANSACTIONS_PROPERTY, "true"));
    if (readModifyWrite > 0 && run) {
      System.err.println("[pancake] note: readmodifywriteproportion=" + readModifyWrite + ": a read-modify-write reads"
          + " a key and updates it moments later; when the key has one replica both requests touch the same label,"
          + " so the store sees the pair (correlated requests are outside PANCAKE's guarantee: docs/security.md,"
          + " \"Correlated queries\")");
    }
    return client;
  }

  /**
   * One line on what the clock sent: batches, requests per batch, ticks and late ticks; and the
   * replica swaps made while open (a transition's swaps take batch slots from requests, so a run
   * that made many was slower for a while).
   */
  @Override
  protected void beforeClose(KvClient client) {
    var s = ((PancakeClient) client).stats();
    System.err.printf("[pancake] %d requests in %d batches (%.2f requests per batch), %d ticks (%d late),"
        + " level at close %.0f batches/s, %d replica swaps in %d transition(s)%n", s.requests(), s.batches(),
        s.batches() == 0 ? 0.0 : (double) s.requests() / s.batches(), s.ticks(), s.lateTicks(), s.batchesPerSecond(),
        s.swapsDone(), s.transitions());
  }
}
