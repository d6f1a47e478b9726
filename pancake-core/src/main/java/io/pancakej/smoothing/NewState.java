package io.pancakej.smoothing;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.random.RandomGenerator;

import io.pancakej.ConfigException;
import io.pancakej.PancakeConfig;
import io.pancakej.ValueTooLargeException;
import io.pancakej.crypto.MasterKey;
import io.pancakej.distribution.DistributionFile;
import io.pancakej.store.KvStore;

/**
 * Creates a new state (paper Init): key slots in a random order, a first replica plan from the
 * declared distribution (or uniform), and 2n sealed replicas written to an empty store in slot
 * order (no other label: reopening checks replicas), then the first checkpoint.
 */
final class NewState {
  private static final System.Logger LOG = System.getLogger("io.pancakej");

  private NewState() {}

  /**
   * What a new state is initialized from, read and checked before anything is created: the
   * capacity, and the declared distribution's weights (each key within pancake.key.size, no more
   * keys than the capacity) with the estimate they give.
   */
  static final class Initial {
    final int capacity;
    final List<byte[]> listedKeys = new ArrayList<>();
    double[] inOrder;
    String source;

    private Initial(int capacity) {
      this.capacity = capacity;
    }

    static Initial prepare(PancakeConfig config) {
      int n = config.capacity();
      if (n > (1 << 29)) {
        throw new ConfigException("pancake.capacity " + n + " is too large (at most 2^29 key slots)");
      }
      Initial init = new Initial(n);
      PancakeConfig.Declared declared = config.declaredDistribution();
      if (declared != null) {
        Map<String, Double> weights = declared.weights();
        for (String k : weights.keySet()) {
          init.listedKeys.add(checkedFileKey(declared, config, k));
        }
        init.inOrder = DistributionFile.estimate(DistributionFile.weightsInOrder(weights), n);
        init.source = declared.source();
      }
      return init;
    }
  }

  static Proxy create(PancakeConfig config, Clock clock, StateDirectory dir, MasterKey key, KvStore store,
      Initial initial) {
    int n = initial.capacity;
    RandomGenerator rnd = Proxy.randomSource(config.seed()).get();
    int[] order = ReplicaPlan.shuffled(n, rnd);
    byte[][] keyOfSlot = new byte[n][];
    double[] estimate = new double[n];
    int bound = 0;
    String source;
    if (initial.inOrder != null) {
      for (byte[] k : initial.listedKeys) {
        keyOfSlot[order[bound++]] = k;
      }
      for (int i = 0; i < n; i++) {
        estimate[order[i]] = initial.inOrder[i];
      }
      source = initial.source;
    } else {
      Arrays.fill(estimate, 1.0 / n);
      source = "none declared: uniform over the " + n + " key slots until the detector learns the workload";
    }
    ReplicaPlan plan = ReplicaPlan.build(estimate, rnd);
    byte[] stateId = new byte[16];
    new SecureRandom().nextBytes(stateId);
    ReplicaCodec codec = new ReplicaCodec(config.keySize(), config.valueSize());
    WriteAheadLog.deleteBefore(dir.path(), Long.MAX_VALUE); // leftovers of an earlier, unfinished state
    dir.deletePlans(Long.MAX_VALUE); // the same
    dir.deleteUnfinishedPlans();
    Proxy proxy = new Proxy(config, clock, store, dir, key, codec, new Phase.Steady(plan), keyOfSlot, order, bound,
        stateId, 1, initial.inOrder != null ? Estimator.EXACT : Estimator.ASSUMED, source, null);
    writeInitialReplicas(proxy, plan);
    proxy.checkpoint();
    return proxy;
  }

  static byte[] checkedFileKey(PancakeConfig.Declared declared, PancakeConfig config, String k) {
    byte[] kb = k.getBytes(StandardCharsets.UTF_8);
    if (kb.length > config.keySize()) {
      throw new ValueTooLargeException("a key in the " + declared.source() + " is " + kb.length
          + " bytes, more than pancake.key.size = " + config.keySize());
    }
    return kb;
  }

  /** Paper Init: every replica slot gets a sealed value; dummies and unbound slots hold none. */
  private static void writeInitialReplicas(Proxy proxy, ReplicaPlan plan) {
    int m = plan.replicaSlots;
    int chunk = 512;
    long started = proxy.clock.nanoTime();
    int reported = 0;
    List<byte[]> labels = new ArrayList<>(chunk);
    List<byte[]> values = new ArrayList<>(chunk);
    for (int r = 0; r < m; r++) {
      int owner = plan.ownerOf[r];
      byte[] plaintext = owner == ReplicaPlan.DUMMY
          ? proxy.codec.encode(ReplicaCodec.DUMMY, r, ReplicaPlan.DUMMY, null, null)
          : proxy.codec.encode(ReplicaCodec.ABSENT, r, owner, proxy.keys.keyOf(owner), null);
      byte[] label = proxy.label(r);
      labels.add(label);
      values.add(proxy.aead.encrypt(plaintext, label));
      if (labels.size() == chunk || r == m - 1) {
        proxy.store.multiPut(labels, values);
        labels.clear();
        values.clear();
        int percent = (int) ((r + 1L) * 100 / m);
        if (m >= 100_000 && percent / 10 > reported / 10) {
          reported = percent;
          LOG.log(System.Logger.Level.INFO, String.format("initializing %d replicas: %d%% (%.1f s)", m, percent,
              (proxy.clock.nanoTime() - started) / 1e9));
        }
      }
    }
  }
}
