package io.pancakej;

import java.nio.file.Path;
import java.util.Properties;

import org.junit.jupiter.api.io.TempDir;

import io.pancakej.store.RedisStore;
import io.pancakej.testing.KvClientOutageTest;

/** Redis outages under PANCAKE (its pacer keeps sending batches, which fail meanwhile). */
class PancakeClientOutageTest extends KvClientOutageTest {
  @TempDir
  Path dir;

  @Override
  protected KvClient open(Properties storeProperties) {
    return PancakeClient.open(PancakeConfig.builder().stateDir(dir.resolve("state")).capacity(100)
        .store(RedisStore.open(storeProperties)).build());
  }
}
