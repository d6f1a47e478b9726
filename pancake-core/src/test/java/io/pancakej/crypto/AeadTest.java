package io.pancakej.crypto;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
import java.util.Random;

import org.junit.jupiter.api.Test;

import io.pancakej.IntegrityException;

class AeadTest {
  private final Random random = new Random(42);
  private final byte[] key = randomBytes(32);
  private final Aead aead = new Aead(key);

  private byte[] randomBytes(int n) {
    byte[] b = new byte[n];
    random.nextBytes(b);
    return b;
  }

  @Test
  void decrypt_returnsThePlaintext_withAndWithoutAssociatedData() {
    byte[] plaintext = "the value".getBytes(UTF_8);
    byte[] ad = randomBytes(16);
    byte[] ct = aead.encrypt(plaintext, ad);
    assertEquals(plaintext.length + Aead.OVERHEAD, ct.length);
    assertArrayEquals(plaintext, aead.decrypt(ct, ad));
    assertArrayEquals(plaintext, aead.decrypt(aead.encrypt(plaintext, null), null));
  }

  @Test
  void decrypt_roundTripsEmptyAndLargePlaintexts() {
    for (int n : new int[] {0, 1, 1024, 64 * 1024}) {
      byte[] plaintext = randomBytes(n);
      assertArrayEquals(plaintext, aead.decrypt(aead.encrypt(plaintext, new byte[] {1}), new byte[] {1}));
    }
  }

  @Test
  void encrypt_ofAPrefix_sealsOnlyThatPrefix() {
    byte[] buffer = randomBytes(100);
    byte[] ct = aead.encrypt(buffer, 40, null);
    assertArrayEquals(Arrays.copyOf(buffer, 40), aead.decrypt(ct, null));
  }

  @Test
  void encrypt_twiceOfTheSamePlaintext_givesDifferentCiphertexts() {
    byte[] plaintext = randomBytes(64);
    byte[] first = aead.encrypt(plaintext, null);
    byte[] second = aead.encrypt(plaintext, null);
    assertFalse(Arrays.equals(first, second));
    assertFalse(Arrays.equals(Arrays.copyOf(first, Aead.NONCE_BYTES), Arrays.copyOf(second, Aead.NONCE_BYTES)),
        "fresh nonce per encryption");
  }

  @Test
  void decrypt_afterFlippingAnyCiphertextByte_throwsIntegrityException() {
    byte[] ad = randomBytes(16);
    byte[] ct = aead.encrypt(randomBytes(32), ad);
    for (int i = 0; i < ct.length; i++) {
      for (int bit : new int[] {0x01, 0x80}) {
        byte[] tampered = ct.clone();
        tampered[i] ^= (byte) bit;
        assertThrows(IntegrityException.class, () -> aead.decrypt(tampered, ad), "byte " + i + " bit " + bit);
      }
    }
  }

  @Test
  void decrypt_afterFlippingAnyAssociatedDataByte_throwsIntegrityException() {
    byte[] ad = randomBytes(16);
    byte[] ct = aead.encrypt(randomBytes(32), ad);
    for (int i = 0; i < ad.length; i++) {
      byte[] tampered = ad.clone();
      tampered[i] ^= 1;
      assertThrows(IntegrityException.class, () -> aead.decrypt(ct, tampered), "byte " + i);
    }
    assertThrows(IntegrityException.class, () -> aead.decrypt(ct, Arrays.copyOf(ad, 15)), "shortened");
    assertThrows(IntegrityException.class, () -> aead.decrypt(ct, Arrays.copyOf(ad, 17)), "lengthened");
    assertThrows(IntegrityException.class, () -> aead.decrypt(ct, null), "missing");
  }

  @Test
  void decrypt_withTruncatedOrExtendedCiphertext_throwsIntegrityException() {
    byte[] ct = aead.encrypt(randomBytes(32), null);
    assertThrows(IntegrityException.class, () -> aead.decrypt(Arrays.copyOf(ct, ct.length - 1), null));
    assertThrows(IntegrityException.class, () -> aead.decrypt(Arrays.copyOf(ct, ct.length + 1), null));
  }

  @Test
  void decrypt_underAnotherKey_throwsIntegrityException() {
    byte[] ct = aead.encrypt(randomBytes(32), null);
    byte[] otherKey = key.clone();
    otherKey[31] ^= 1;
    assertThrows(IntegrityException.class, () -> new Aead(otherKey).decrypt(ct, null));
  }

  @Test
  void decrypt_ofTooShortInput_throwsIntegrityException() {
    assertThrows(IntegrityException.class, () -> aead.decrypt(null, null));
    assertThrows(IntegrityException.class, () -> aead.decrypt(new byte[0], null));
    assertThrows(IntegrityException.class, () -> aead.decrypt(new byte[Aead.OVERHEAD - 1], null));
    assertThrows(IntegrityException.class, () -> aead.decrypt(new byte[Aead.OVERHEAD], null));
  }

  @Test
  void constructor_rejectsKeysThatAreNot32Bytes() {
    assertThrows(IllegalArgumentException.class, () -> new Aead(new byte[16]));
  }

  @Test
  void toString_doesNotShowTheKey() {
    assertFalse(aead.toString().contains(java.util.HexFormat.of().formatHex(key).substring(0, 8)));
  }
}
