package io.pancakej.crypto;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.Set;

import java.security.GeneralSecurityException;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import io.pancakej.ConfigException;
import io.pancakej.PancakeException;

/**
 * The proxy's 256-bit master secret, from which every working key is derived with HKDF-SHA256
 * (RFC 5869) under a distinct purpose string, so that the label PRF, the value AEAD and the
 * state-file seal never share a key.
 *
 * <p>Security guarantees: the key is generated with {@link SecureRandom}, stored in a key file
 * readable by its owner only (POSIX mode 600; {@link #load} refuses a file that group or others can
 * access), and never appears in {@code toString()}, logs or
 * exception messages.
 */
public final class MasterKey {
  /** Length of the master secret and of every derived key, in bytes. */
  public static final int KEY_BYTES = 32;
  private static final String FILE_HEADER = "pancake-j master key v1\n";
  private static final String HMAC = "HmacSHA256";
  private static final int HMAC_BYTES = 32;

  private final byte[] secret;

  private MasterKey(byte[] secret) {
    this.secret = secret;
  }

  /** Wraps raw key bytes (32 bytes); the array is copied. */
  public static MasterKey of(byte[] secret) {
    if (secret == null || secret.length != KEY_BYTES) {
      throw new ConfigException("a master key must be exactly " + KEY_BYTES + " bytes");
    }
    return new MasterKey(secret.clone());
  }

  /** A fresh random key that is not stored anywhere (tests, throw-away stores). */
  public static MasterKey generate(SecureRandom random) {
    byte[] k = new byte[KEY_BYTES];
    random.nextBytes(k);
    return new MasterKey(k);
  }

  /**
   * Loads the key in {@code file}, or, when the file does not exist, generates one and writes it
   * with owner-only permissions. A file that exists but is not a key file is an error, never
   * overwritten.
   */
  public static MasterKey loadOrCreate(Path file) {
    if (Files.exists(file)) {
      return load(file);
    }
    MasterKey key = generate(new SecureRandom());
    try {
      Path parent = file.toAbsolutePath().getParent();
      if (parent != null) {
        Files.createDirectories(parent);
      }
      byte[] text = (FILE_HEADER + HexFormat.of().formatHex(key.secret) + "\n").getBytes(StandardCharsets.US_ASCII);
      publish(file, text);
      return key;
    } catch (FileAlreadyExistsException e) {
      return load(file); // another process created it first
    } catch (IOException e) {
      throw new ConfigException("cannot create master key file " + file + ": " + e.getMessage(), e);
    }
  }

