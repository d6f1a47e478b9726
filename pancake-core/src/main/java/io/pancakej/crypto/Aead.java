package io.pancakej.crypto;

import java.security.GeneralSecurityException;

import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

import io.pancakej.IntegrityException;
import io.pancakej.PancakeException;

/**
 * AES-256-GCM authenticated encryption with associated data; the wire format is
 * {@code nonce (12 bytes) || ciphertext || tag (16 bytes)}.
 *
 * <p>Security guarantees: every call to {@link #encrypt} draws a fresh random 96-bit nonce from
 * a per-thread {@link CtrDrbg} seeded by {@link java.security.SecureRandom}, so two encryptions of the same plaintext differ and the
 * store cannot tell a re-encryption from a new value. Decryption authenticates both the
 * ciphertext and the associated data: any change to either, or a different key, raises
 * {@link IntegrityException}, never garbage. With random nonces one key should seal fewer than
 * 2^32 messages (NIST SP 800-38D); derive a new key before that ({@link EpochAead} does so by
 * counting).
 */
public final class Aead {
  public static final int NONCE_BYTES = 12;
  public static final int TAG_BYTES = 16;
  /** Bytes a ciphertext adds to its plaintext. */
  public static final int OVERHEAD = NONCE_BYTES + TAG_BYTES;

  private final SecretKeySpec key;
  private final ThreadLocal<Cipher> cipher = ThreadLocal.withInitial(Aead::newCipher);
  private final ThreadLocal<CtrDrbg> random = ThreadLocal.withInitial(CtrDrbg::new);

  public Aead(byte[] key) {
    if (key.length != 32) {
      throw new IllegalArgumentException("AES-256-GCM needs a 32-byte key");
    }
    this.key = new SecretKeySpec(key.clone(), "AES");
  }

  private static Cipher newCipher() {
    try {
      return Cipher.getInstance("AES/GCM/NoPadding");
    } catch (GeneralSecurityException e) {
      throw new PancakeException("AES/GCM is not available in this JVM", e);
    }
  }

  /** Encrypts {@code plaintext[0, length)} bound to {@code associatedData}. */
  public byte[] encrypt(byte[] plaintext, int length, byte[] associatedData) {
    byte[] out = new byte[NONCE_BYTES + length + TAG_BYTES];
    byte[] nonce = new byte[NONCE_BYTES];
    random.get().nextBytes(nonce);
    System.arraycopy(nonce, 0, out, 0, NONCE_BYTES);
    try {
      Cipher c = cipher.get();
      c.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(TAG_BYTES * 8, out, 0, NONCE_BYTES));
      if (associatedData != null) {
        c.updateAAD(associatedData);
      }
      c.doFinal(plaintext, 0, length, out, NONCE_BYTES);
      return out;
    } catch (GeneralSecurityException e) {
      throw new PancakeException("AES-GCM encryption failed", e);
    }
  }

  /** Encrypts all of {@code plaintext}. */
  public byte[] encrypt(byte[] plaintext, byte[] associatedData) {
    return encrypt(plaintext, plaintext.length, associatedData);
  }

  /** Decrypts and authenticates; throws {@link IntegrityException} on any mismatch. */
  public byte[] decrypt(byte[] ciphertext, byte[] associatedData) {
    if (ciphertext == null || ciphertext.length < OVERHEAD) {
      throw new IntegrityException("ciphertext is too short to be authentic ("
          + (ciphertext == null ? "missing" : ciphertext.length + " bytes") + ")");
    }
    try {
      Cipher c = cipher.get();
      c.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(TAG_BYTES * 8, ciphertext, 0, NONCE_BYTES));
      if (associatedData != null) {
        c.updateAAD(associatedData);
      }
      return c.doFinal(ciphertext, NONCE_BYTES, ciphertext.length - NONCE_BYTES);
    } catch (AEADBadTagException e) {
      throw new IntegrityException("ciphertext failed authentication: tampered, moved to another label,"
          + " or sealed under a different master key", e);
    } catch (GeneralSecurityException e) {
      throw new PancakeException("AES-GCM decryption failed", e);
    }
  }

  @Override
  public String toString() {
    return "Aead[AES-256-GCM]";
  }
}
