package io.pancakej.crypto;

import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.random.RandomGenerator;

import javax.crypto.Cipher;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;

import io.pancakej.PancakeException;

/**
 * A fast cryptographically secure generator for one thread: the AES-256-CTR keystream under a key
 * drawn from {@link SecureRandom}, produced 4 KiB at a time, and re-keyed from {@link SecureRandom}
 * every 16 MiB (the construction of NIST SP 800-90A CTR_DRBG without derivation function,
 * simplified). PANCAKE draws several coins and samples per batch and a nonce per encryption; the
 * JDK's {@code DRBG} costs about a microsecond a draw, this a few nanoseconds.
 *
 * <p>Not thread-safe: keep one per thread.
 */
public final class CtrDrbg implements RandomGenerator {
  private static final int BUFFER = 4096;
  private static final long REKEY_BYTES = 16L << 20;
  private final SecureRandom seeder;
  private final byte[] zeros = new byte[BUFFER];
  private final byte[] buffer = new byte[BUFFER];
  private Cipher cipher;
  private int position = BUFFER;
  private long produced;

  public CtrDrbg(SecureRandom seeder) {
    this.seeder = seeder;
    rekey();
  }

  public CtrDrbg() {
    this(new SecureRandom());
  }

  private void rekey() {
    byte[] key = new byte[32];
    byte[] iv = new byte[16];
    seeder.nextBytes(key);
    seeder.nextBytes(iv);
    try {
      Cipher c = Cipher.getInstance("AES/CTR/NoPadding");
      c.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, "AES"), new IvParameterSpec(iv));
      cipher = c;
    } catch (GeneralSecurityException e) {
      throw new PancakeException("AES/CTR is not available in this JVM", e);
    }
    produced = 0;
  }

  private void refill() {
    if (produced >= REKEY_BYTES) {
      rekey();
    }
    try {
      cipher.update(zeros, 0, BUFFER, buffer, 0);
    } catch (GeneralSecurityException e) {
      throw new PancakeException("AES/CTR keystream failed", e);
    }
    produced += BUFFER;
    position = 0;
  }

  @Override
  public long nextLong() {
    if (position + 8 > BUFFER) {
      refill();
    }
    long v = 0;
    for (int i = 0; i < 8; i++) {
      v = (v << 8) | (buffer[position++] & 0xffL);
    }
    return v;
  }

  @Override
  public void nextBytes(byte[] out) {
    int done = 0;
    while (done < out.length) {
      if (position == BUFFER) {
        refill();
      }
      int n = Math.min(out.length - done, BUFFER - position);
      System.arraycopy(buffer, position, out, done, n);
      position += n;
      done += n;
    }
  }
}
