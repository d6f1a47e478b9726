package io.pancakej.pathoram;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.pancakej.StoreException;
import io.pancakej.store.KvStore;
import io.pancakej.store.MemoryStore;

/** Failed and partial write-backs must neither lose a block nor bring back a stale copy. */
class StoreFailureTest {
  @TempDir
  Path dir;

  /** Fails one multiPut in {@code every}, after writing a random prefix of it. */
  static final class FlakyStore implements KvStore {
    final MemoryStore delegate = new MemoryStore();
    final Random random = new Random(41);
    boolean flaky;
    int failures;

    @Override
    public List<byte[]> multiGet(List<byte[]> keys) {
      return delegate.multiGet(keys);
    }

    @Override
    public void multiPut(List<byte[]> keys, List<byte[]> values) {
      if (flaky && random.nextInt(5) == 0) {
        int prefix = random.nextInt(keys.size());
        delegate.multiPut(keys.subList(0, prefix), values.subList(0, prefix));
        failures++;
        throw new StoreException("injected failure after " + prefix + " of " + keys.size() + " writes");
      }
      delegate.multiPut(keys, values);
    }

    @Override
    public void multiDelete(List<byte[]> keys) {
      delegate.multiDelete(keys);
    }

    @Override
    public boolean isEmpty() {
      return delegate.isEmpty();
    }

    @Override
    public String describe() {
      return "flaky";
    }

    @Override
    public void close() {}
  }

  @Test
  void failedAndPartialWriteBacks_loseNoBlock_andResurrectNoStaleValue() {
    FlakyStore store = new FlakyStore();
    Map<Integer, byte[]> model = new HashMap<>();
    Random r = new Random(42);
    try (PathOramClient c = PathOramClientTest.small(dir, 64, 42).store(store).build()) {
      store.flaky = true;
      for (int i = 0; i < 5_000; i++) {
        int k = r.nextInt(64);
        int op = r.nextInt(3);
        byte[] v = PathOramClientTest.randomValue(r);
        try {
          if (op == 0) {
            c.put(PathOramClientTest.key(k), v);
          } else if (op == 1) {
            c.delete(PathOramClientTest.key(k));
          } else {
            c.get(PathOramClientTest.key(k));
          }
        } catch (StoreException e) {
          // the write-back failed, but the operation has taken effect at the proxy
        }
        if (op == 0) {
          model.put(k, v);
        } else if (op == 1) {
          model.remove(k);
        }
      }
      store.flaky = false;
      assertTrue(store.failures > 500, "failures injected: " + store.failures);
      for (int k = 0; k < 64; k++) {
        Optional<byte[]> got = c.get(PathOramClientTest.key(k));
        assertEquals(model.containsKey(k), got.isPresent(), "key " + k);
        if (model.containsKey(k)) {
          assertArrayEquals(model.get(k), got.get(), "key " + k);
        }
      }
    }
  }
}
