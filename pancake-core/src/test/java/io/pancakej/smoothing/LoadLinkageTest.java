package io.pancakej.smoothing;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
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

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.pancakej.PancakeClient;
import io.pancakej.PancakeConfig;
import io.pancakej.crypto.MasterKey;
import io.pancakej.distribution.DistributionFile;
import io.pancakej.store.MemoryStore;
import io.pancakej.store.TracingStore;

/**
 * What a load -- each key inserted once, in an order the store may know -- shows the store
 * (docs/security.md, "the load"). Uniform estimate, so every key has one replica and fake accesses
 * go only to dummies: a label tied to its key would tell when that key is requested.
 *
 * <p>Two attacks on the transcript, scored with the state's ground truth: (1) the labels never read
 * during the load: if every key's label is read at its insert, they are all dummies; (2) key i's
 * label read within a window around call i x calls / keys, against the same count for a key order
 * the store does not know (a random permutation): how much knowing the order helps.
 *
 * <p>Teeth: the same attacks on a load whose every insert also reads its own key's replica (a get
 * right after each put): what the paper's put, and this proxy's before puts left their access to the
 * estimate, showed the store. Measured there: no key label among the never-read ones, and every
 * key linked (chance ~0.06); with puts alone both are at chance.
 */
class LoadLinkageTest {
  private static final int KEYS = 1_000;
  /** Calls either side of key i's expected call that count as "near". */
  private static final int WINDOW = 20;

  @TempDir
  Path dir;

  private record Verdict(int neverReadKeyLabels, int neverReadDummies, double linked, double chance) {
    double keyShareOfNeverRead() {
      return neverReadKeyLabels / (double) (neverReadKeyLabels + neverReadDummies);
    }
  }

  @Test
  void putsWaitingInTheUpdateCache_leaveTheLoadUnlinkable() throws Exception {
    Verdict v = load("puts", false);
    System.out.printf("load, puts wait in the UpdateCache: never read %d key labels / %d dummies; linked %.3f"
        + " (chance %.3f)%n", v.neverReadKeyLabels(), v.neverReadDummies(), v.linked(), v.chance());
    assertTrue(v.neverReadKeyLabels() + v.neverReadDummies() > 100, "too few never-read labels to judge: " + v);
    assertTrue(Math.abs(v.keyShareOfNeverRead() - 0.5) < 0.15, "never-read labels are not a fair mix: " + v);
    assertTrue(v.linked() < v.chance() * 1.3 + 0.01, "the insert order links keys to labels: " + v);
  }

  @Test
  void insertsThatReadTheirOwnReplica_areLinked_soTheAttackHasTeeth() throws Exception {
    Verdict v = load("own", true);
    System.out.printf("load, each insert reads its own replica: never read %d key labels / %d dummies; linked %.3f"
        + " (chance %.3f)%n", v.neverReadKeyLabels(), v.neverReadDummies(), v.linked(), v.chance());
    // ~30 expected; none of 10 or more being a key label has p < 2^-10 for a fair mix
    assertTrue(v.neverReadDummies() >= 10, "too few never-read labels to judge: " + v);
    assertTrue(v.keyShareOfNeverRead() < 0.05, "the attack did not tell key labels from dummies: " + v);
    assertTrue(v.linked() > v.chance() * 2, "the attack did not link keys to labels: " + v);
  }

  @Test
  void valuesWaitingForTheirReplicas_surviveTheCheckpointAndReadBack() throws Exception {
    Path state = dir.resolve("reopen");
    MemoryStore store = new MemoryStore();
    PancakeConfig.Builder config = config(state, uniform("reopen"), store);
    try (Proxy proxy = Proxy.open(config.build())) {
      for (int i = 0; i < KEYS; i++) {
        proxy.put(key(i), value(i, 48));
      }
      assertTrue(proxy.stats().updateCacheEntries() > KEYS / 10, "few puts waited: " + proxy.stats());
      for (int i = 0; i < KEYS; i += 7) {
        assertArrayEquals(value(i, 48), proxy.get(key(i)).orElseThrow(), "key " + i + " before the reopen");
      }
    }
    try (Proxy proxy = Proxy.open(config.store(store.reopen()).build())) {
      assertTrue(proxy.stats().updateCacheEntries() > 0, "the waiting values were not in the checkpoint");
      for (int i = 0; i < KEYS; i++) {
        assertArrayEquals(value(i, 48), proxy.get(key(i)).orElseThrow(), "key " + i + " after the reopen");
      }
    }
  }

