package io.pancakej.crypto;

import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.random.RandomGenerator;

import javax.crypto.Cipher;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;

import io.pancakej.PancakeException;

/**
 * A fast cryptographically secure generator for one thread: NIST SP 800-90A CTR_DRBG with AES-256
 * and no derivation function, instantiated and reseeded with 48 bytes from {@link SecureRandom}
 * (no personalization string, no additional input), reseeded every 4096 requests (16 MiB).
 *
 * <p>Draws are served from one 4 KiB Generate request at a time. Each request ends with the
 * standard's Update step (new Key and V from 3 more AES blocks), and every byte handed out is
 * zeroed in the buffer at once, so the state held after any draw -- Key, V and the bytes not yet
 * handed out -- does not reveal earlier outputs (backtracking resistance per draw). There is no
 * prediction resistance: whoever reads the state sees the bytes still buffered and, until the next
 * reseed, the output to come, as with any DRBG without it. Old keys are overwritten in this object;
 * copies the JCE cipher or the garbage collector left behind are not under its control.
 *
 * <p>PANCAKE draws several coins and samples per batch and a 12-byte nonce per encryption; the
 * JDK's {@code DRBG} costs about a microsecond a draw, this a few nanoseconds (figures:
 * docs/results/drbg.md).
 *
 * <p>Not thread-safe: keep one per thread.
 */
public final class CtrDrbg implements RandomGenerator {
  /** seedlen of AES-256 CTR_DRBG: key (32 bytes) and V (16 bytes). */
  static final int SEED_BYTES = 48;
  private static final int KEY_BYTES = 32;
  private static final int BLOCK = 16;
  /** The standard's max_number_of_bits_per_request for AES: 2^19 bits. */
  static final int MAX_REQUEST_BYTES = 1 << 16;
  /** Generate requests between reseeds (the standard allows up to 2^48). */
  static final int RESEED_INTERVAL = 4096;
  static final int BUFFER = 4096;

  private final SecureRandom seeder;
  private final Cipher aes;
  // package-private for the backtracking test (CtrDrbgTest reads the state a draw leaves)
  final byte[] key = new byte[KEY_BYTES];
  final byte[] v = new byte[BLOCK];
  final byte[] buffer = new byte[BUFFER];
  private byte[] zeros = new byte[BUFFER + SEED_BYTES];
  private byte[] stream = new byte[BUFFER + SEED_BYTES];
  int position = BUFFER;
  private long reseedCounter;

  public CtrDrbg(SecureRandom seeder) {
    this.seeder = seeder;
    try {
      aes = Cipher.getInstance("AES/CTR/NoPadding");
    } catch (GeneralSecurityException e) {
      throw new PancakeException("AES/CTR is not available in this JVM", e);
    }
    byte[] seed = entropy(); // Key = 0^256 and V = 0^128, as the standard instantiates
    update(seed);
    Arrays.fill(seed, (byte) 0);
    reseedCounter = 1;
  }

  public CtrDrbg() {
    this(new SecureRandom());
  }

  private byte[] entropy() {
    byte[] seed = new byte[SEED_BYTES];
    seeder.nextBytes(seed);
    return seed;
  }

  /** CTR_DRBG_Reseed without additional input: fresh entropy from the seeder mixed into Key and V. */
  void reseed() {
    byte[] seed = entropy();
    update(seed);
    Arrays.fill(seed, (byte) 0);
    reseedCounter = 1;
  }

  /**
   * One CTR_DRBG_Generate request of {@code len} bytes into {@code out} (no additional input),
   * ending with the Update step; unbuffered, so the state afterwards does not reveal this output.
   */
  void generate(byte[] out, int off, int len) {
    if (len > MAX_REQUEST_BYTES) {
      throw new IllegalArgumentException("a CTR_DRBG request is at most " + MAX_REQUEST_BYTES + " bytes, got " + len);
    }
    if (reseedCounter > RESEED_INTERVAL) {
      reseed();
    }
    int outBlocks = (len + BLOCK - 1) / BLOCK * BLOCK;
    int total = outBlocks + SEED_BYTES;
    if (stream.length < total) {
      zeros = new byte[total];
      stream = new byte[total];
    }
    keystream(total); // the output blocks, then Update's 3 blocks under the same Key
    System.arraycopy(stream, 0, out, off, len);
    System.arraycopy(stream, outBlocks, key, 0, KEY_BYTES);
    System.arraycopy(stream, outBlocks + KEY_BYTES, v, 0, BLOCK);
    Arrays.fill(stream, 0, total, (byte) 0);
    reseedCounter++;
  }

  /** CTR_DRBG_Update: Key || V = (next 3 AES blocks) XOR provided. */
  private void update(byte[] provided) {
    keystream(SEED_BYTES);
    for (int i = 0; i < SEED_BYTES; i++) {
      stream[i] ^= provided[i];
    }
    System.arraycopy(stream, 0, key, 0, KEY_BYTES);
    System.arraycopy(stream, KEY_BYTES, v, 0, BLOCK);
    Arrays.fill(stream, 0, SEED_BYTES, (byte) 0);
  }

  /**
   * stream[0, len) = AES(Key, V+1) || AES(Key, V+2) || ..., advancing V by the blocks used (mod
   * 2^128). The JDK's AES/CTR increments the whole 128-bit block, as the standard does (ctr_len =
   * blocklen), and runs as one intrinsic instead of a block at a time.
   */
  private void keystream(int len) {
    byte[] first = v.clone();
    add(first, 1);
    try {
      aes.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, "AES"), new IvParameterSpec(first));
      aes.doFinal(zeros, 0, len, stream, 0);
    } catch (GeneralSecurityException e) {
      throw new PancakeException("AES-256/CTR failed", e);
    }
    add(v, len / BLOCK);
  }

  /** counter += n (mod 2^128), big-endian. */
  private static void add(byte[] counter, int n) {
    int carry = n;
    for (int i = counter.length - 1; i >= 0 && carry != 0; i--) {
      int sum = (counter[i] & 0xff) + (carry & 0xff);
      counter[i] = (byte) sum;
      carry = (carry >>> 8) + (sum >>> 8);
    }
  }

  private void refill() {
    generate(buffer, 0, BUFFER);
    position = 0;
  }

  @Override
  public long nextLong() {
    if (position + 8 > BUFFER) {
      refill();
    }
    long r = 0;
    for (int i = 0; i < 8; i++) {
      r = (r << 8) | (buffer[position] & 0xffL);
      buffer[position++] = 0; // handed out: not kept in the state
    }
    return r;
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
      Arrays.fill(buffer, position, position + n, (byte) 0);
      position += n;
      done += n;
    }
  }
}
