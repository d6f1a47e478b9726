package io.pancakej.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.pancakej.testing.KvStoreContractTest;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.args.ClientType;
import redis.clients.jedis.params.ClientKillParams;
import io.pancakej.testing.RedisServerFixture;

class RedisStoreTest extends KvStoreContractTest {
  private static RedisServerFixture redis;

  @BeforeAll
  static void startRedis() {
    redis = new RedisServerFixture();
  }

  @AfterAll
  static void stopRedis() {
    redis.close();
  }

  @Override
  protected KvStore newStore() {
    return Stores.open(redis.properties());
  }

  @Override
  protected void cleanUp() {
    redis.flushAll();
  }

  @Test
  void open_withADatabaseTheServerDoesNotHave_leadsWithRedisOwnReply_thenTheProperty() {
    java.util.Properties p = redis.properties();
    p.setProperty(Stores.REDIS_DB_PROPERTY, "99"); // redis-server has 16 databases by default
    io.pancakej.PancakeException e = org.junit.jupiter.api.Assertions.assertThrows(
        io.pancakej.PancakeException.class, () -> Stores.open(p));
    String m = e.getMessage();
    org.junit.jupiter.api.Assertions.assertTrue(m.startsWith("ERR DB index is out of range"), m);
    org.junit.jupiter.api.Assertions.assertTrue(m.contains("redis.db=99"), m);
    org.junit.jupiter.api.Assertions.assertTrue(m.contains(Integer.toString(redis.port())), m);
  }

  @Test
  void sendPutGet_aRefusedWrite_failsItsOwnCall_andTheNextAnswerStaysInStep() {
    store.put(bytes("k"), bytes("v"));
    try (Jedis admin = redis.jedis()) {
      admin.configSet("maxmemory-policy", "noeviction");
      admin.configSet("maxmemory", "1"); // every write is refused with OOM; reads still run
      try {
        KvStore.Pending refused = store.sendPutGet(List.of(bytes("k")), List.of(bytes("w")), List.of(bytes("k")));
        KvStore.Pending next = store.sendPutGet(List.of(), List.of(), List.of(bytes("k")));
        io.pancakej.StoreException e = assertThrows(io.pancakej.StoreException.class, refused::await);
        assertTrue(e.getMessage().contains("OOM"), e.getMessage());
        assertArrayEquals(bytes("v"), next.await().get(0));
      } finally {
        admin.configSet("maxmemory", "0");
      }
    }
  }

  @Test
  void sendPutGet_aBrokenConnection_failsTheCallsOnIt_andTheNextCallReconnects() {
    assertArrayEquals(null, store.sendPutGet(List.of(), List.of(), List.of(bytes("k"))).await().get(0));
    try (Jedis admin = redis.jedis()) {
      admin.clientKill(new ClientKillParams()
          .type(ClientType.NORMAL).skipMe(ClientKillParams.SkipMe.YES));
    }
    assertThrows(io.pancakej.StoreException.class,
        () -> store.sendPutGet(List.of(bytes("k")), List.of(bytes("v")), List.of(bytes("k"))).await());
    assertArrayEquals(bytes("w"),
        store.sendPutGet(List.of(bytes("k")), List.of(bytes("w")), List.of(bytes("k"))).await().get(0));
  }

  @Test
  void sendPutGet_answersAwaitedOutOfOrder_areRefused() {
    KvStore.Pending first = store.sendPutGet(List.of(), List.of(), List.of(bytes("k")));
    KvStore.Pending second = store.sendPutGet(List.of(), List.of(), List.of(bytes("k")));
    assertThrows(IllegalStateException.class, second::await);
    assertArrayEquals(null, first.await().get(0));
  }

  @Test
  void describe_namesHostPortAndDatabase() {
    assertEquals("redis:127.0.0.1:" + redis.port() + "/0", store.describe());
  }
}
