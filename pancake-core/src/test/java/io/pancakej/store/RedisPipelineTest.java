package io.pancakej.store;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.pancakej.StoreException;
import io.pancakej.testing.RedisServerFixture;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.args.ClientPauseMode;

/**
 * {@link RedisStore#sendPutGet} against a real server: the call leaves at once and its reply is
 * read later; an error reply fails its own call only; a broken connection fails the calls in
 * flight on it, and the next call opens a new one. (Order and values: {@code KvStoreContractTest}.)
 */
class RedisPipelineTest {
  private RedisServerFixture redis;
  private KvStore store;

  @BeforeEach
  void start() {
    redis = new RedisServerFixture();
    store = Stores.open(redis.properties());
  }

  @AfterEach
  void stop() {
    store.close();
    redis.close();
  }

  private static byte[] b(String s) {
    return s.getBytes(UTF_8);
  }

  private KvStore.PendingReply call(String key, String value) {
    return store.sendPutGet(List.of(b(key)), List.of(b(value)), List.of(b(key)));
  }

  @Test
  void send_returnsBeforeTheServerAnswers_andAwaitWaitsForTheReply() {
    call("warm", "0").await(); // the pipelined connection is open
    try (Jedis admin = redis.jedis()) {
      admin.clientPause(400, ClientPauseMode.WRITE); // MSET waits 0.4 s
    }
    long start = System.nanoTime();
    KvStore.PendingReply reply = call("k", "v");
    long sent = System.nanoTime() - start;
    assertArrayEquals(b("v"), reply.await().get(0));
    long answered = System.nanoTime() - start;
    assertTrue(sent < TimeUnit.MILLISECONDS.toNanos(200), "send waited " + sent / 1_000_000 + " ms");
    assertTrue(answered >= TimeUnit.MILLISECONDS.toNanos(300), "reply after " + answered / 1_000_000 + " ms");
  }

  @Test
  void anErrorReply_failsItsOwnCall_andTheConnectionGoesOn() {
    call("a", "1").await();
    try (Jedis admin = redis.jedis()) {
      admin.configSet("maxmemory-policy", "noeviction");
      admin.configSet("maxmemory", "1"); // every write is refused with -OOM
      KvStore.PendingReply refused = call("b", "2");
      StoreException e = assertThrows(StoreException.class, refused::await);
      assertTrue(e.getMessage().contains("OOM"), e.getMessage());
      assertThrows(StoreException.class, refused::await); // the same failure again
      admin.configSet("maxmemory", "0");
    }
    KvStore.PendingReply next = store.sendPutGet(List.of(b("c")), List.of(b("3")), List.of(b("a"), b("c")));
    List<byte[]> got = next.await();
    assertArrayEquals(b("1"), got.get(0));
    assertArrayEquals(b("3"), got.get(1));
  }

  @Test
  void aKilledConnection_failsTheCallsInFlightOnIt_andTheNextCallReconnects() {
    call("a", "1").await();
    KvStore.PendingReply[] inFlight = new KvStore.PendingReply[1];
    try (Jedis admin = redis.jedis()) {
      admin.clientPause(300, ClientPauseMode.WRITE);
      inFlight[0] = call("b", "2"); // sent, not answered while the server pauses writes
      admin.sendCommand(Protocol.Command.CLIENT, "KILL", "TYPE", "normal", "SKIPME", "yes");
    }
    StoreException e = assertThrows(StoreException.class, inFlight[0]::await);
    assertTrue(e.getMessage().contains("redis:127.0.0.1:" + redis.port()), e.getMessage());
    StoreException later = null;
    KvStore.PendingReply next = null;
    try {
      next = call("c", "3"); // the write may still reach the dead socket: then its reply fails
      next.await();
    } catch (StoreException first) {
      later = first;
    }
    if (later != null) {
      next = call("c", "3"); // a new connection by now
    }
    assertArrayEquals(b("3"), next.await().get(0));
    assertArrayEquals(b("1"), store.get(b("a")));
  }

  @Test
  void aServerOutage_failsTheCallInFlightAndTheSendsDuringIt_thenCallsWorkAgain() {
    call("a", "1").await();
    KvStore.PendingReply inFlight;
    try (Jedis admin = redis.jedis()) {
      admin.clientPause(500, ClientPauseMode.WRITE);
      inFlight = call("b", "2");
    }
    redis.stop();
    assertThrows(StoreException.class, inFlight::await);
    long start = System.nanoTime();
    StoreException down = assertThrows(StoreException.class, () -> call("c", "3").await());
    assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(3), "a send while the server is down fails fast");
    assertTrue(down.getMessage().contains("redis:127.0.0.1:" + redis.port()), down.getMessage());
    redis.start();
    assertArrayEquals(b("4"), call("d", "4").await().get(0));
  }

  @Test
  void close_failsRepliesNotRead_andSendsAfterIt() {
    KvStore.PendingReply unread;
    try (Jedis admin = redis.jedis()) {
      call("a", "1").await();
      admin.clientPause(300, ClientPauseMode.WRITE);
      unread = call("b", "2");
    }
    store.close();
    assertThrows(StoreException.class, unread::await);
    assertThrows(StoreException.class, () -> call("c", "3"));
  }
}
