package io.pancakej.pathoram;

import java.nio.file.Path;
import java.util.Properties;

import org.junit.jupiter.api.io.TempDir;

import io.pancakej.KvClient;
import io.pancakej.store.RedisStore;
import io.pancakej.testing.KvClientOutageTest;

/** Redis outages under Path ORAM (a failed write-back keeps its blocks in the stash). */
class PathOramOutageTest extends KvClientOutageTest {
  @TempDir
  Path dir;

  @Override
  protected KvClient open(Properties storeProperties) {
    return PathOramClient.builder().stateDir(dir.resolve("state")).capacity(100).seed(3)
        .store(RedisStore.open(storeProperties)).build();
  }
}
