package io.pancakej.baseline;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.pancakej.IntegrityException;
import io.pancakej.PancakeConfig;
import io.pancakej.StateException;
import io.pancakej.ValueTooLargeException;
import io.pancakej.crypto.MasterKey;
import io.pancakej.store.KvStore;
import io.pancakej.store.MemoryStore;

class EncryptedClientSecurityTest {

  /** A memory store that remembers every key and value it was given. */
  static final class RecordingStore implements KvStore {
    final MemoryStore delegate = new MemoryStore();
    final List<byte[]> writtenKeys = new ArrayList<>();
    final List<byte[]> writtenValues = new ArrayList<>();
    final List<byte[]> readKeys = new ArrayList<>();

    @Override
    public synchronized List<byte[]> multiGet(List<byte[]> keys) {
      keys.forEach(k -> readKeys.add(k.clone()));
      return delegate.multiGet(keys);
    }

    @Override
    public synchronized void multiPut(List<byte[]> keys, List<byte[]> values) {
      keys.forEach(k -> writtenKeys.add(k.clone()));
      values.forEach(v -> writtenValues.add(v.clone()));
      delegate.multiPut(keys, values);
    }

    @Override
    public synchronized void multiDelete(List<byte[]> keys) {
      delegate.multiDelete(keys);
    }

    @Override
    public boolean isEmpty() {
      return delegate.isEmpty();
    }

    @Override
    public String describe() {
      return "recording";
    }

    @Override
    public void close() {
      delegate.close();
    }
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
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

  @Test
  void store_neverSeesPlaintextKeysOrValues() {
    RecordingStore store = new RecordingStore();
    try (EncryptedClient client = EncryptedClient.builder().store(store)
        .masterKey(MasterKey.generate(new SecureRandom())).valueSize(256).keySize(64).build()) {
      for (int i = 0; i < 50; i++) {
        client.put(bytes("user" + i + "-secret-key"), bytes("secret value number " + i));
        byte[] updated = bytes("updated secret " + i);
        client.update(bytes("user" + i + "-secret-key"), v -> updated);
        client.get(bytes("user" + i + "-secret-key"));
      }
    }
    List<byte[]> seen = new ArrayList<>(store.writtenKeys);
    seen.addAll(store.writtenValues);
    seen.addAll(store.readKeys);
    for (byte[] b : seen) {
      assertFalse(contains(b, bytes("secret")), "plaintext reached the store");
      assertFalse(contains(b, bytes("user")), "plaintext key reached the store");
    }
    assertTrue(store.writtenKeys.stream().allMatch(k -> k.length == EncryptedClient.LABEL_BYTES));
    // padded: every ciphertext has the same length whatever the value length
    assertEquals(1, store.writtenValues.stream().mapToInt(v -> v.length).distinct().count());
  }

  @Test
  void sameKey_alwaysMapsToSameLabel_andDistinctKeysToDistinctLabels() {
    RecordingStore store = new RecordingStore();
    try (EncryptedClient client = EncryptedClient.builder().store(store)
        .masterKey(MasterKey.generate(new SecureRandom())).valueSize(64).keySize(64).build()) {
      client.put(bytes("k"), bytes("a"));
      client.put(bytes("k"), bytes("b"));
      client.put(bytes("k2"), bytes("c"));
      assertArrayEquals(store.writtenKeys.get(0), store.writtenKeys.get(1));
      assertFalse(Arrays.equals(store.writtenKeys.get(0), store.writtenKeys.get(2)));
      assertArrayEquals(client.label(bytes("k")), store.writtenKeys.get(0));
      // fresh nonce per write: same label, different ciphertexts
      assertFalse(Arrays.equals(store.writtenValues.get(0), store.writtenValues.get(1)));
    }
  }

