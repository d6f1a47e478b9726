package io.pancakej.crypto;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.pancakej.ConfigException;

class MasterKeyTest {
  private static final HexFormat HEX = HexFormat.of();

  @TempDir
  Path tmp;

  // RFC 5869 appendix A, test cases 1 to 3 (SHA-256)

  @Test
  void hkdfSha256_rfc5869_case1_basic() {
    byte[] ikm = HEX.parseHex("0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b");
    byte[] salt = HEX.parseHex("000102030405060708090a0b0c");
    byte[] info = HEX.parseHex("f0f1f2f3f4f5f6f7f8f9");
    assertEquals("3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865",
        HEX.formatHex(MasterKey.hkdfSha256(ikm, salt, info, 42)));
  }

  @Test
  void hkdfSha256_rfc5869_case2_longInputs() {
    byte[] ikm = range(0x00, 0x50);
    byte[] salt = range(0x60, 0xb0);
    byte[] info = range(0xb0, 0x100);
    assertEquals("b11e398dc80327a1c8e7f78c596a49344f012eda2d4efad8a050cc4c19afa97c"
        + "59045a99cac7827271cb41c65e590e09da3275600c2f09b8367793a9aca3db71"
        + "cc30c58179ec3e87c14c01d5c1f3434f1d87",
        HEX.formatHex(MasterKey.hkdfSha256(ikm, salt, info, 82)));
  }

  @Test
  void hkdfSha256_rfc5869_case3_noSaltNoInfo() {
    byte[] ikm = HEX.parseHex("0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b");
    String okm = "8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d9d201395faa4b61a96c8";
    assertEquals(okm, HEX.formatHex(MasterKey.hkdfSha256(ikm, new byte[0], new byte[0], 42)));
    assertEquals(okm, HEX.formatHex(MasterKey.hkdfSha256(ikm, null, new byte[0], 42)), "absent salt = zeros");
  }

  /**
   * The JDK-HMAC HKDF gives what Bouncy Castle's (which it replaced) gave, so every state created
   * before keeps its keys: random inputs of every shape, salts longer than an HMAC block (hashed
   * into the key) and outputs that end inside, and exactly on, a block.
   */
  @Test
  void hkdfSha256_agreesWithBouncyCastle() {
    SecureRandom random = new SecureRandom();
    int[] saltLengths = {-1, 0, 1, 13, 32, 64, 65, 200};
    int[] lengths = {0, 1, 31, 32, 33, 42, 64, 82, 100, 255 * 32};
    for (int saltLength : saltLengths) {
      for (int length : lengths) {
        for (int infoLength : new int[] {-1, 0, 7, 100}) {
          byte[] ikm = bytes(random, 1 + random.nextInt(80));
          byte[] salt = saltLength < 0 ? null : bytes(random, saltLength);
          byte[] info = infoLength < 0 ? null : bytes(random, infoLength);
          org.bouncycastle.crypto.generators.HKDFBytesGenerator bc =
              new org.bouncycastle.crypto.generators.HKDFBytesGenerator(new org.bouncycastle.crypto.digests.SHA256Digest());
          bc.init(new org.bouncycastle.crypto.params.HKDFParameters(ikm, salt, info));
          byte[] expected = new byte[length];
          bc.generateBytes(expected, 0, length);
          assertArrayEquals(expected, MasterKey.hkdfSha256(ikm, salt, info, length),
              "salt " + saltLength + ", info " + infoLength + ", length " + length);
        }
      }
    }
  }

  @Test
  void hkdfSha256_refusesMoreThan255Blocks() {
    byte[] ikm = new byte[32];
    assertEquals(255 * 32, MasterKey.hkdfSha256(ikm, null, null, 255 * 32).length);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> MasterKey.hkdfSha256(ikm, null, null, 255 * 32 + 1));
    assertTrue(e.getMessage().contains("0..8160"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> MasterKey.hkdfSha256(ikm, null, null, -1));
  }

  private static byte[] bytes(SecureRandom random, int n) {
    byte[] b = new byte[n];
    random.nextBytes(b);
    return b;
  }

  private static byte[] range(int from, int to) {
    byte[] out = new byte[to - from];
    for (int i = 0; i < out.length; i++) {
      out[i] = (byte) (from + i);
    }
    return out;
  }

  @Test
  void derive_givesDistinct32ByteKeysPerPurpose() {
    MasterKey key = MasterKey.generate(new SecureRandom());
    byte[] labels = key.derive("labels");
    assertEquals(MasterKey.KEY_BYTES, labels.length);
    assertArrayEquals(labels, key.derive("labels"));
    assertFalse(java.util.Arrays.equals(labels, key.derive("values")));
  }

