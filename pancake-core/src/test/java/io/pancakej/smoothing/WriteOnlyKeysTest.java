package io.pancakej.smoothing;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.pancakej.PancakeClient;
import io.pancakej.PancakeConfig;
import io.pancakej.crypto.MasterKey;
import io.pancakej.distribution.DistributionFile;
import io.pancakej.store.MemoryStore;
import io.pancakej.store.TracingStore;

/**
 * Keys that are only ever written beside keys that are only ever read (a review's attack on puts
 * drawn from the estimate): half the keys get puts, half gets, requests uniform over all of them.
 * A put's real access is drawn from the estimate, so the estimate must be of the requests that
 * read their key: learned that way (the proxy's estimator does not count puts), every label --
 * a written key's, a read key's, a dummy -- is read alike.
 *
 * <p>Teeth: the same workload under an estimate that counts the puts (uniform over every key,
 * declared), which is what the estimator learned while it counted them: the gets then go to the
 * read keys' labels, the puts' accesses spread over all keys, and the written keys' labels are read
 * about half as often as the rest (measured: 46.5 reads per written key's label against 106.1 per
 * read key's label and 75.7 per dummy; learned, 70.7 / 71.6 / 71.2). Before the estimator left
 * puts out, the learned case failed too: requests uniform over all keys, no change to learn.
 */
class WriteOnlyKeysTest {
  private static final int KEYS = 200;
  private static final int REQUESTS = 24_000;
  private static final int IN_FLIGHT = 64;

  @TempDir
  Path dir;

  /** Mean reads per label of written keys, of read keys and of labels of no key, over the run's second half. */
  private record Means(double written, double read, double dummy) {}

  @Test
  void learnedEstimate_readsWrittenKeysLabelsLikeTheRest() throws Exception {
    Means m = run("learned", false);
    System.out.printf("write-only keys, learned estimate: reads per label %.1f written / %.1f read / %.1f no key%n",
        m.written(), m.read(), m.dummy());
    assertTrue(Math.abs(m.written() / m.read() - 1) < 0.12, "written keys' labels read differently: " + m);
    assertTrue(Math.abs(m.dummy() / m.read() - 1) < 0.12, "dummies read differently: " + m);
  }

  @Test
  void anEstimateThatCountsPuts_readsWrittenKeysLess_soTheTestHasTeeth() throws Exception {
    Means m = run("counting-puts", true);
    System.out.printf("write-only keys, estimate counting puts: reads per label %.1f written / %.1f read / %.1f no key%n",
        m.written(), m.read(), m.dummy());
    assertTrue(m.written() / m.read() < 0.7, "the written keys' labels were not told apart: " + m);
  }

  private Means run(String name, boolean declareAllRequests) throws IOException {
    Path state = dir.resolve(name);
    Path trace = dir.resolve(name + ".trace");
    PancakeConfig.Builder config = PancakeConfig.builder().stateDir(state).capacity(KEYS).valueSize(16).keySize(16)
        .pacerRate(2000).store(new TracingStore(new MemoryStore(), trace));
    if (declareAllRequests) {
      Map<String, Double> weights = new LinkedHashMap<>();
      for (int i = 0; i < KEYS; i++) {
        weights.put("user" + i, 1.0 / KEYS);
      }
      Path distribution = dir.resolve(name + ".dist");
      DistributionFile.write(distribution, weights);
      config.distributionFile(distribution).adapt(false);
    } else {
      config.firstWindow(1_000).windowSize(4_000); // learn within the first half of the run
    }
    long secondHalf;
    try (Proxy proxy = Proxy.open(config.build())) {
      for (int i = 0; i < KEYS; i++) {
        proxy.put(key(i), new byte[] {1});
      }
      SplittableRandom rnd = new SplittableRandom(21);
      secondHalf = -1;
      List<CompletableFuture<?>> inFlight = new ArrayList<>();
      for (int i = 0; i < REQUESTS; i++) {
        if (i == REQUESTS / 2) {
          join(inFlight);
          secondHalf = Files.size(trace);
        }
        int k = rnd.nextInt(KEYS);
        inFlight.add(k < KEYS / 2 ? proxy.putAsync(key(k), new byte[] {(byte) i}) : proxy.getAsync(key(k)));
        if (inFlight.size() == IN_FLIGHT) {
          join(inFlight);
          if (proxy.estimator != null) {
            proxy.estimator.step();
          }
        }
      }
      join(inFlight);
      if (!declareAllRequests) {
        assertTrue(proxy.transitions.count() > 0, "the proxy never learned the workload");
      }
    }
    PancakeClient.LabelOwners owners = PancakeClient.labelOwners(state, MasterKey.load(state.resolve("master.key")));
    Map<String, Integer> group = new HashMap<>(); // 0 written, 1 read, 2 no key
    for (int i = 0; i < owners.labels().size(); i++) {
      byte[] k = owners.keys().get(i);
      int g = k == null ? 2 : Integer.parseInt(new String(k, StandardCharsets.UTF_8).substring(4)) < KEYS / 2 ? 0 : 1;
      group.put(HexFormat.of().formatHex(owners.labels().get(i)), g);
    }
    long[] reads = new long[3];
    long[] labels = new long[3];
    for (int g : group.values()) {
      labels[g]++;
    }
    byte[] all = Files.readAllBytes(trace);
    String tail = new String(all, (int) secondHalf, all.length - (int) secondHalf, StandardCharsets.US_ASCII);
    for (String line : tail.split("\n")) {
      if (line.startsWith("R ")) {
        reads[group.get(line.split(" ")[1])]++;
      }
    }
    return new Means(reads[0] / (double) labels[0], reads[1] / (double) labels[1], reads[2] / (double) labels[2]);
  }

  private static void join(List<CompletableFuture<?>> inFlight) {
    CompletableFuture.allOf(inFlight.toArray(new CompletableFuture<?>[0])).join();
    inFlight.clear();
  }

  private static byte[] key(int i) {
    return ("user" + i).getBytes(StandardCharsets.UTF_8);
  }
}
