package io.pancakej.smoothing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;

import org.apache.commons.math3.distribution.ChiSquaredDistribution;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.pancakej.IntegrityException;
import io.pancakej.PancakeConfig;
import io.pancakej.StateException;
import io.pancakej.store.KvStore;
import io.pancakej.store.MemoryStore;
import io.pancakej.store.TracingStore;

/**
 * Reopening ties the store to the state by reading replicas drawn uniformly, with no label of
 * its own: every label the store is ever asked for is a replica label, and the reads an open
 * makes are uniform over them (a fixed label read at every open, like the canary of earlier
 * versions, stands out in a long transcript's chi-square and fails both checks). A wiped store, a
 * store of another state under the same key file, and a store whose replicas were all tampered
 * with fail the open with errors that say which; fewer damaged replicas than an open reads first
 * never fail it, and a store that lost most (not all) of the state still opens.
 */
class StoreCheckTest {
  private static final int KEYS = 4;

  @TempDir
  Path dir;

  private PancakeConfig.Builder config(Path stateDir, KvStore store, boolean create) {
    return PancakeConfig.builder().stateDir(stateDir).capacity(KEYS).valueSize(16).keySize(8).pacerRate(200)
        .createIfMissing(create).store(store);
  }

  private static byte[] key(int i) {
    return ("k" + i).getBytes(StandardCharsets.UTF_8);
  }

  private static Set<ByteBuffer> replicaLabels(Proxy proxy) {
    Set<ByteBuffer> out = new HashSet<>();
    for (int r = 0; r < 2 * KEYS; r++) {
      out.add(ByteBuffer.wrap(proxy.label(r)));
    }
    return out;
  }

  @Test
  void opens_readOnlyReplicaLabels_uniformly() throws IOException {
    MemoryStore raw = new MemoryStore();
    Set<String> replicas = new HashSet<>();
    try (Proxy proxy = Proxy.open(config(dir.resolve("s"), raw, true).build())) {
      for (int i = 0; i < KEYS; i++) {
        proxy.put(key(i), key(i));
      }
      for (ByteBuffer l : replicaLabels(proxy)) {
        replicas.add(HexFormat.of().formatHex(l.array()));
      }
    }
    int opens = 240;
    Map<String, Integer> atOpen = new HashMap<>();
    Set<String> everRead = new HashSet<>();
    for (int i = 0; i < opens; i++) {
      // the transcript an auditor reads: "R label length nanos", one nanos value per store call
      Path trace = dir.resolve("trace-" + i);
      try (Proxy proxy = Proxy.open(config(dir.resolve("s"), new TracingStore(raw.reopen(), trace), false).build())) {
        if (i % 40 == 0) {
          assertEquals("k1", new String(proxy.get(key(1)).orElseThrow(), StandardCharsets.UTF_8));
        }
      }
      String firstCall = null;
      for (String line : Files.readAllLines(trace)) {
        String[] f = line.split(" ");
        if (!f[0].equals("R")) {
          continue;
        }
        everRead.add(f[1]);
        if (firstCall == null) {
          firstCall = f[3];
        }
        if (f[3].equals(firstCall)) {
          atOpen.merge(f[1], 1, Integer::sum);
        }
      }
      assertNotNull(firstCall, "an open reads the store");
    }
    Set<String> foreign = new HashSet<>(everRead);
    foreign.removeAll(replicas);
    assertEquals(Set.of(), foreign, "labels read that are no replica's (a label of its own)");
    int reads = atOpen.values().stream().mapToInt(Integer::intValue).sum();
    assertEquals(opens * Recovery.STORE_CHECK_READS, reads, "reads of the open's own call");
    double expected = (double) reads / replicas.size();
    double chi = 0;
    for (String label : replicas) {
      double d = atOpen.getOrDefault(label, 0) - expected;
      chi += d * d / expected;
    }
    double p = 1 - new ChiSquaredDistribution(replicas.size() - 1.0).cumulativeProbability(chi);
    // a fixed slot read at every open gives chi-square 1 200 (p ~ 0); draws without replacement make the
    // statistic about 5/7 of a chi-square's, so uniform draws fail this far less often than 1e-4
    assertTrue(p > 1e-4, "open-time reads are not uniform over the replica labels: chi-square " + chi + ", p = " + p
        + ", counts " + atOpen.values());
  }

  @Test
  void sampleSlots_areDistinct_andEveryOrderedSampleEquallyLikely() {
    SplittableRandom rnd = new SplittableRandom(5);
    Map<List<Integer>, Integer> samples = new HashMap<>();
    int draws = 12_000;
    for (int i = 0; i < draws; i++) {
      int[] s = Recovery.sampleSlots(5, 3, rnd);
      List<Integer> sample = new ArrayList<>();
      for (int x : s) {
        assertTrue(x >= 0 && x < 5, "slot " + x);
        sample.add(x);
      }
      assertEquals(3, new HashSet<>(sample).size(), "distinct slots: " + sample);
      samples.merge(sample, 1, Integer::sum);
    }
    assertEquals(60, samples.size(), "all 5 x 4 x 3 ordered samples: " + samples);
    double expected = draws / 60.0;
    double chi = 0;
    for (int c : samples.values()) {
      chi += (c - expected) * (c - expected) / expected;
    }
    double p = 1 - new ChiSquaredDistribution(59).cumulativeProbability(chi);
    assertTrue(p > 1e-4, "ordered samples not uniform: chi-square " + chi + ", p = " + p);
    int[] all = Recovery.sampleSlots(1 << 30, 64, rnd);
    assertEquals(64, java.util.Arrays.stream(all).distinct().count(), "a sample from 2^30 slots without the slots");
  }

