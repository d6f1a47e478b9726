package io.pancakej.detworam;

import java.nio.file.Path;
import java.util.Properties;

import org.junit.jupiter.api.io.TempDir;

import io.pancakej.KvClient;
import io.pancakej.store.RedisStore;
import io.pancakej.testing.KvClientOutageTest;

/** Redis outages under DetWoORAM (a write whose multi-put failed is sent again before anything else). */
class DetWoOramOutageTest extends KvClientOutageTest {
  @TempDir
  Path dir;

  @Override
  protected KvClient open(Properties storeProperties) {
    return DetWoOramClient.builder().stateDir(dir.resolve("state")).capacity(100)
        .store(RedisStore.open(storeProperties)).build();
  }
}
