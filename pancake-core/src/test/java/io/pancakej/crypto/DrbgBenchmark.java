package io.pancakej.crypto;

import java.security.DrbgParameters;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.security.Security;
import java.util.concurrent.TimeUnit;
import java.util.random.RandomGenerator;

import javax.crypto.Cipher;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;

import org.bouncycastle.crypto.engines.AESEngine;
import org.bouncycastle.crypto.prng.SP800SecureRandomBuilder;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What one draw costs at the sizes PANCAKE draws (a 12-byte AES-GCM nonce, a {@code nextDouble}
 * coin, a bounded {@code nextInt} sample), per generator: {@code legacy} the AES-CTR keystream
 * CtrDrbg was before it gained backtracking resistance; {@code buffered} CtrDrbg (SP 800-90A
 * CTR_DRBG, 4 KiB requests, handed-out bytes erased); {@code perCall} one SP 800-90A Generate
 * request (with its Update) per draw; the JDK's {@code DRBG} as Hash_DRBG and CTR_DRBG; Bouncy
 * Castle's CTR DRBG. Run with {@code bin/bench-proxy DrbgBenchmark -f 1 -wi 3 -i 5}; figures in
 * docs/results/drbg.md.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class DrbgBenchmark {
  @Param({"legacy", "buffered", "perCall", "jdkHashSha256", "jdkCtrAes256Df", "jdkCtrAes256NoDf", "bcCtrAes256"})
  String generator;

  private RandomGenerator random;
  private final byte[] nonce = new byte[12];

  @Setup
  public void setup() throws GeneralSecurityException {
    random = switch (generator) {
      case "legacy" -> new Legacy(new SecureRandom());
      case "buffered" -> new CtrDrbg();
      case "perCall" -> new PerCall(new CtrDrbg());
      case "jdkHashSha256" -> jdk("Hash_DRBG,SHA-256");
      case "jdkCtrAes256Df" -> jdk("CTR_DRBG,AES-256,use_df");
      case "jdkCtrAes256NoDf" -> jdk("CTR_DRBG,AES-256,no_df");
      case "bcCtrAes256" -> new SP800SecureRandomBuilder(new SecureRandom(), false)
          .buildCTR(AESEngine.newInstance(), 256, SecureRandom.getSeed(16), false);
      default -> throw new IllegalArgumentException(generator);
    };
  }

  /** The JDK reads {@code securerandom.drbg.config} when a DRBG is instantiated. */
  private static SecureRandom jdk(String config) throws GeneralSecurityException {
    String old = Security.getProperty("securerandom.drbg.config");
    Security.setProperty("securerandom.drbg.config", config);
    try {
      return SecureRandom.getInstance("DRBG",
          DrbgParameters.instantiation(256, DrbgParameters.Capability.NONE, null));
    } finally {
      Security.setProperty("securerandom.drbg.config", old == null ? "" : old);
    }
  }

  @Benchmark
  public byte[] nonce12() {
    random.nextBytes(nonce);
    return nonce;
  }

  @Benchmark
  public double coinNextDouble() {
    return random.nextDouble();
  }

  @Benchmark
  public int sampleNextInt() {
    return random.nextInt(1000);
  }

  /** One SP 800-90A Generate request, with its Update, per draw. */
  static final class PerCall implements RandomGenerator {
    private final CtrDrbg drbg;
    private final byte[] eight = new byte[8];

    PerCall(CtrDrbg drbg) {
      this.drbg = drbg;
    }

    @Override
    public long nextLong() {
      drbg.generate(eight, 0, 8);
      long r = 0;
      for (byte b : eight) {
        r = (r << 8) | (b & 0xffL);
      }
      return r;
    }

    @Override
    public void nextBytes(byte[] out) {
      drbg.generate(out, 0, out.length);
    }
  }

  /** CtrDrbg before #15: one AES-256-CTR keystream, 4 KiB at a time, re-keyed every 16 MiB. */
  static final class Legacy implements RandomGenerator {
    private static final int BUFFER = 4096;
    private final SecureRandom seeder;
    private final byte[] zeros = new byte[BUFFER];
    private final byte[] buffer = new byte[BUFFER];
    private Cipher cipher;
    private int position = BUFFER;
    private long produced;

    Legacy(SecureRandom seeder) throws GeneralSecurityException {
      this.seeder = seeder;
      rekey();
    }

    private void rekey() throws GeneralSecurityException {
      byte[] key = new byte[32];
      byte[] iv = new byte[16];
      seeder.nextBytes(key);
      seeder.nextBytes(iv);
      cipher = Cipher.getInstance("AES/CTR/NoPadding");
      cipher.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, "AES"), new IvParameterSpec(iv));
      produced = 0;
    }

    private void refill() {
      try {
        if (produced >= 16L << 20) {
          rekey();
        }
        cipher.update(zeros, 0, BUFFER, buffer, 0);
      } catch (GeneralSecurityException e) {
        throw new IllegalStateException(e);
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
}
