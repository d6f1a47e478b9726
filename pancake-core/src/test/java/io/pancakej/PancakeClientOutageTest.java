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

  /**
   * A request fails with the tick that dequeued it, and during a hung outage each tick's call
   * takes one timeout. A tick takes the queue's head with probability 1/2 in each of its slots, so
   * a request misses a one-batch tick (B = 3) with probability 1/8, after a tick already in flight:
   * most fail within 2 timeouts (measured: 303-926 ms), and 8 timeouts leave about 8^-7 (one in
   * two million) to chance. CI once saw 1 525 ms against the old bound of 5 timeouts (1/512 per call).
   */
  @Override
  protected long quickMs() {
    return 8L * TIMEOUT_MS;
  }

  @Override
  protected KvClient open(Properties storeProperties) {
    return PancakeClient.open(PancakeConfig.builder().stateDir(dir.resolve("state")).capacity(100)
        .store(RedisStore.open(storeProperties)).build());
  }
}
