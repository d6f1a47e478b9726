package io.pancakej;

import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * A PANCAKE proxy in this JVM: thread-safe, every request becomes exactly one batch of B reads
 * and B re-encrypted writes on the store, so that every label is accessed with the same
 * probability. Open with {@link #open(PancakeConfig)}; close to persist the proxy state.
 */
public final class PancakeClient implements KvClient {

  private PancakeClient() {}

  /** Opens (or creates) the proxy state in the configured directory and connects to the store. */
  public static PancakeClient open(PancakeConfig config) {
    throw new UnsupportedOperationException("engine not wired yet");
  }

  @Override
  public Optional<byte[]> get(byte[] key) {
    throw new UnsupportedOperationException();
  }

  @Override
  public void put(byte[] key, byte[] value) {
    throw new UnsupportedOperationException();
  }

  @Override
  public boolean update(byte[] key, UnaryOperator<byte[]> merge) {
    throw new UnsupportedOperationException();
  }

  @Override
  public boolean delete(byte[] key) {
    throw new UnsupportedOperationException();
  }

  @Override
  public void close() {}
}
