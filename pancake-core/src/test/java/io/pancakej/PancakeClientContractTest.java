package io.pancakej;

import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.io.TempDir;

import io.pancakej.store.MemoryStore;
import io.pancakej.testing.KvClientContractTest;

/** The client contract, on PANCAKE over an in-memory store. */
class PancakeClientContractTest extends KvClientContractTest {
  @TempDir
  Path dir;
  private final AtomicInteger opened = new AtomicInteger();

  @Override
  protected KvClient newClient() {
    return PancakeClient.open(PancakeConfig.builder().stateDir(dir.resolve("state" + opened.incrementAndGet()))
        .capacity(2000).pacerRate(1000).store(new MemoryStore()).build());
  }
}
