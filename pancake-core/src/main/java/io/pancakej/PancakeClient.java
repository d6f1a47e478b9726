package io.pancakej;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;

import io.pancakej.crypto.MasterKey;
import io.pancakej.smoothing.Engine;

/**
 * A PANCAKE proxy in this JVM (USENIX Security 2020, sections 3-4). Thread-safe: share one
 * instance. Every request -- get, put, update, delete, for a present or an absent key -- becomes
 * exactly one batch of B label reads followed by B writes of freshly encrypted values, so the
 * store sees every label accessed with the same probability whatever keys the application uses.
 *
 * <pre>{@code
 * PancakeConfig config = PancakeConfig.builder()
 *     .stateDir(Path.of("data/state")).capacity(100_000)
 *     .storeProperties(props)          // pancake.store=rocksdb|redis|redis-cluster|memory
 *     .build();
 * try (PancakeClient client = PancakeClient.open(config)) {
 *   client.put(KvClient.utf8("user1"), value);
 *   client.update(KvClient.utf8("user1"), old -> merge(old));
 * }
 * }</pre>
 *
 * <p>Open creates the state directory (key file, replica plan, key table) and initializes the
 * store with 2n sealed replicas on first use; later opens continue from the saved state. Close
 * persists the state, including updates not yet propagated to every replica.
 */
public final class PancakeClient implements KvClient {
  private final Engine proxy;

  private PancakeClient(Engine proxy) {
    this.proxy = proxy;
  }

  /** Opens (or creates) the proxy state in the configured directory and connects to the store. */
  public static PancakeClient open(PancakeConfig config) {
    return new PancakeClient(Engine.open(config));
  }

  /**
   * Every replica label of a state ({@code labels}, in replica slot order) and the key that owns
   * each ({@code keys}, same order; null for dummy replicas and unbound key slots): what an
   * experimenter needs to score a frequency-analysis attack on the store's trace, and what the
   * store must never learn. For audits and tests, not for serving.
   */
  public record LabelOwners(List<byte[]> labels, List<byte[]> keys) {}

  /**
   * The label owners of the state in {@code stateDir}, sealed under {@code masterKey}, as a reopen
   * would see it (the checkpoint and the write-ahead log after it). Read-only; takes the state
   * directory's lock, so no client may have the state open.
   *
   * @throws StateException if there is no state, it is damaged or in use
   * @throws IntegrityException if {@code masterKey} is not the state's
   */
  public static LabelOwners labelOwners(Path stateDir, MasterKey masterKey) {
    return Engine.labelOwners(stateDir, masterKey);
  }

  @Override
  public Optional<byte[]> get(byte[] key) {
    return proxy.get(key);
  }

  @Override
  public void put(byte[] key, byte[] value) {
    proxy.put(key, value);
  }

  @Override
  public boolean update(byte[] key, UnaryOperator<byte[]> merge) {
    return proxy.update(key, merge);
  }

  @Override
  public boolean delete(byte[] key) {
    return proxy.delete(key);
  }

  @Override
  public java.util.concurrent.CompletableFuture<Optional<byte[]>> getAsync(byte[] key) {
    return proxy.getAsync(key);
  }

  @Override
  public java.util.concurrent.CompletableFuture<Void> putAsync(byte[] key, byte[] value) {
    return proxy.putAsync(key, value);
  }

  @Override
  public java.util.concurrent.CompletableFuture<Boolean> updateAsync(byte[] key, UnaryOperator<byte[]> merge) {
    return proxy.updateAsync(key, merge);
  }

  @Override
  public java.util.concurrent.CompletableFuture<Boolean> deleteAsync(byte[] key) {
    return proxy.deleteAsync(key);
  }

  /** Engine counters: requests, batches, ticks, UpdateCache and queue, plan transitions and swaps. */
  public PancakeStats stats() {
    return proxy.stats();
  }

  /** Persists the proxy state now (it is also saved at close). */
  public void checkpoint() {
    proxy.checkpoint();
  }

  @Override
  public void close() {
    proxy.close();
  }
}
