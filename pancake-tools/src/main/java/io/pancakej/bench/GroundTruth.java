package io.pancakej.bench;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Collection;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import io.pancakej.ConfigException;
import io.pancakej.PancakeClient;
import io.pancakej.baseline.EncryptedClient;
import io.pancakej.crypto.MasterKey;
import io.pancakej.detworam.DetWoOramClient;

/**
 * Which store label belongs to which key: the experimenter's knowledge (never the adversary's),
 * needed to score the frequency-analysis attack. {@code labels} is every label the scheme uses
 * for data (the universe for the uniformity test); {@code owner} maps a label to its key.
 */
record GroundTruth(Set<String> labels, Map<String, String> owner) {
  private static final HexFormat HEX = HexFormat.of();

  /** For scheme {@code insecure}, {@code encrypted}, {@code pancake}, {@code pathoram} or {@code detworam}. */
  static GroundTruth of(String scheme, Collection<String> keys, Path stateDir, Path keyFile) {
    switch (scheme.toLowerCase(Locale.ROOT)) {
      case "insecure":
        return insecure(keys);
      case "encrypted":
        return encrypted(keys, MasterKey.load(keyFile(stateDir, keyFile, scheme)));
      case "pancake":
        return pancake(stateDir, MasterKey.load(keyFile(stateDir, keyFile, scheme)));
      case "pathoram":
        // bucket labels belong to no key: the attack can recover nothing
        return new GroundTruth(Set.of(), Map.of());
      case "detworam":
        return detworam(stateDir, MasterKey.load(keyFile(stateDir, keyFile, scheme)));
      default:
        throw new ConfigException("unknown scheme '" + scheme
            + "'; expected insecure, encrypted, pancake, pathoram or detworam");
    }
  }

  private static Path keyFile(Path stateDir, Path keyFile, String scheme) {
    if (keyFile != null) {
      return keyFile;
    }
    if (stateDir == null) {
      throw new ConfigException("scheme " + scheme + " needs --state-dir (or --key-file) for its master key");
    }
    return stateDir.resolve("master.key");
  }

  /** The label is the key's bytes. */
  static GroundTruth insecure(Collection<String> keys) {
    Map<String, String> owner = new HashMap<>();
    for (String k : keys) {
      owner.put(HEX.formatHex(k.getBytes(StandardCharsets.UTF_8)), k);
    }
    return new GroundTruth(new LinkedHashSet<>(owner.keySet()), owner);
  }

  /** The label is the encrypted baseline's PRF of the key. */
  static GroundTruth encrypted(Collection<String> keys, MasterKey masterKey) {
    Map<String, String> owner = new HashMap<>();
    for (String k : keys) {
      owner.put(HEX.formatHex(EncryptedClient.labelOf(masterKey, k.getBytes(StandardCharsets.UTF_8))), k);
    }
    return new GroundTruth(new LinkedHashSet<>(owner.keySet()), owner);
  }

  /**
   * Every main-area and holding-slot label of a closed DetWoORAM; a key owns its main block and,
   * if its last write had not been refreshed when the state was saved, that write's holding slot.
   */
  static GroundTruth detworam(Path stateDir, MasterKey masterKey) {
    if (stateDir == null) {
      throw new ConfigException("scheme detworam needs --state-dir");
    }
    DetWoOramClient.LabelOwners owners = DetWoOramClient.labelOwners(stateDir, masterKey);
    return fromOwners(owners.labels(), owners.keys());
  }

  /**
   * Every replica slot's label of a closed PANCAKE state; a key owns the labels of its replica
   * slots, dummies and unused key slots own none ({@link PancakeClient#labelOwners}).
   */
  static GroundTruth pancake(Path stateDir, MasterKey masterKey) {
    if (stateDir == null) {
      throw new ConfigException("scheme pancake needs --state-dir");
    }
    PancakeClient.LabelOwners owners = PancakeClient.labelOwners(stateDir, masterKey);
    return fromOwners(owners.labels(), owners.keys());
  }

  /** {@code labels[i]} is owned by {@code keys[i]}, or by no key where that is null. */
  private static GroundTruth fromOwners(List<byte[]> labels, List<byte[]> keys) {
    Set<String> all = new LinkedHashSet<>();
    Map<String, String> owner = new HashMap<>();
    for (int i = 0; i < labels.size(); i++) {
      String label = HEX.formatHex(labels.get(i));
      all.add(label);
      byte[] key = keys.get(i);
      if (key != null) {
        owner.put(label, new String(key, StandardCharsets.UTF_8));
      }
    }
    return new GroundTruth(all, owner);
  }
}
