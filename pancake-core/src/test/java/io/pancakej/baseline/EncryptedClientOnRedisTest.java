package io.pancakej.baseline;

import java.security.SecureRandom;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

import io.pancakej.KvClient;
import io.pancakej.crypto.MasterKey;
import io.pancakej.store.Stores;
import io.pancakej.testing.KvClientContractTest;
import io.pancakej.testing.RedisServerFixture;
import redis.clients.jedis.Jedis;

/** The client contract on a real Redis server, with a smaller random sequence. */
class EncryptedClientOnRedisTest extends KvClientContractTest {
  private static RedisServerFixture redis;

  @BeforeAll
  static void startRedis() {
    redis = new RedisServerFixture();
  }

  @AfterAll
  static void stopRedis() {
    if (redis != null) {
      redis.close();
    }
  }

  @Override
  protected KvClient newClient() {
    try (Jedis jedis = new Jedis(redis.host(), redis.port())) {
      jedis.flushAll();
    }
    return EncryptedClient.builder().store(Stores.open(redis.properties()))
        .masterKey(MasterKey.generate(new SecureRandom())).valueSize(1200).keySize(128).build();
  }

  @Override
  protected int randomOperationCount() {
    return 2_000;
  }
}
