package io.pancakej.baseline;

import java.security.SecureRandom;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

import io.pancakej.KvClient;
import io.pancakej.crypto.MasterKey;
import io.pancakej.store.RedisClusterStore;
import io.pancakej.testing.KvClientContractTest;
import io.pancakej.testing.RedisClusterFixture;

/** The client contract, on the encrypted baseline over a real three-master Redis Cluster. */
class EncryptedClientOnRedisClusterTest extends KvClientContractTest {
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
  protected KvClient newClient() {
    cluster.flushAll();
    return EncryptedClient.builder().store(RedisClusterStore.open(cluster.properties()))
        .masterKey(MasterKey.generate(new SecureRandom())).valueSize(1200).keySize(128).build();
  }

  @Override
  protected int randomOperationCount() {
    return 1000;
  }

  @Override
  protected int incrementsPerThread() {
    return 50;
  }

  @Override
  protected int keysPerThread() {
    return 30;
  }
}