  @Test
  void wipedStore_failsTheOpen_sayingSo() {
    MemoryStore raw = new MemoryStore("mem");
    try (Proxy proxy = Proxy.open(config(dir.resolve("s"), raw, true).build())) {
      proxy.put(key(1), key(1));
    }
    StateException e = assertThrows(StateException.class,
        () -> Proxy.open(config(dir.resolve("s"), new MemoryStore("mem"), false).build()));
    assertTrue(e.getMessage().contains("empty or was wiped"), e.getMessage());
  }

  @Test
  void anotherStatesStore_underTheSameKeyFile_failsTheOpen() {
    Path keyFile = dir.resolve("shared.key");
    MemoryStore mine = new MemoryStore("mem");
    MemoryStore theirs = new MemoryStore("mem");
    try (Proxy proxy = Proxy.open(config(dir.resolve("a"), mine, true).keyFile(keyFile).build())) {
      proxy.put(key(1), key(1));
    }
    try (Proxy proxy = Proxy.open(config(dir.resolve("b"), theirs, true).keyFile(keyFile).build())) {
      proxy.put(key(1), key(2));
    }
    failsAfterReadingEveryReplica(config(dir.resolve("a"), theirs.reopen(), false).keyFile(keyFile).build(),
        "initialized by another PANCAKE state");
  }

  /** Opening with {@code config} fails an integrity check that names {@code why}, after reading all 2n replicas. */
  private static void failsAfterReadingEveryReplica(PancakeConfig config, String why) {
    IntegrityException e = assertThrows(IntegrityException.class, () -> Proxy.open(config));
    assertTrue(e.getMessage().contains(why), e.getMessage());
    assertTrue(e.getMessage().contains("read at open (" + 2 * KEYS + ", 0 of them missing)"), e.getMessage());
  }

  @Test
  void everyReplicaTampered_failsTheOpen_fewerNeverDo() {
    Map<ByteBuffer, byte[]> snapshot = snapshot();
    List<ByteBuffer> labels = new ArrayList<>(snapshot.keySet());
    // two damaged replicas (fewer than the three an open reads first): every open succeeds, whichever it
    // reads; each open on a fresh copy of the damaged snapshot (a running proxy re-seals what it touches)
    Map<ByteBuffer, byte[]> twoDamaged = new HashMap<>(snapshot);
    for (ByteBuffer l : labels.subList(0, Recovery.STORE_CHECK_READS - 1)) {
      twoDamaged.put(l, flipped(snapshot.get(l)));
    }
    opensEachTime(twoDamaged);
    Map<ByteBuffer, byte[]> allDamaged = new HashMap<>();
    for (ByteBuffer l : labels) {
      allDamaged.put(l, flipped(snapshot.get(l)));
    }
    failsAfterReadingEveryReplica(config(dir.resolve("s"), storeOf(allDamaged), false).build(), "tampered with or corrupted");
  }

  @Test
  void aStoreThatLostMostOfTheState_stillOpens_andOneWithOnlyOtherData_saysSo() {
    Map<ByteBuffer, byte[]> snapshot = snapshot();
    List<ByteBuffer> labels = new ArrayList<>(snapshot.keySet());
    // six of eight replicas lost: the first three read are often all missing, then the open reads the rest
    Map<ByteBuffer, byte[]> twoLeft = new HashMap<>();
    for (ByteBuffer l : labels.subList(0, 2)) {
      twoLeft.put(l, snapshot.get(l));
    }
    opensEachTime(twoLeft);
    Map<ByteBuffer, byte[]> foreign = Map.of(ByteBuffer.wrap("someone else's".getBytes(StandardCharsets.UTF_8)),
        new byte[] {1});
    StateException e = assertThrows(StateException.class,
        () -> Proxy.open(config(dir.resolve("s"), storeOf(foreign), false).build()));
    assertTrue(e.getMessage().contains("it holds data, but none of the " + 2 * KEYS + " replicas of this state"),
        e.getMessage());
  }

  /** The store after creating the state and one put, replica label to ciphertext. */
  private Map<ByteBuffer, byte[]> snapshot() {
    MemoryStore raw = new MemoryStore();
    Set<ByteBuffer> replicas;
    try (Proxy proxy = Proxy.open(config(dir.resolve("s"), raw, true).build())) {
      proxy.put(key(1), key(1));
      replicas = replicaLabels(proxy);
    }
    MemoryStore data = raw.reopen();
    Map<ByteBuffer, byte[]> out = new HashMap<>();
    for (ByteBuffer l : replicas) {
      byte[] sealed = data.get(l.array());
      assertNotNull(sealed, "every replica slot holds an entry");
      out.put(l, sealed);
    }
    assertEquals(2 * KEYS, data.size(), "the store holds the replicas and nothing else");
    return out;
  }

  /** Opens the state 30 times, each on a fresh store holding {@code entries} (an open's ticks re-seal what they touch). */
  private void opensEachTime(Map<ByteBuffer, byte[]> entries) {
    for (int i = 0; i < 30; i++) {
      try (Proxy proxy = Proxy.open(config(dir.resolve("s"), storeOf(entries), false).build())) {
        assertNotNull(proxy);
      }
    }
  }

  private static MemoryStore storeOf(Map<ByteBuffer, byte[]> entries) {
    MemoryStore store = new MemoryStore();
    List<byte[]> keys = new ArrayList<>();
    List<byte[]> values = new ArrayList<>();
    entries.forEach((k, v) -> {
      keys.add(k.array());
      values.add(v);
    });
    store.multiPut(keys, values);
    return store;
  }

  private static byte[] flipped(byte[] sealed) {
    byte[] out = sealed.clone();
    out[out.length / 2] ^= 0x40;
    return out;
  }
}
