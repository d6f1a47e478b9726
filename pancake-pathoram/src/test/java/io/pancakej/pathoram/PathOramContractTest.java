package io.pancakej.pathoram;

import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.io.TempDir;

import io.pancakej.KvClient;
import io.pancakej.store.MemoryStore;
import io.pancakej.testing.KvClientContractTest;

/** The client contract PANCAKE, encrypted and insecure pass, on Path ORAM. */
class PathOramContractTest extends KvClientContractTest {
  @TempDir
  Path dir;
  private final AtomicInteger opened = new AtomicInteger();

  @Override
  protected KvClient newClient() {
    return PathOramClient.builder().stateDir(dir.resolve("state" + opened.incrementAndGet())).capacity(2000)
        .seed(opened.get()).store(new MemoryStore()).build();
  }
}