  /**
   * Writes the complete key file under a temporary name with owner-only permissions, then links
   * it into place, so that a concurrent reader never sees a half-written file and an existing
   * file is never replaced ({@link FileAlreadyExistsException} instead).
   */
  private static void publish(Path file, byte[] text) throws IOException {
    Path dir = file.toAbsolutePath().getParent();
    Path tmp = isPosix(file)
        ? Files.createTempFile(dir, ".master-key", ".tmp", PosixFilePermissions.asFileAttribute(
            EnumSet.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE)))
        : Files.createTempFile(dir, ".master-key", ".tmp");
    try {
      Files.write(tmp, text, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.SYNC);
      try {
        Files.createLink(file, tmp); // atomic, and fails when the file exists
      } catch (UnsupportedOperationException e) {
        Files.move(tmp, file); // no hard links here: not atomic against a racing creator, never replaces
      }
    } finally {
      Files.deleteIfExists(tmp);
    }
  }

  /**
   * Loads an existing key file. On a POSIX file system the file must not be accessible to its
   * group or others (mode 600 or 400), else this throws {@link ConfigException} with the fix.
   */
  public static MasterKey load(Path file) {
    String text;
    try {
      text = Files.readString(file, StandardCharsets.US_ASCII);
    } catch (IOException e) {
      throw new ConfigException("cannot read master key file " + file + ": " + e.getMessage(), e);
    }
    if (!text.startsWith(FILE_HEADER)) {
      throw new ConfigException("file " + file + " is not a PANCAKE-J master key file");
    }
    String hex = text.substring(FILE_HEADER.length()).trim();
    byte[] secret;
    try {
      secret = HexFormat.of().parseHex(hex);
    } catch (IllegalArgumentException e) {
      throw new ConfigException("master key file " + file + " is damaged (not hex)", e);
    }
    if (secret.length != KEY_BYTES) {
      throw new ConfigException("master key file " + file + " is damaged (wrong length)");
    }
    checkOwnerOnly(file);
    return new MasterKey(secret);
  }

  /**
   * Refuses a key file that its group or other users may access, as OpenSSH refuses such a private
   * key: whoever can read it can decrypt the store and link labels to keys, and whoever can write it
   * can swap the key. File systems without POSIX permissions are not checked.
   */
  private static void checkOwnerOnly(Path file) {
    if (!isPosix(file)) {
      return;
    }
    Set<PosixFilePermission> perms;
    try {
      perms = Files.getPosixFilePermissions(file);
    } catch (IOException e) {
      throw new ConfigException("cannot read the permissions of master key file " + file + ": " + e.getMessage(), e);
    }
    Set<PosixFilePermission> others = EnumSet.copyOf(perms);
    others.removeAll(EnumSet.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE,
        PosixFilePermission.OWNER_EXECUTE));
    if (!others.isEmpty()) {
      throw new ConfigException("master key file " + file + " has permissions " + PosixFilePermissions.toString(perms)
          + ", so other users can access it; a master key must be readable by its owner only. Fix: chmod 600 " + file);
    }
  }

  /** Derives a {@value #KEY_BYTES}-byte key for {@code purpose} with HKDF-SHA256 (no salt). */
  public byte[] derive(String purpose) {
    return hkdfSha256(secret, null, purpose.getBytes(StandardCharsets.UTF_8), KEY_BYTES);
  }

  /** A short non-secret fingerprint of the key (a derived value), safe to store and compare. */
  public String fingerprint() {
    return HexFormat.of().formatHex(Arrays.copyOf(derive(KeyPurposes.FINGERPRINT), 8));
  }

  /**
   * RFC 5869 HKDF with SHA-256, on the JDK's HMAC. (It was Bouncy Castle's: loading its signed jar
   * took 250-350 ms of every open, a tenth of a short one-thread YCSB run; MasterKeyTest checks the
   * RFC's test vectors and agreement with Bouncy Castle.)
   */
  static byte[] hkdfSha256(byte[] ikm, byte[] salt, byte[] info, int length) {
    if (length < 0 || length > 255 * HMAC_BYTES) {
      throw new IllegalArgumentException("HKDF-SHA256 gives 0.." + 255 * HMAC_BYTES + " bytes, not " + length);
    }
    try {
      Mac mac = Mac.getInstance(HMAC);
      // extract: an absent or empty salt is a string of HashLen zeros (RFC 5869, 2.2)
      mac.init(new SecretKeySpec(salt == null || salt.length == 0 ? new byte[HMAC_BYTES] : salt, HMAC));
      byte[] prk = mac.doFinal(ikm);
      // expand: T(i) = HMAC(PRK, T(i-1) | info | i), the output their concatenation
      mac.init(new SecretKeySpec(prk, HMAC));
      Arrays.fill(prk, (byte) 0);
      byte[] out = new byte[length];
      byte[] t = new byte[0];
      for (int i = 1, done = 0; done < length; i++) {
        mac.update(t);
        if (info != null) {
          mac.update(info);
        }
        mac.update((byte) i);
        Arrays.fill(t, (byte) 0);
        t = mac.doFinal();
        int n = Math.min(t.length, length - done);
        System.arraycopy(t, 0, out, done, n);
        done += n;
      }
      Arrays.fill(t, (byte) 0);
      return out;
    } catch (GeneralSecurityException e) {
      throw new PancakeException("HmacSHA256 is not available in this JVM", e);
    }
  }

  private static boolean isPosix(Path file) {
    return file.toAbsolutePath().getFileSystem().supportedFileAttributeViews().contains("posix");
  }

  @Override
  public String toString() {
    return "MasterKey[fingerprint=" + fingerprint() + "]";
  }
}