  private Verdict load(String name, boolean readOwnReplica) throws IOException {
    Path state = dir.resolve(name);
    Path trace = dir.resolve(name + ".trace");
    PancakeConfig.Builder config = config(state, uniform(name), new TracingStore(new MemoryStore(), trace));
    try (Proxy proxy = Proxy.open(config.build())) {
      for (int i = 0; i < KEYS; i++) { // one closed-loop loader, keys in a known order
        proxy.put(key(i), value(i, 32));
        if (readOwnReplica) {
          proxy.get(key(i)); // a new key has a replica only once its put bound it
        }
      }
    }
    PancakeClient.LabelOwners owners = PancakeClient.labelOwners(state, MasterKey.load(state.resolve("master.key")));
    Map<String, Integer> keyOfLabel = new HashMap<>();
    String[] labelOfKey = new String[KEYS];
    for (int i = 0; i < owners.labels().size(); i++) {
      String label = HexFormat.of().formatHex(owners.labels().get(i));
      byte[] k = owners.keys().get(i);
      int key = k == null ? -1 : Integer.parseInt(new String(k, StandardCharsets.UTF_8).substring(4));
      keyOfLabel.put(label, key);
      if (key >= 0) {
        labelOfKey[key] = label; // one replica per key under a uniform estimate
      }
    }
    List<List<String>> calls = readCalls(trace);
    Map<String, List<Integer>> callsOf = new HashMap<>();
    for (int c = 0; c < calls.size(); c++) {
      for (String label : calls.get(c)) {
        List<Integer> at = callsOf.computeIfAbsent(label, l -> new ArrayList<>());
        if (at.isEmpty() || at.get(at.size() - 1) != c) {
          at.add(c);
        }
      }
    }
    int neverKey = 0;
    int neverDummy = 0;
    for (Map.Entry<String, Integer> e : keyOfLabel.entrySet()) {
      if (!callsOf.containsKey(e.getKey())) {
        if (e.getValue() >= 0) {
          neverKey++;
        } else {
          neverDummy++;
        }
      }
    }
    int[] order = new int[KEYS];
    for (int i = 0; i < KEYS; i++) {
      order[i] = i;
    }
    double linked = linked(order, labelOfKey, callsOf, calls.size());
    SplittableRandom rnd = new SplittableRandom(11);
    double chance = 0;
    int shuffles = 20;
    for (int s = 0; s < shuffles; s++) {
      for (int i = KEYS - 1; i > 0; i--) {
        int j = rnd.nextInt(i + 1);
        int t = order[i];
        order[i] = order[j];
        order[j] = t;
      }
      chance += linked(order, labelOfKey, callsOf, calls.size()) / shuffles;
    }
    return new Verdict(neverKey, neverDummy, linked, chance);
  }

  /** Share of positions i whose key {@code order[i]}'s label is read within {@link #WINDOW} calls of call i x calls / keys. */
  private static double linked(int[] order, String[] labelOfKey, Map<String, List<Integer>> callsOf, int calls) {
    int near = 0;
    for (int i = 0; i < KEYS; i++) {
      long expected = (long) i * calls / KEYS;
      for (int c : callsOf.getOrDefault(labelOfKey[order[i]], List.of())) {
        if (Math.abs(c - expected) <= WINDOW) {
          near++;
          break;
        }
      }
    }
    return near / (double) KEYS;
  }

  /** The labels each store call read, in call order (lines of one call share their timestamp). */
  private static List<List<String>> readCalls(Path trace) throws IOException {
    Map<Long, List<String>> byTime = new LinkedHashMap<>();
    for (String line : Files.readAllLines(trace)) {
      String[] f = line.split(" ");
      if (f[0].equals("R")) {
        byTime.computeIfAbsent(Long.parseLong(f[3]), t -> new ArrayList<>()).add(f[1]);
      }
    }
    return new ArrayList<>(byTime.values());
  }

  private PancakeConfig.Builder config(Path state, Path distribution, io.pancakej.store.KvStore store) {
    return PancakeConfig.builder().stateDir(state).capacity(KEYS).distributionFile(distribution).valueSize(64)
        .keySize(16).adapt(false).store(store);
  }

  private Path uniform(String name) throws IOException {
    Path file = dir.resolve(name + ".dist");
    Map<String, Double> weights = new LinkedHashMap<>();
    for (int i = 0; i < KEYS; i++) {
      weights.put("user" + i, 1.0 / KEYS);
    }
    DistributionFile.write(file, weights);
    return file;
  }

  private static byte[] key(int i) {
    return ("user" + i).getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] value(int i, int length) {
    byte[] v = new byte[length];
    new SplittableRandom(i).nextBytes(v);
    return v;
  }
}
