package io.pancakej.detworam;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
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
import io.pancakej.store.MemoryStore;
import io.pancakej.store.ForwardingStore;

/** Failed reads change nothing; a failed or partial multi-put takes effect and is sent again before anything else. */
class StoreFailureTest {
  @TempDir
  Path dir;

  /**
   * When flaky, fails one multi-put in five after writing a random prefix of it, and one
   * multi-get in ten; when down, fails every multi-put.
   */
  static final class FlakyStore extends ForwardingStore {
    final MemoryStore memory;
    final Random random = new Random(41);
    boolean flaky;
    boolean down;
    int failures;

    FlakyStore(MemoryStore memory) {
      super(memory);
      this.memory = memory;
    }

    @Override
    public List<byte[]> multiGet(List<byte[]> keys) {
      if (flaky && random.nextInt(10) == 0) {
        failures++;
        throw new StoreException("injected read failure");
      }
      return super.multiGet(keys);
    }

    @Override
    public void multiPut(List<byte[]> keys, List<byte[]> values) {
      if (down || (flaky && random.nextInt(5) == 0)) {
        int prefix = down ? 0 : random.nextInt(keys.size());
        super.multiPut(keys.subList(0, prefix), values.subList(0, prefix));
        failures++;
        throw new StoreException("injected failure after " + prefix + " of " + keys.size() + " writes");
      }
      super.multiPut(keys, values);
    }

    @Override
    public List<byte[]> multiPutGet(List<byte[]> putKeys, List<byte[]> putValues, List<byte[]> getKeys) {
      return standardMultiPutGet(putKeys, putValues, getKeys); // through the flaky multiPut and multiGet
    }

    @Override
    public byte[] get(byte[] key) {
      return standardGet(key);
    }

    @Override
    public void put(byte[] key, byte[] value) {
      standardPut(key, value);
    }

    @Override
    public void close() {
      // the test reopens the memory store
    }
  }

  @Test
  void failedAndPartialWrites_takeEffect_failedReadsChangeNothing_andNoStaleValueComesBack() {
    FlakyStore store = new FlakyStore(new MemoryStore());
    Map<Integer, byte[]> model = new HashMap<>();
    Random r = new Random(42);
    try (DetWoOramClient c = DetWoOramClientTest.small(dir, 64, 16).store(store).build()) {
      store.flaky = true;
      for (int i = 0; i < 5_000; i++) {
        int k = r.nextInt(64);
        int op = r.nextInt(3);
        byte[] v = DetWoOramClientTest.randomValue(r);
        long before = c.stats().writes();
        try {
          if (op == 0) {
            c.put(DetWoOramClientTest.key(k), v);
          } else if (op == 1) {
            c.delete(DetWoOramClientTest.key(k));
          } else {
            Optional<byte[]> got = c.get(DetWoOramClientTest.key(k));
            assertEquals(model.containsKey(k), got.isPresent(), "presence of key " + k + " at op " + i);
            if (got.isPresent()) {
              assertArrayEquals(model.get(k), got.get(), "key " + k + " at op " + i);
            }
          }
        } catch (StoreException e) {
          // a failed write-back has taken effect at the proxy; a failed read or re-send has not
        }
        if (c.stats().writes() > before) {
          if (op == 0) {
            model.put(k, v);
          } else {
            model.remove(k);
          }
        }
      }
      store.flaky = false;
      assertTrue(store.failures > 500, "failures injected: " + store.failures);
      for (int k = 0; k < 64; k++) {
        Optional<byte[]> got = c.get(DetWoOramClientTest.key(k));
        assertEquals(model.containsKey(k), got.isPresent(), "key " + k);
        if (model.containsKey(k)) {
          assertArrayEquals(model.get(k), got.get(), "key " + k);
        }
      }
    }
  }

  @Test
  void aWriteThatCannotBeSentBeforeClose_isKeptInTheState_andSentAtTheNextOpen() {
    MemoryStore memory = new MemoryStore();
    FlakyStore store = new FlakyStore(memory);
    try (DetWoOramClient c = DetWoOramClientTest.small(dir, 8, 8).store(store).build()) {
      c.put(DetWoOramClientTest.key(1), new byte[] {1});
      store.down = true;
      assertThrows(StoreException.class, () -> c.put(DetWoOramClientTest.key(1), new byte[] {2}));
      StoreException e = assertThrows(StoreException.class, () -> c.get(DetWoOramClientTest.key(1)));
      assertTrue(e.getMessage().contains("injected"), e.getMessage());
    } // close cannot send the write either: it goes into the state file
    try (DetWoOramClient c = DetWoOramClient.builder().store(new FlakyStore(memory)).stateDir(dir)
        .masterKey(DetWoOramClientTest.MASTER).build()) {
      assertArrayEquals(new byte[] {2}, c.get(DetWoOramClientTest.key(1)).orElseThrow());
      assertEquals(2, c.stats().writes());
    }
  }
}
