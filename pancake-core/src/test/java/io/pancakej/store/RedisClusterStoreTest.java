package io.pancakej.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.pancakej.testing.KvStoreContractTest;
import io.pancakej.testing.RedisClusterFixture;

class RedisClusterStoreTest extends KvStoreContractTest {
  private static RedisClusterFixture cluster;

  @BeforeAll
  static void startCluster() {
    cluster = new RedisClusterFixture();
  }

  @AfterAll
  static void stopCluster() {
    cluster.close();
  }

  @Override
  protected KvStore newStore() {
    return Stores.open(cluster.properties());
  }

  @Override
  protected void cleanUp() {
    cluster.flushAll();
  }

  @Test
  void multiPut_spreadsKeysOverEveryMaster() {
    store.multiPut(randomBytesList(300, 16), randomBytesList(300, 8));
    for (int i = 0; i < RedisClusterFixture.NODES; i++) {
      assertTrue(cluster.dbSize(i) > 50, "node " + i + " holds " + cluster.dbSize(i) + " of 300 keys");
    }
  }

  @Test
  void multiKeyBatches_overEveryMaster_startNoThreads() {
    List<byte[]> keys = randomBytesList(60, 16);
    List<byte[]> values = randomBytesList(60, 32);
    store.multiPut(keys, values); // warm up: connections, slot map
    store.multiGet(keys);
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    long before = threads.getTotalStartedThreadCount();
    for (int i = 0; i < 100; i++) {
      store.multiPut(keys, values);
      assertValues(values, store.multiGet(keys));
      store.get(keys.get(i % keys.size()));
      store.put(keys.get(i % keys.size()), values.get(i % keys.size()));
    }
    long started = threads.getTotalStartedThreadCount() - before;
    // Jedis 5.1.5's ClusterPipeline started two threads per multi-node batch (400 here)
    assertTrue(started < 10, started + " threads started during 200 batches");
  }

  @Test
  void batches_withKeysRepeatedAcrossMasters_keepListOrderAndPositions() {
    List<byte[]> keys = new ArrayList<>();
    List<byte[]> values = new ArrayList<>();
    Map<String, byte[]> last = new HashMap<>();
    for (int round = 0; round < 5; round++) {
      for (int k = 0; k < 40; k++) {
        String key = "key" + k;
        byte[] v = ("round " + round + " " + key).getBytes(StandardCharsets.UTF_8);
        keys.add(key.getBytes(StandardCharsets.UTF_8));
        values.add(v);
        last.put(key, v);
      }
    }
    store.multiPut(keys, values);
    List<byte[]> asked = new ArrayList<>();
    for (int k = 79; k >= 0; k--) {
      asked.add(("key" + k).getBytes(StandardCharsets.UTF_8)); // 40 absent, interleaved by slot
    }
    asked.add("key3".getBytes(StandardCharsets.UTF_8));
    List<byte[]> got = store.multiGet(asked);
    for (int i = 0; i < asked.size(); i++) {
      String key = new String(asked.get(i), StandardCharsets.UTF_8);
      if (last.containsKey(key)) {
        assertArrayEquals(last.get(key), got.get(i), key + " at position " + i);
      } else {
        assertNull(got.get(i), key + " at position " + i);
      }
    }
    for (int i = 0; i < RedisClusterFixture.NODES; i++) {
      assertTrue(cluster.dbSize(i) > 0, "node " + i + " holds some of the 40 keys");
    }
  }
}
