package io.pancakej.crypto;

import java.security.GeneralSecurityException;
import java.util.Arrays;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import io.pancakej.PancakeException;

/**
 * HMAC-SHA256 used as a pseudorandom function with a fixed output length (16 to 32 bytes).
 *
 * <p>Security guarantees: without the key, outputs on distinct inputs are indistinguishable from
 * independent random strings. Callers must encode inputs unambiguously (fixed-width fields or
 * length prefixes), because the PRF only separates distinct byte strings. One {@link Mac} is
 * cached per thread.
 */
public final class Prf {
  public static final int MIN_OUTPUT = 16;
  public static final int MAX_OUTPUT = 32;

  private final SecretKeySpec key;
  private final int outputLength;
  private final ThreadLocal<Mac> mac;

  public Prf(byte[] key, int outputLength) {
    if (outputLength < MIN_OUTPUT || outputLength > MAX_OUTPUT) {
      throw new IllegalArgumentException("PRF output must be " + MIN_OUTPUT + ".." + MAX_OUTPUT + " bytes");
    }
    this.key = new SecretKeySpec(key.clone(), "HmacSHA256");
    this.outputLength = outputLength;
    this.mac = ThreadLocal.withInitial(this::newMac);
  }

  private Mac newMac() {
    try {
      Mac m = Mac.getInstance("HmacSHA256");
      m.init(key);
      return m;
    } catch (GeneralSecurityException e) {
      throw new PancakeException("HmacSHA256 is not available in this JVM", e);
    }
  }

  /** The PRF output on {@code input}. */
  public byte[] compute(byte[] input) {
    byte[] full = mac.get().doFinal(input);
    return outputLength == full.length ? full : Arrays.copyOf(full, outputLength);
  }

  /** Output length in bytes. */
  public int outputLength() {
    return outputLength;
  }

  @Override
  public String toString() {
    return "Prf[HmacSHA256, " + outputLength + " bytes]";
  }
}
