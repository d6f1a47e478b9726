package io.pancakej.crypto;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.ByteBuffer;
import java.security.SecureRandom;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;

import javax.crypto.Cipher;
import javax.crypto.spec.SecretKeySpec;

import org.junit.jupiter.api.Test;

class CtrDrbgTest {
  private static final HexFormat HEX = HexFormat.of();

  /** A seeder that hands out the given entropy inputs in order, counting the calls. */
  private static final class FixedSeeder extends SecureRandom {
    private static final long serialVersionUID = 1L;
    final Deque<byte[]> inputs = new ArrayDeque<>();
    int calls;

    FixedSeeder(String... hex) {
      for (String h : hex) {
        inputs.add(HEX.parseHex(h));
      }
    }

    @Override
    public void nextBytes(byte[] out) {
      calls++;
      byte[] next = inputs.isEmpty() ? new byte[out.length] : inputs.poll();
      assertEquals(out.length, next.length, "entropy input length");
      System.arraycopy(next, 0, out, 0, out.length);
    }
  }

  /**
   * NIST CAVP drbgvectors_no_reseed/CTR_DRBG.rsp, [AES-256 no df], [PredictionResistance = False],
   * EntropyInputLen 384, no nonce, personalization or additional input, ReturnedBitsLen 512,
   * COUNT = 0: instantiate, generate 512 bits (discarded), generate 512 bits.
   */
  @Test
  void generate_matchesTheNistKnownAnswer_aes256NoDf() {
    CtrDrbg drbg = new CtrDrbg(new FixedSeeder(
        "df5d73faa468649edda33b5cca79b0b05600419ccb7a879ddfec9db32ee494e5531b51de16a30f769262474c73bec010"));
    byte[] out = new byte[64];
    drbg.generate(out, 0, 64);
    drbg.generate(out, 0, 64);
    assertEquals("d1c07cd95af8a7f11012c84ce48bb8cb87189e99d40fccb1771c619bdf82ab22"
        + "80b1dc2f2581f39164f7ac0c510494b3a43c41b7db17514c87b107ae793e01c5", HEX.formatHex(out));
  }

  /** The same standard's test with a reseed between instantiation and the two requests. */
  @Test
  void reseed_thenGenerate_matchesTheNistKnownAnswer_aes256NoDf() {
    CtrDrbg drbg = new CtrDrbg(new FixedSeeder(
        "e4bc23c5089a19d86f4119cb3fa08c0a4991e0a1def17e101e4c14d9c323460a7c2fb58e0b086c6c57b55f56cae25bad",
        "fd85a836bba85019881e8c6bad23c9061adc75477659acaea8e4a01dfe07a1832dad1c136f59d70f8653a5dc118663d6"));
    drbg.reseed();
    byte[] out = new byte[64];
    drbg.generate(out, 0, 64);
    drbg.generate(out, 0, 64);
    assertEquals("b2cb8905c05e5950ca31895096be29ea3d5a3b82b269495554eb80fe07de43e1"
        + "93b9e7c3ece73b80e062b1c1f68202fbb1c52a040ea2478864295282234aaada", HEX.formatHex(out));
  }

