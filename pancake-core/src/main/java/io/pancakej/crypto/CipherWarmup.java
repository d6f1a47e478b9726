package io.pancakej.crypto;

import java.util.concurrent.atomic.AtomicBoolean;

import io.pancakej.PancakeException;

/**
 * Brings the JVM's AES-GCM to its compiled speed once per JVM, before a scheme serves. Until the
 * JIT compiles the provider's GCM loops with their AES and GHASH intrinsics, a 1 KB seal and open
 * cost about 16 us instead of 1.5 us (measured on this project's 2-core machine, Java 17); that
 * takes some 60 000 of them, which a tick-clocked proxy reaches only after 10-20 s of traffic --
 * a third of a benchmark run at a tenth of the speed. Running them here, on throwaway data under a
 * throwaway key, costs about a second at the first open and nothing the store can see.
 *
 * <p>Internal: public only for the other modules of this project.
 */
public final class CipherWarmup {
  /** Seal-and-open pairs run: enough for the JIT's last tier on Java 17 (measured: 20 000 are not). */
  static final int PAIRS = 64_000;
  /** Plaintext bytes per pair, at most: the compiled loops are the same for any length. */
  static final int MAX_BYTES = 2048;

  private static final AtomicBoolean DONE = new AtomicBoolean();
  private static final System.Logger LOG = System.getLogger("io.pancakej");

  private CipherWarmup() {}

  /**
   * Runs the warm-up if no earlier call in this JVM did; later calls return at once. Returns the
   * pairs this call ran (0 if it was done already).
   *
   * @param valueBytes the plaintext length the caller seals (a hint; capped)
   */
  public static int ensure(int valueBytes) {
    if (!DONE.compareAndSet(false, true)) {
      return 0;
    }
    long start = System.nanoTime();
    int ran = run(PAIRS, Math.max(16, Math.min(MAX_BYTES, valueBytes)));
    LOG.log(System.Logger.Level.DEBUG, () -> String.format("AES-GCM warm-up: %d seal-and-open pairs in %.0f ms", ran,
        (System.nanoTime() - start) / 1e6));
    return ran;
  }

  /**
   * Seals and opens {@code pairs} plaintexts of {@code bytes} bytes through the classes the schemes
   * use (a value cipher with epochs and a plain one, each under a throwaway key), checking each
   * round trip: the JIT compiles what it saw run, so the warm-up takes the same paths.
   */
  static int run(int pairs, int bytes) {
    EpochAead values = new EpochAead(epoch -> new byte[32], 0, 0, EpochAead.MAX_BUDGET, (epoch, limit) -> {});
    Aead plain = new Aead(new byte[32]);
    byte[] plaintext = new byte[bytes];
    byte[] label = new byte[32];
    for (int i = 0; i < pairs; i++) {
      label[0] = (byte) i;
      byte[] opened = (i & 7) == 7 ? plain.decrypt(plain.encrypt(plaintext, label), label)
          : values.decrypt(values.encrypt(plaintext, label), label);
      if (opened.length != bytes) {
        throw new PancakeException("AES-GCM warm-up: a round trip changed the length");
      }
    }
    return pairs;
  }
}
