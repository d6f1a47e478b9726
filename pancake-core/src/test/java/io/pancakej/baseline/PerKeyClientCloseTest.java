package io.pancakej.baseline;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.security.SecureRandom;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import org.junit.jupiter.api.Test;

import io.pancakej.KvClient;
import io.pancakej.StoreException;
import io.pancakej.crypto.MasterKey;
import io.pancakej.store.ForwardingStore;
import io.pancakej.store.KvStore;
import io.pancakej.store.MemoryStore;

/**
 * A baseline closed while one of its calls is still in the store: close waits for the call, which
 * completes with its answer, and only then closes the store; calls after close fail with a
 * {@link StoreException} saying the client is closed. (On RocksDB a store closed under a running
 * call is a use-after-free in native code.)
 */
class PerKeyClientCloseTest {
  /** A store whose reads wait for {@link #release} once armed, and that notes a close while a read runs. */
  static final class SlowStore extends ForwardingStore {
    final CountDownLatch inRead = new CountDownLatch(1);
    final CountDownLatch release = new CountDownLatch(1);
    volatile boolean armed;
    volatile boolean reading;
    volatile boolean closed;
    volatile boolean closedDuringARead;

    SlowStore() {
      super(new MemoryStore());
    }

    @Override
    public List<byte[]> multiGet(List<byte[]> keys) {
      reading = true;
      try {
        if (armed) {
          inRead.countDown();
          release.await(10, TimeUnit.SECONDS);
        }
        if (closed) {
          throw new IllegalStateException("read from a closed store");
        }
        return super.multiGet(keys);
      } catch (InterruptedException e) {
        throw new IllegalStateException(e);
      } finally {
        reading = false;
      }
    }

    @Override
    public byte[] get(byte[] key) {
      return multiGet(List.of(key)).get(0);
    }

    @Override
    public void close() {
      closedDuringARead |= reading;
      closed = true;
      super.close();
    }
  }

  private static void closeWhileAReadRuns(String scheme, Function<KvStore, KvClient> open) throws Exception {
    SlowStore store = new SlowStore();
    KvClient client = open.apply(store);
    client.put(KvClient.utf8("k"), KvClient.utf8("v"));
    store.armed = true;
    CompletableFuture<byte[]> read = CompletableFuture.supplyAsync(() -> client.get(KvClient.utf8("k")).orElseThrow());
    assertTrue(store.inRead.await(10, TimeUnit.SECONDS), scheme + ": the read reached the store");

    CompletableFuture<Void> close = CompletableFuture.runAsync(client::close);
    Thread.sleep(200);
    assertFalse(close.isDone(), scheme + ": close waits for the read under way");
    assertFalse(store.closed, scheme + ": the store stays open under the read");

    store.release.countDown();
    assertArrayEquals(KvClient.utf8("v"), read.get(10, TimeUnit.SECONDS), scheme + ": the read completes");
    close.get(10, TimeUnit.SECONDS);
    assertTrue(store.closed, scheme + ": closed once the read is over");
    assertFalse(store.closedDuringARead, scheme);

    StoreException e = assertThrows(StoreException.class, () -> client.get(KvClient.utf8("k")), scheme);
    assertTrue(e.getMessage().endsWith(" is closed"), e.getMessage());
    assertThrows(StoreException.class, () -> client.put(KvClient.utf8("k"), KvClient.utf8("w")), scheme);
    assertThrows(StoreException.class, () -> client.update(KvClient.utf8("k"), v -> v), scheme);
    assertThrows(StoreException.class, () -> client.delete(KvClient.utf8("k")), scheme);
    client.close(); // idempotent
  }

  @Test
  void closingWhileAReadIsInTheStore_waitsForIt_thenRefusesLaterCalls() throws Exception {
    MasterKey key = MasterKey.generate(new SecureRandom());
    closeWhileAReadRuns("encrypted", s -> EncryptedClient.builder().store(s).masterKey(key).build());
    closeWhileAReadRuns("insecure", s -> InsecureClient.builder().store(s).build());
  }

  @Test
  void closeFromInsideAMerge_isRefused_insteadOfWaitingForItself() {
    try (InsecureClient client = InsecureClient.builder().store(new MemoryStore()).build()) {
      client.put(KvClient.utf8("k"), KvClient.utf8("v"));
      assertThrows(IllegalStateException.class, () -> client.update(KvClient.utf8("k"), v -> {
        client.close();
        return v;
      }));
      assertArrayEquals(KvClient.utf8("v"), client.get(KvClient.utf8("k")).orElseThrow(), "still open");
    }
  }
}