  @Test
  void afterEachDraw_theStateNoLongerHoldsOrRegeneratesEarlierOutputs() throws Exception {
    CtrDrbg drbg = new CtrDrbg();
    List<byte[]> earlier = new java.util.ArrayList<>();
    byte[] nonce = new byte[12];
    // a refill (4 KiB Generate request) happens inside this loop several times
    for (int i = 0; i < 2000; i++) {
      byte[][] before = state(drbg);
      long coin = drbg.nextLong();
      drbg.nextBytes(nonce);
      earlier.add(ByteBuffer.allocate(8).putLong(coin).array());
      earlier.add(nonce.clone());
      byte[][] after = state(drbg);
      // the buffered bytes shrank by the 20 handed out, or a new request replaced Key and V
      assertFalse(Arrays.equals(before[2], after[2]) && Arrays.equals(before[0], after[0]));
      byte[] kept = after[2];
      for (byte[] out : earlier.subList(Math.max(0, earlier.size() - 2), earlier.size())) {
        assertFalse(contains(kept, out), "a handed-out value is still in the buffer");
      }
    }
    // running the current Key backwards or forwards around V gives none of the earlier outputs
    byte[][] state = state(drbg);
    Cipher aes = Cipher.getInstance("AES/ECB/NoPadding");
    aes.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(state[0], "AES"));
    byte[] counters = new byte[16 * 4096];
    java.math.BigInteger v = new java.math.BigInteger(1, state[1]);
    for (int j = 0; j < 4096; j++) {
      byte[] c = v.add(java.math.BigInteger.valueOf(j - 2048)).toByteArray();
      byte[] block = new byte[16];
      int n = Math.min(16, c.length);
      System.arraycopy(c, c.length - n, block, 16 - n, n);
      System.arraycopy(block, 0, counters, 16 * j, 16);
    }
    byte[] stream = aes.doFinal(counters);
    Set<String> words = new HashSet<>();
    for (int at = 0; at + 8 <= stream.length; at++) {
      words.add(HEX.formatHex(stream, at, at + 8));
    }
    for (byte[] out : earlier) {
      assertFalse(words.contains(HEX.formatHex(out, 0, 8)), "an earlier output is recomputable from the state");
    }
  }

  @Test
  void eachGenerateRequest_replacesKeyAndV() {
    CtrDrbg drbg = new CtrDrbg();
    byte[][] s0 = state(drbg);
    drbg.generate(new byte[12], 0, 12);
    byte[][] s1 = state(drbg);
    assertNotEquals(HEX.formatHex(s0[0]), HEX.formatHex(s1[0]));
    assertNotEquals(HEX.formatHex(s0[1]), HEX.formatHex(s1[1]));
  }

  @Test
  void reseedsFromTheSeederAfterTheReseedInterval() {
    FixedSeeder seeder = new FixedSeeder();
    CtrDrbg drbg = new CtrDrbg(seeder);
    assertEquals(1, seeder.calls);
    byte[] out = new byte[16];
    for (int i = 0; i < CtrDrbg.RESEED_INTERVAL; i++) {
      drbg.generate(out, 0, 16);
    }
    assertEquals(1, seeder.calls);
    drbg.generate(out, 0, 16);
    assertEquals(2, seeder.calls);
  }

  @Test
  void generate_refusesRequestsAboveTheStandardsLimit() {
    CtrDrbg drbg = new CtrDrbg();
    assertThrows(IllegalArgumentException.class,
        () -> drbg.generate(new byte[CtrDrbg.MAX_REQUEST_BYTES + 1], 0, CtrDrbg.MAX_REQUEST_BYTES + 1));
  }

  @Test
  void draws_areTheGenerateRequestsBytesInOrder() {
    String entropy = "df5d73faa468649edda33b5cca79b0b05600419ccb7a879ddfec9db32ee494e5531b51de16a30f769262474c73bec010";
    CtrDrbg reference = new CtrDrbg(new FixedSeeder(entropy));
    byte[] expected = new byte[3 * 4096];
    for (int at = 0; at < expected.length; at += 4096) {
      reference.generate(expected, at, 4096);
    }
    CtrDrbg drbg = new CtrDrbg(new FixedSeeder(entropy));
    ByteBuffer got = ByteBuffer.allocate(expected.length);
    byte[] nonce = new byte[12];
    while (got.remaining() >= 20) {
      got.putLong(drbg.nextLong());
      drbg.nextBytes(nonce);
      got.put(nonce);
    }
    // 204 rounds of 20 bytes, then a coin and a nonce that spans into the second request
    assertArrayEquals(Arrays.copyOf(expected, 4096 + 4), Arrays.copyOf(got.array(), 4096 + 4));
  }

  private static boolean contains(byte[] haystack, byte[] needle) {
    outer:
    for (int i = 0; i + needle.length <= haystack.length; i++) {
      for (int j = 0; j < needle.length; j++) {
        if (haystack[i + j] != needle[j]) {
          continue outer;
        }
      }
      return true;
    }
    return false;
  }

  /** Copies of Key, V and the buffered bytes not handed out yet: the whole secret state a draw leaves. */
  private static byte[][] state(CtrDrbg drbg) {
    return new byte[][] {drbg.key.clone(), drbg.v.clone(), Arrays.copyOfRange(drbg.buffer, drbg.position, CtrDrbg.BUFFER)};
  }
}
