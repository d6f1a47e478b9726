package io.pancakej.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Properties;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.pancakej.StoreException;
import io.pancakej.testing.RedisServerFixture;

/** A Redis server that goes away and comes back on the same port. */
class RedisOutageTest {
  /** Well above a refused connect or a 300 ms timeout, well below the 5 s default timeout. */
  private static final long QUICK_MS = 2_000;
  private static RedisServerFixture redis;

  @BeforeAll
  static void startRedis() {
    redis = new RedisServerFixture();
  }

  @AfterAll
  static void stopRedis() {
    redis.close();
  }

  @BeforeEach
  void serverIsUp() {
    redis.start();
  }

  private static Properties props() {
    Properties p = redis.properties();
    p.setProperty(Stores.REDIS_TIMEOUT_PROPERTY, "300");
    return p;
  }

  @Test
  void open_whileServerIsDown_failsQuicklyWithStoreException() {
    redis.stop();
    long start = System.nanoTime();
    StoreException e = assertThrows(StoreException.class, () -> Stores.open(props()));
    assertQuick(start);
    assertTrue(e.getMessage().contains(Integer.toString(redis.port())), e.getMessage());
    assertTrue(e.getCause() != null, "the cause is kept");

    redis.start();
    try (KvStore store = Stores.open(props())) {
      store.put(bytes("k"), bytes("v"));
      assertArrayEquals(bytes("v"), store.get(bytes("k")));
    }
  }

  @Test
  void sameStore_failsQuicklyDuringOutage_andWorksAgainAfterRestart() {
    try (KvStore store = Stores.open(props())) {
      store.put(bytes("k"), bytes("v"));
      redis.stop();

      long start = System.nanoTime();
      assertThrows(StoreException.class, () -> store.get(bytes("k")));
      assertThrows(StoreException.class, () -> store.put(bytes("k"), bytes("v2")));
      assertThrows(StoreException.class, () -> store.multiDelete(List.of(bytes("k"))));
      assertQuick(start);

      redis.start();
      assertNull(store.get(bytes("k")), "no persistence: the restarted server is empty");
      store.put(bytes("k"), bytes("v3"));
      assertArrayEquals(bytes("v3"), store.get(bytes("k")));
    }
  }

  @Test
  void sameStore_readsAfterAnUnnoticedRestart_onTheFirstTry() {
    try (KvStore store = Stores.open(props())) {
      store.put(bytes("k"), bytes("v"));
      redis.stop();
      redis.start();
      // the pooled connection is stale; the read retries once on a fresh one
      assertNull(store.get(bytes("k")));
      store.put(bytes("k"), bytes("v2"));
      assertArrayEquals(bytes("v2"), store.get(bytes("k")));
    }
  }

  private static void assertQuick(long startNanos) {
    long ms = (System.nanoTime() - startNanos) / 1_000_000;
    assertTrue(ms < QUICK_MS, "took " + ms + " ms");
  }

  private static byte[] bytes(String s) {
    return s.getBytes(java.nio.charset.StandardCharsets.UTF_8);
  }
}
