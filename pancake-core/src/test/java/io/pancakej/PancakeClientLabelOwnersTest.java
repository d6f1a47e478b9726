package io.pancakej;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.pancakej.crypto.MasterKey;
import io.pancakej.store.MemoryStore;

/** {@link PancakeClient#labelOwners}: the audit's ground truth, read from a closed state. */
class PancakeClientLabelOwnersTest {
  @TempDir
  Path dir;

  private PancakeConfig config(MemoryStore store) {
    return PancakeConfig.builder().stateDir(dir.resolve("state")).capacity(8).valueSize(16).keySize(8)
        .pacerRate(1000).adapt(false).store(store).build();
  }

  @Test
  void everyReplicaLabel_isAStoreEntry_andEachKeyOwnsTheLabelsOfItsReplicas() {
    MemoryStore store = new MemoryStore();
    try (PancakeClient client = PancakeClient.open(config(store))) {
      for (String k : new String[] {"a", "b", "c"}) {
        client.put(KvClient.utf8(k), KvClient.utf8("v-" + k));
      }
    }
    PancakeClient.LabelOwners owners = PancakeClient.labelOwners(dir.resolve("state"),
        MasterKey.load(dir.resolve("state/master.key")));
    assertEquals(16, owners.labels().size(), "2n replica slots");
    assertEquals(owners.labels().size(), owners.keys().size());
    MemoryStore after = store.reopen();
    Set<ByteBuffer> distinct = new HashSet<>();
    Map<String, Integer> owned = new HashMap<>();
    for (int i = 0; i < owners.labels().size(); i++) {
      assertNotNull(after.get(owners.labels().get(i)), "replica " + i + "'s label is on the store");
      distinct.add(ByteBuffer.wrap(owners.labels().get(i)));
      byte[] key = owners.keys().get(i);
      if (key != null) {
        owned.merge(new String(key, StandardCharsets.UTF_8), 1, Integer::sum);
      }
    }
    assertEquals(16, distinct.size());
    assertEquals(Set.of("a", "b", "c"), owned.keySet(), "the five unbound key slots own nothing");
  }

  @Test
  void aStateInUse_isRefused() {
    try (PancakeClient client = PancakeClient.open(config(new MemoryStore()))) {
      MasterKey key = MasterKey.load(dir.resolve("state/master.key"));
      StateException e = assertThrows(StateException.class, () -> PancakeClient.labelOwners(dir.resolve("state"), key));
      assertTrue(e.getMessage().contains("in use") || e.getMessage().contains("already open"), e.getMessage());
    }
  }

  @Test
  void noState_isRefused_andNothingIsCreated() {
    StateException e = assertThrows(StateException.class,
        () -> PancakeClient.labelOwners(dir.resolve("none"), MasterKey.generate(new java.security.SecureRandom())));
    assertTrue(e.getMessage().contains("no PANCAKE state"), e.getMessage());
    assertTrue(!java.nio.file.Files.exists(dir.resolve("none")));
  }
}