  @Test
  void loadOrCreate_createsAnOwnerOnlyFile_andReloadsTheSameKey() throws IOException {
    Path file = tmp.resolve("keys/master.key");
    MasterKey created = MasterKey.loadOrCreate(file);
    assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));

    MasterKey reloaded = MasterKey.loadOrCreate(file);
    assertEquals(created.fingerprint(), reloaded.fingerprint());
    assertArrayEquals(created.derive("x"), MasterKey.load(file).derive("x"));
    assertEquals(16, created.fingerprint().length());
  }

  @Test
  void loadOrCreate_racingThreads_allGetTheOneKeyThatWasWritten() throws Exception {
    Path file = tmp.resolve("raced.key");
    java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(8);
    try {
      java.util.concurrent.CountDownLatch go = new java.util.concurrent.CountDownLatch(1);
      List<java.util.concurrent.Future<String>> prints = new java.util.ArrayList<>();
      for (int i = 0; i < 8; i++) {
        prints.add(pool.submit(() -> {
          go.await();
          return MasterKey.loadOrCreate(file).fingerprint();
        }));
      }
      go.countDown();
      String onDisk = MasterKey.load(waitFor(file)).fingerprint();
      for (java.util.concurrent.Future<String> f : prints) {
        assertEquals(onDisk, f.get(10, java.util.concurrent.TimeUnit.SECONDS));
      }
    } finally {
      pool.shutdownNow();
    }
    try (java.util.stream.Stream<Path> files = Files.list(tmp)) {
      assertEquals(List.of(file), files.toList(), "no temporary files left behind");
    }
  }

  private static Path waitFor(Path file) throws InterruptedException {
    for (int i = 0; i < 500 && !Files.exists(file); i++) {
      Thread.sleep(10);
    }
    return file;
  }

  @Test
  void loadOrCreate_inTwoPlaces_givesDifferentKeys() {
    assertNotEquals(MasterKey.loadOrCreate(tmp.resolve("a")).fingerprint(),
        MasterKey.loadOrCreate(tmp.resolve("b")).fingerprint());
  }

  @Test
  void load_ofADamagedFile_throwsConfigException_andLeavesItAlone() throws IOException {
    Path file = tmp.resolve("master.key");
    MasterKey.loadOrCreate(file);
    List<String> lines = Files.readAllLines(file, US_ASCII);
    String header = lines.get(0) + "\n";
    String hex = lines.get(1);

    for (String damaged : List.of(
        "", // empty
        "not a key file\n" + hex + "\n", // wrong header
        header + hex.substring(0, 62) + "zz\n", // not hex
        header + hex.substring(0, 62) + "\n", // too short
        header + hex + "00\n")) { // too long
      Files.writeString(file, damaged, US_ASCII);
      assertThrows(ConfigException.class, () -> MasterKey.loadOrCreate(file), damaged);
      assertEquals(damaged, Files.readString(file, US_ASCII), "a damaged file is never overwritten");
    }
  }

  @Test
  void load_ofAKeyFileOthersCanAccess_isRefusedWithThePermissionsAndTheFix() throws IOException {
    Path file = tmp.resolve("master.key");
    String fingerprint = MasterKey.loadOrCreate(file).fingerprint();
    for (String mode : List.of("rw-r--r--", "rw-r-----", "r-----r--", "rw--w----", "rw-rw-rw-")) {
      Files.setPosixFilePermissions(file, PosixFilePermissions.fromString(mode));
      ConfigException e = assertThrows(ConfigException.class, () -> MasterKey.loadOrCreate(file), mode);
      String m = e.getMessage();
      assertTrue(m.contains(file.toString()), m);
      assertTrue(m.contains(mode), m);
      assertTrue(m.contains("chmod 600 " + file), m);
    }
    for (String mode : List.of("rw-------", "r--------")) {
      Files.setPosixFilePermissions(file, PosixFilePermissions.fromString(mode));
      assertEquals(fingerprint, MasterKey.load(file).fingerprint(), mode);
    }
  }

  @Test
  void load_onAFileSystemWithoutPosixPermissions_works() throws IOException {
    Path file = tmp.resolve("master.key");
    String fingerprint = MasterKey.loadOrCreate(file).fingerprint();
    java.net.URI zip = java.net.URI.create("jar:" + tmp.resolve("keys.zip").toUri());
    try (java.nio.file.FileSystem fs = java.nio.file.FileSystems.newFileSystem(zip, java.util.Map.of("create", "true"))) {
      assertFalse(fs.supportedFileAttributeViews().contains("posix"));
      Path inZip = fs.getPath("/master.key");
      Files.copy(file, inZip);
      assertEquals(fingerprint, MasterKey.load(inZip).fingerprint());
    }
  }

  @Test
  void load_ofAMissingFile_throwsConfigException() {
    assertThrows(ConfigException.class, () -> MasterKey.load(tmp.resolve("absent")));
  }

  @Test
  void toString_andErrors_doNotContainTheKeyHex() throws IOException {
    Path file = tmp.resolve("master.key");
    MasterKey key = MasterKey.loadOrCreate(file);
    String hex = Files.readAllLines(file, US_ASCII).get(1).trim();
    assertEquals(64, hex.length());
    assertFalse(key.toString().contains(hex));
    assertFalse(key.toString().toLowerCase(java.util.Locale.ROOT).contains(hex.substring(0, 16)));
    assertTrue(key.toString().contains(key.fingerprint()));

    Files.writeString(file, Files.readAllLines(file, US_ASCII).get(0) + "\n" + hex + "0\n", US_ASCII);
    ConfigException e = assertThrows(ConfigException.class, () -> MasterKey.load(file));
    assertFalse(e.getMessage().contains(hex.substring(0, 16)), e.getMessage());
  }

  @Test
  void of_rejectsKeysThatAreNot32Bytes() {
    assertThrows(ConfigException.class, () -> MasterKey.of(new byte[31]));
    assertThrows(ConfigException.class, () -> MasterKey.of(null));
  }
}
