package io.pancakej.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.exceptions.JedisClusterOperationException;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisMovedDataException;

/**
 * A command through the redirecting client whose attempts ran out while a slot moved is tried
 * again, on a fresh slot map, a bounded number of times (RedisClusterReshardTest once failed in CI
 * with "No more cluster attempts left" on the moving slot).
 */
class ClusterRedirectRetryTest {
  /** Jedis's failure when its attempts bounced on MOVED replies (the replies attached, as Jedis does). */
  private static JedisClusterOperationException bounced() {
    JedisClusterOperationException e = new JedisClusterOperationException("No more cluster attempts left.");
    e.addSuppressed(new JedisMovedDataException("MOVED 14604 127.0.0.1:35895", new HostAndPort("127.0.0.1", 35895), 14604));
    return e;
  }

  @Test
  void attemptsThatRanOut_areTriedAgainOnAFreshSlotMap() {
    AtomicInteger calls = new AtomicInteger();
    AtomicInteger renewals = new AtomicInteger();
    String got = RedisClusterStore.redirected(() -> {
      if (calls.incrementAndGet() < 3) {
        throw bounced();
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
    JedisClusterOperationException last = bounced();
    JedisClusterOperationException thrown = assertThrows(JedisClusterOperationException.class,
        () -> RedisClusterStore.redirected(() -> {
          calls.incrementAndGet();
          throw last;
        }, () -> { }));
    assertSame(last, thrown);
    assertEquals(RedisClusterStore.RESHARD_TRIES, calls.get());
  }

  @Test
  void attemptsThatRanOutOnADeadNode_reachTheCallerAtOnce() {
    AtomicInteger calls = new AtomicInteger();
    assertThrows(JedisClusterOperationException.class, () -> RedisClusterStore.redirected(() -> {
      calls.incrementAndGet();
      JedisClusterOperationException e = new JedisClusterOperationException("No more cluster attempts left.");
      e.addSuppressed(new JedisConnectionException("connection refused"));
      throw e;
    }, () -> { }));
    assertEquals(1, calls.get(), "an outage is not waited out four times over");
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
