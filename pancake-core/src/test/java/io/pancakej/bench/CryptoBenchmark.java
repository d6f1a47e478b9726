package io.pancakej.bench;

import java.nio.ByteBuffer;
import java.security.SecureRandom;
import java.util.concurrent.TimeUnit;

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

import io.pancakej.crypto.Aead;
import io.pancakej.crypto.CtrDrbg;
import io.pancakej.crypto.MasterKey;
import io.pancakej.crypto.Prf;

/**
 * The crypto a PANCAKE access costs: one label (HMAC-SHA256), one open (AES-GCM decrypt) and one
 * seal (AES-GCM encrypt with a fresh nonce) of a replica plaintext (header + 128-byte key slot +
 * value). A B = 3 request pays each three times. Run with {@code bin/bench-proxy}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class CryptoBenchmark {
  @Param({"1024"})
  int valueSize;

  private Prf prf;
  private Aead aead;
  private byte[] plaintext;
  private byte[] label;
  private byte[] sealed;
  private final CtrDrbg drbg = new CtrDrbg();
  private long slot;

  @Setup
  public void setup() {
    MasterKey key = MasterKey.generate(new SecureRandom());
    prf = new Prf(key.derive("label"), 16);
    aead = new Aead(key.derive("aead"));
    plaintext = new byte[16 + 128 + 4 + valueSize];
    label = prf.compute(new byte[9]);
    sealed = aead.encrypt(plaintext, label);
  }

  @Benchmark
  public byte[] label() {
    return prf.compute(ByteBuffer.allocate(9).put((byte) 1).putLong(slot++).array());
  }

  @Benchmark
  public byte[] seal() {
    return aead.encrypt(plaintext, label);
  }

  @Benchmark
  public byte[] open() {
    return aead.decrypt(sealed, label);
  }

  @Benchmark
  public long coin() {
    return drbg.nextLong();
  }
}
