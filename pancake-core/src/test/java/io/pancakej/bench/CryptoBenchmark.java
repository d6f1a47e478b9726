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

import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

import org.bouncycastle.crypto.engines.AESEngine;
import org.bouncycastle.crypto.modes.GCMSIVBlockCipher;
import org.bouncycastle.crypto.params.AEADParameters;
import org.bouncycastle.crypto.params.KeyParameter;

import io.pancakej.crypto.Aead;
import io.pancakej.crypto.EpochAead;
import io.pancakej.crypto.CtrDrbg;
import io.pancakej.crypto.MasterKey;
import io.pancakej.crypto.Prf;

/**
 * The crypto a PANCAKE access costs: one label (HMAC-SHA256), one open (AES-GCM decrypt) and one
 * seal (AES-GCM encrypt with a fresh nonce) of a replica plaintext (header + 128-byte key slot +
 * value). A B = 3 request pays each three times. Run with {@code bin/bench-proxy}.
 *
 * <p>Key-use bounds (issue #15): {@code seal}/{@code open} are plain {@link Aead} (one key for
 * ever); {@code epochSeal}/{@code epochOpen} are {@link EpochAead}, what the proxy uses (counted
 * key epochs, 4-byte header); {@code derivedKeySeal}/{@code derivedKeyOpen} an extended-nonce
 * alternative (XAES-256-GCM style: a per-message key AES_K(n1 || 1) || AES_K(n1 || 2) from a
 * 12-byte random n1, then AES-GCM under it); {@code gcmSivSeal} AES-256-GCM-SIV (RFC 8452, Bouncy
 * Castle; the JDK has none).
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
  private EpochAead epochAead;
  private byte[] epochSealed;
  private SecretKeySpec rootKey;
  private Cipher ecb;
  private Cipher gcm;
  private byte[] derivedSealed;
  private GCMSIVBlockCipher siv;
  private KeyParameter sivKey;

  @Setup
  public void setup() throws Exception {
    MasterKey key = MasterKey.generate(new SecureRandom());
    prf = new Prf(key.derive("label"), 16);
    aead = new Aead(key.derive("aead"));
    plaintext = new byte[16 + 128 + 4 + valueSize];
    label = prf.compute(new byte[9]);
    sealed = aead.encrypt(plaintext, label);
    // the proxy's construction: default budget; the ledger (a small fsync'ed file) is written once
    // per 2^24 encryptions, so it is left out here
    epochAead = new EpochAead(e -> key.derive("epoch " + e), 0, 0, EpochAead.DEFAULT_BUDGET, (e, limit) -> { });
    epochSealed = epochAead.encrypt(plaintext, label);
    rootKey = new SecretKeySpec(key.derive("xaes"), "AES");
    ecb = Cipher.getInstance("AES/ECB/NoPadding");
    ecb.init(Cipher.ENCRYPT_MODE, rootKey);
    gcm = Cipher.getInstance("AES/GCM/NoPadding");
    derivedSealed = derivedKeySeal();
    siv = new GCMSIVBlockCipher(new AESEngine());
    sivKey = new KeyParameter(key.derive("siv"));
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
  public byte[] epochSeal() {
    return epochAead.encrypt(plaintext, label);
  }

  @Benchmark
  public byte[] epochOpen() {
    return epochAead.decrypt(epochSealed, label);
  }

  /** n1 (12) || n2 (12) || ct || tag under key AES_K(n1 || 0 || 1) || AES_K(n1 || 0 || 2). */
  @Benchmark
  public byte[] derivedKeySeal() throws Exception {
    byte[] out = new byte[24 + plaintext.length + 16];
    byte[] nonces = new byte[24];
    drbg.nextBytes(nonces);
    System.arraycopy(nonces, 0, out, 0, 24);
    gcm.init(Cipher.ENCRYPT_MODE, messageKey(out), new GCMParameterSpec(128, out, 12, 12));
    gcm.updateAAD(label);
    gcm.doFinal(plaintext, 0, plaintext.length, out, 24);
    return out;
  }

  @Benchmark
  public byte[] derivedKeyOpen() throws Exception {
    gcm.init(Cipher.DECRYPT_MODE, messageKey(derivedSealed), new GCMParameterSpec(128, derivedSealed, 12, 12));
    gcm.updateAAD(label);
    return gcm.doFinal(derivedSealed, 24, derivedSealed.length - 24);
  }

  private SecretKeySpec messageKey(byte[] header) throws Exception {
    byte[] blocks = new byte[32];
    System.arraycopy(header, 0, blocks, 0, 12);
    blocks[15] = 1;
    System.arraycopy(header, 0, blocks, 16, 12);
    blocks[31] = 2;
    return new SecretKeySpec(ecb.doFinal(blocks), "AES");
  }

  @Benchmark
  public byte[] gcmSivSeal() throws Exception {
    byte[] nonce = new byte[12];
    drbg.nextBytes(nonce);
    siv.init(true, new AEADParameters(sivKey, 128, nonce, label));
    byte[] out = new byte[siv.getOutputSize(plaintext.length)];
    int n = siv.processBytes(plaintext, 0, plaintext.length, out, 0);
    siv.doFinal(out, n);
    return out;
  }

  @Benchmark
  public long coin() {
    return drbg.nextLong();
  }
}
