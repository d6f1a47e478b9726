package io.pancakej.detworam;

import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.io.TempDir;

import io.pancakej.KvClient;
import io.pancakej.store.MemoryStore;
import io.pancakej.testing.KvClientContractTest;

/** The client contract with a small holding area: M = 285 for N = 2000, so every write refreshes k = 8 main blocks. */
class SmallHoldingAreaContractTest extends KvClientContractTest {
  @TempDir
  Path dir;
  private final AtomicInteger opened = new AtomicInteger();

  @Override
  protected KvClient newClient() {
    return DetWoOramClient.builder().stateDir(dir.resolve("state" + opened.incrementAndGet())).capacity(2000)
        .holding(285).store(new MemoryStore()).build();
  }
}
