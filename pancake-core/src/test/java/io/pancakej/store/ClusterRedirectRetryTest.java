package io.pancakej.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import redis.clients.jedis.exceptions.JedisClusterOperationException;
import redis.clients.jedis.exceptions.JedisConnectionException;

/**
 * A command through the redirecting client whose attempts ran out while a slot moved is tried
 * again, on a fresh slot map, a bounded number of times (RedisClusterReshardTest once failed in CI
 * with "No more cluster attempts left" on the moving slot).
 */
class ClusterRedirectRetryTest {
  @Test
  void attemptsThatRanOut_areTriedAgainOnAFreshSlotMap() {
    AtomicInteger calls = new AtomicInteger();
    AtomicInteger renewals = new AtomicInteger();
    String got = RedisClusterStore.redirected(() -> {
      if (calls.incrementAndGet() < 3) {
        throw new JedisClusterOperationException("No more cluster attempts left.");
      }
      return "value";
    }, renewals::incrementAndGet);
    assertEquals("value", got);
    assertEquals(3, calls.get());
    assertEquals(2, renewals.get(), "the slot map is read again before each new try");
  }

  @Test
  void aFailureThatLasts_reachesTheCaller_afterABoundedNumberOfTries() {
    AtomicInteger calls = new AtomicInteger();
    JedisClusterOperationException last = new JedisClusterOperationException("No more cluster attempts left.");
    JedisClusterOperationException thrown = assertThrows(JedisClusterOperationException.class,
        () -> RedisClusterStore.redirected(() -> {
          calls.incrementAndGet();
          throw last;
        }, () -> { }));
    assertSame(last, thrown);
    assertEquals(RedisClusterStore.RESHARD_TRIES, calls.get());
  }

  @Test
  void otherFailures_areNotRetried() {
    AtomicInteger calls = new AtomicInteger();
    assertThrows(JedisConnectionException.class, () -> RedisClusterStore.redirected(() -> {
      calls.incrementAndGet();
      throw new JedisConnectionException("connection refused");
    }, () -> { }));
    assertEquals(1, calls.get());
  }
}