  @Test
  void tamperedCiphertext_raisesIntegrityException() {
    RecordingStore store = new RecordingStore();
    try (EncryptedClient client = EncryptedClient.builder().store(store)
        .masterKey(MasterKey.generate(new SecureRandom())).valueSize(64).keySize(64).build()) {
      client.put(bytes("k"), bytes("v"));
      client.put(bytes("other"), bytes("w"));
      byte[] label = client.label(bytes("k"));
      byte[] sealed = store.delegate.get(label);
      for (int i = 0; i < sealed.length; i++) {
        byte[] bad = sealed.clone();
        bad[i] ^= 1;
        store.delegate.put(label, bad);
        assertThrows(IntegrityException.class, () -> client.get(bytes("k")), "byte " + i);
      }
      // a valid ciphertext moved under another label
      store.delegate.put(label, store.delegate.get(client.label(bytes("other"))));
      assertThrows(IntegrityException.class, () -> client.get(bytes("k")));
    }
  }

  @Test
  void differentMasterKey_cannotReadTheData() {
    MemoryStore noClose = new MemoryStore(); // shared by three clients, none closed
    MasterKey key = MasterKey.generate(new SecureRandom());
    EncryptedClient writer = EncryptedClient.builder().store(noClose).masterKey(key).valueSize(64).keySize(64).build();
    writer.put(bytes("k"), bytes("v"));
    EncryptedClient sameKey = EncryptedClient.builder().store(noClose).masterKey(key).valueSize(64).keySize(64).build();
    assertArrayEquals(bytes("v"), sameKey.get(bytes("k")).orElseThrow());
    EncryptedClient otherKey = EncryptedClient.builder().store(noClose)
        .masterKey(MasterKey.generate(new SecureRandom())).valueSize(64).keySize(64).build();
    assertTrue(otherKey.get(bytes("k")).isEmpty(), "another key derives other labels");
  }

  @Test
  void oversizedKey_namesTheProperty() {
    try (EncryptedClient client = EncryptedClient.builder().store(new MemoryStore())
        .masterKey(MasterKey.generate(new SecureRandom())).valueSize(64).keySize(8).build()) {
      client.put(new byte[8], bytes("v"));
      ValueTooLargeException e = assertThrows(ValueTooLargeException.class, () -> client.put(new byte[9], bytes("v")));
      assertTrue(e.getMessage().contains(PancakeConfig.KEY_SIZE_PROPERTY), e.getMessage());
    }
  }

  @Test
  void open_createsKeyFileOnFirstUse_andReusesIt(@TempDir Path dir) throws Exception {
    Properties props = new Properties();
    props.setProperty("pancake.store", "rocksdb");
    props.setProperty("rocksdb.dir", dir.resolve("db").toString());
    props.setProperty(PancakeConfig.STATE_DIR_PROPERTY, dir.resolve("state").toString());
    try (EncryptedClient client = EncryptedClient.open(props)) {
      client.put(bytes("k"), bytes("persisted"));
    }
    assertTrue(Files.exists(dir.resolve("state").resolve("master.key")));
    props.setProperty(PancakeConfig.CREATE_PROPERTY, "false");
    try (EncryptedClient client = EncryptedClient.open(props)) {
      assertArrayEquals(bytes("persisted"), client.get(bytes("k")).orElseThrow());
    }
  }

  @Test
  void open_withoutKeyFile_failsWhenCreationIsOff(@TempDir Path dir) {
    Properties props = new Properties();
    props.setProperty("pancake.store", "memory");
    props.setProperty(PancakeConfig.STATE_DIR_PROPERTY, dir.resolve("missing").toString());
    props.setProperty(PancakeConfig.CREATE_PROPERTY, "false");
    StateException e = assertThrows(StateException.class, () -> EncryptedClient.open(props));
    assertTrue(e.getMessage().contains("master key"), e.getMessage());
    assertTrue(e.getMessage().contains(PancakeConfig.CREATE_PROPERTY), e.getMessage());
    assertFalse(Files.exists(dir.resolve("missing")));
  }

  @Test
  void open_usesExplicitKeyFile(@TempDir Path dir) {
    Properties props = new Properties();
    props.setProperty("pancake.store", "memory");
    props.setProperty(PancakeConfig.KEY_FILE_PROPERTY, dir.resolve("my.key").toString());
    EncryptedClient.open(props).close();
    assertTrue(Files.exists(dir.resolve("my.key")));
    assertNotEquals(0, dir.resolve("my.key").toFile().length());
  }
}
