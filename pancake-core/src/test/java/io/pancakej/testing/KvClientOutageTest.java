package io.pancakej.testing;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.function.Executable;

import io.pancakej.KvClient;
import io.pancakej.StoreException;
import io.pancakej.store.Stores;
import redis.clients.jedis.Jedis;

/**
 * What every {@link KvClient} does when its Redis goes away and comes back: operations during the
 * outage fail fast with {@link StoreException} (within a small {@code redis.timeout}), the same
 * client object works again once Redis is back, and every write acknowledged before the outage
 * reads back. A write that failed during the outage may or may not have taken effect, but it
 * never corrupts anything: its key reads back as the old or the new value.
 *
 * <p>Two outages: a stopped server (connections refused) that restarts with its data (append-only
 * file, fsync always: {@link RedisServerFixture#withPersistence()}), and a hung server
 * ({@code CLIENT PAUSE}: connections accepted, no replies), where only the timeout ends a call.
 * Scheme tests extend this class and supply {@link #open(Properties)}.
 */
public abstract class KvClientOutageTest {
  /** The configured {@code redis.timeout}. */
  protected static final int TIMEOUT_MS = 300;
  /** Bound on a failing call: a few timeouts (a read is retried once), far below the 5 s default. */
  protected static final long QUICK_MS = 1_500;

  /** How long a call may take to fail during an outage ({@link #QUICK_MS} unless a scheme says otherwise). */
  protected long quickMs() {
    return QUICK_MS;
  }
  private static final int KEYS = 20;

  protected static RedisServerFixture redis;
  private KvClient client;

  @BeforeAll
  static void startRedis() {
    redis = RedisServerFixture.withPersistence();
  }

  @AfterAll
  static void stopRedis() {
    if (redis != null) {
      redis.close();
    }
  }

  /** A new client on the store named by {@code storeProperties}, on an empty store. */
  protected abstract KvClient open(Properties storeProperties);

  @BeforeEach
  void openClient() {
    redis.start();
    redis.flushAll();
    Properties p = redis.properties();
    p.setProperty(Stores.REDIS_TIMEOUT_PROPERTY, Integer.toString(TIMEOUT_MS));
    client = open(p);
  }

  @AfterEach
  void closeClient() {
    redis.start();
    if (client != null) {
      client.close();
    }
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] key(int i) {
    return bytes("key" + i);
  }

  private static byte[] value(int i) {
    return bytes("value " + i + " acknowledged before the outage");
  }

  private void writeKeys() {
    for (int i = 0; i < KEYS; i++) {
      client.put(key(i), value(i));
    }
  }

  /** Every operation kind fails with StoreException, each within {@link #quickMs}. */
  private void assertEveryOperationFailsFast() {
    assertFailsFast("get", () -> client.get(key(1)));
    assertFailsFast("get of an absent key", () -> client.get(bytes("absent")));
    assertFailsFast("put", () -> client.put(key(0), bytes("written during the outage")));
    assertFailsFast("update", () -> client.update(key(2), v -> bytes("updated during the outage")));
    assertFailsFast("delete", () -> client.delete(key(3)));
  }

  private void assertFailsFast(String what, Executable call) {
    long start = System.nanoTime();
    StoreException e = assertThrows(StoreException.class, call, what + " during the outage");
    long ms = (System.nanoTime() - start) / 1_000_000;
    assertTrue(ms < quickMs(), what + " took " + ms + " ms to fail (redis.timeout " + TIMEOUT_MS + " ms)");
    assertNotNull(e.getCause(), "the cause is kept");
    assertTrue(e.getMessage().toLowerCase().contains("redis"), "the message names the store: " + e.getMessage());
  }

  /** Waits until the client answers again (the first calls may still hit broken connections). */
  private void awaitRecovery() {
    long deadline = System.currentTimeMillis() + 10_000;
    while (true) {
      try {
        client.get(key(KEYS - 1));
        return;
      } catch (StoreException e) {
        if (System.currentTimeMillis() > deadline) {
          fail("the client did not recover within 10 s after Redis came back", e);
        }
        sleepMs(50);
      }
    }
  }

  /** Keys untouched during the outage read back exactly; touched ones hold the old or the new value. */
  private void assertDataIntact() {
    for (int i = 0; i < KEYS; i++) {
      Optional<byte[]> got = client.get(key(i));
      switch (i) {
        case 0:
          assertOneOf(got, value(0), bytes("written during the outage"));
          break;
        case 2:
          assertOneOf(got, value(2), bytes("updated during the outage"));
          break;
        case 3:
          assertTrue(got.isEmpty() || Arrays.equals(value(3), got.get()), "key3: deleted or intact");
          break;
        default:
          assertArrayEquals(value(i), got.orElseThrow(), "key" + i + " acknowledged before the outage");
      }
    }
    client.put(bytes("after"), bytes("written after the outage"));
    assertArrayEquals(bytes("written after the outage"), client.get(bytes("after")).orElseThrow());
  }

  private static void assertOneOf(Optional<byte[]> got, byte[] before, byte[] during) {
    byte[] v = got.orElseThrow(() -> new AssertionError("a key written before the outage is gone"));
    assertTrue(Arrays.equals(before, v) || Arrays.equals(during, v),
        "neither the acknowledged nor the failed write: " + new String(v, StandardCharsets.UTF_8));
  }

  @Test
  @Timeout(value = 60, unit = TimeUnit.SECONDS)
  void stoppedRedis_failsFast_andTheSameClientWorksAfterRestart_withNothingLost() {
    writeKeys();
    redis.stop();
    assertEveryOperationFailsFast();
    sleepMs(100); // background work (PANCAKE's pacer) keeps failing meanwhile
    redis.start();
    awaitRecovery();
    assertDataIntact();
  }

  @Test
  @Timeout(value = 60, unit = TimeUnit.SECONDS)
  void hungRedis_failsWithinTheTimeout_andTheSameClientWorksAfterwards_withNothingLost() {
    writeKeys();
    long pauseMs = Math.max(2_500, 2 * quickMs() + 500); // the get and the put both fail inside it
    try (Jedis j = redis.jedis()) {
      j.clientPause(pauseMs);
    }
    long resumeAt = System.currentTimeMillis() + pauseMs;
    assertFailsFast("get", () -> client.get(key(1)));
    assertFailsFast("put", () -> client.put(key(0), bytes("written during the outage")));
    sleepMs(Math.max(0, resumeAt - System.currentTimeMillis()) + 50);
    awaitRecovery();
    assertDataIntact();
  }

  private static void sleepMs(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
