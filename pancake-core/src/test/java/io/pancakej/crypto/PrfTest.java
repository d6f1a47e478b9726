package io.pancakej.crypto;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
import java.util.HexFormat;

import org.junit.jupiter.api.Test;

/** Known answers from RFC 4231 (HMAC-SHA-256 test cases 1 to 7). */
class PrfTest {
  private static final HexFormat HEX = HexFormat.of();

  private static byte[] repeat(int b, int n) {
    byte[] out = new byte[n];
    Arrays.fill(out, (byte) b);
    return out;
  }

  private static void assertHmac(byte[] key, byte[] data, String expectedHex) {
    assertEquals(expectedHex, HEX.formatHex(new Prf(key, 32).compute(data)));
  }

  @Test
  void rfc4231_case1_shortKey() {
    assertHmac(repeat(0x0b, 20), "Hi There".getBytes(US_ASCII),
        "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7");
  }

  @Test
  void rfc4231_case2_keyShorterThanOutput() {
    assertHmac("Jefe".getBytes(US_ASCII), "what do ya want for nothing?".getBytes(US_ASCII),
        "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
  }

  @Test
  void rfc4231_case3_combinedKeyAndDataLength() {
    assertHmac(repeat(0xaa, 20), repeat(0xdd, 50),
        "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe");
  }

  @Test
  void rfc4231_case4_combinedKeyAndDataLength() {
    byte[] key = new byte[25];
    for (int i = 0; i < key.length; i++) {
      key[i] = (byte) (i + 1);
    }
    assertHmac(key, repeat(0xcd, 50), "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b");
  }

  @Test
  void rfc4231_case5_truncatedTo128Bits_isThePrefixOfTheFullOutput() {
    byte[] key = repeat(0x0c, 20);
    byte[] data = "Test With Truncation".getBytes(US_ASCII);
    byte[] truncated = new Prf(key, 16).compute(data);
    assertEquals("a3b6167473100ee06e0c796c2955552b", HEX.formatHex(truncated));
    assertArrayEquals(Arrays.copyOf(new Prf(key, 32).compute(data), 16), truncated);
    assertEquals(16, new Prf(key, 16).outputLength());
  }

  @Test
  void rfc4231_case6_keyLargerThanBlock() {
    assertHmac(repeat(0xaa, 131), "Test Using Larger Than Block-Size Key - Hash Key First".getBytes(US_ASCII),
        "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54");
  }

  @Test
  void rfc4231_case7_keyAndDataLargerThanBlock() {
    assertHmac(repeat(0xaa, 131), ("This is a test using a larger than block-size key and a larger than block-size data."
        + " The key needs to be hashed before being used by the HMAC algorithm.").getBytes(US_ASCII),
        "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2");
  }

  @Test
  void compute_isRepeatable_andTheKeyArrayIsCopied() {
    byte[] key = repeat(1, 32);
    Prf prf = new Prf(key, 20);
    byte[] first = prf.compute(new byte[] {1, 2, 3});
    key[0] = 9;
    assertArrayEquals(first, prf.compute(new byte[] {1, 2, 3}));
    assertEquals(20, first.length);
  }

  @Test
  void outputLength_outside16To32_isRejected() {
    assertThrows(IllegalArgumentException.class, () -> new Prf(new byte[32], 15));
    assertThrows(IllegalArgumentException.class, () -> new Prf(new byte[32], 33));
  }

  @Test
  void toString_doesNotShowTheKey() {
    byte[] key = repeat(0x5a, 32);
    assertFalse(new Prf(key, 16).toString().contains("5a5a"));
  }
}
