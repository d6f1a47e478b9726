package io.pancakej.baseline;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Properties;

import io.pancakej.IntegrityException;
import io.pancakej.PancakeConfig;
import io.pancakej.StateException;
import io.pancakej.config.Limits;
import io.pancakej.config.PropertyReader;
import io.pancakej.crypto.Aead;
import io.pancakej.crypto.KeyPurposes;
import io.pancakej.crypto.MasterKey;
import io.pancakej.crypto.Prf;
import io.pancakej.store.KvStore;
import io.pancakej.store.Stores;

/**
 * The {@code encrypted} baseline: each key is stored under a 16-byte PRF label and each value is
 * padded to {@code pancake.value.size} and sealed with AES-256-GCM, the label as associated data.
 * One store read per get, one write per put, no replicas and no fake accesses; an update is a
 * read, a merge and a write under a per-key lock.
 *
 * <p>Security guarantees: the store learns neither keys nor values nor value lengths, and cannot
 * move, alter or replay-under-another-label a value undetected ({@link IntegrityException}). It
 * does learn the access pattern: the same key always maps to the same label, so the frequency of
 * every label is visible. That leak is what PANCAKE removes.
 */
public final class EncryptedClient extends PerKeyClient {
  /** Default directory of the baseline's state (its master key). */
  public static final String DEFAULT_STATE_DIR = "data/encrypted-state";
  /** Bytes of a label on the store. */
  public static final int LABEL_BYTES = 16;
  private static final byte[] LABEL_PREFIX = "pancake-j/encrypted/label\0".getBytes(StandardCharsets.US_ASCII);
  private static final int LENGTH_BYTES = 4;

  private final Prf labels;
  private final Aead aead;

  /**
   * A client on {@code store} (which it takes ownership of), with keys derived from
   * {@code masterKey}, values up to {@code valueSize} bytes and keys up to {@code keySize} bytes
   * (the bounds of {@link Limits}).
   */
  public EncryptedClient(KvStore store, MasterKey masterKey, int valueSize, int keySize) {
    this(store, masterKey, new Limits(keySize, valueSize, null));
  }

  private EncryptedClient(KvStore store, MasterKey masterKey, Limits limits) {
    super(store, limits);
    Objects.requireNonNull(masterKey, "masterKey");
    this.labels = new Prf(masterKey.derive(KeyPurposes.ENCRYPTED_LABELS), LABEL_BYTES);
    this.aead = new Aead(masterKey.derive(KeyPurposes.ENCRYPTED_VALUES));
  }

  /**
   * Opens the client from properties: the master key from {@code pancake.key.file}, else
   * {@code <pancake.state.dir>/master.key} (state directory default {@value #DEFAULT_STATE_DIR}),
   * created on first use unless {@code pancake.state.create=false}, in which case a missing key
   * file is a {@link StateException}; the store by name ({@link Stores#open(Properties, Path, boolean)}). The
   * key file is this baseline's state: a {@code memory} store is refused once an earlier process
   * left one, since the data sealed under it went with that process.
   */
  public static EncryptedClient open(Properties props) {
    Limits limits = Limits.fromProperties(props);
    Path stateDir = PropertyReader.path(props, PancakeConfig.STATE_DIR_PROPERTY, Path.of(DEFAULT_STATE_DIR));
    Path keyFile = PropertyReader.path(props, PancakeConfig.KEY_FILE_PROPERTY, stateDir.resolve("master.key"));
    boolean create = PropertyReader.bool(props, PancakeConfig.CREATE_PROPERTY, true);
    MasterKey key;
    boolean exists = Files.exists(keyFile);
    if (exists) {
      key = MasterKey.load(keyFile);
    } else if (create) {
      key = MasterKey.loadOrCreate(keyFile);
    } else {
      throw new StateException("no master key file at " + keyFile.toAbsolutePath() + " and "
          + PancakeConfig.CREATE_PROPERTY + "=false: load the data first (bin/ycsb load encrypted ...)"
          + " with the same " + PancakeConfig.STATE_DIR_PROPERTY + " or " + PancakeConfig.KEY_FILE_PROPERTY);
    }
    return new EncryptedClient(Stores.open(props, keyFile.toAbsolutePath().getParent(), exists), key, limits);
  }

  /** The store label of {@code key}: PRF(prefix || key), deterministic. */
  byte[] label(byte[] key) {
    return labels.compute(labelInput(key));
  }

  /**
   * The label {@code key} is stored under with {@code masterKey}: the ground truth an experimenter
   * needs to score a frequency-analysis attack on a transcript (bin/audit). Never for the store.
   */
  public static byte[] labelOf(MasterKey masterKey, byte[] key) {
    return new Prf(masterKey.derive(KeyPurposes.ENCRYPTED_LABELS), LABEL_BYTES).compute(labelInput(key));
  }

  private static byte[] labelInput(byte[] key) {
    byte[] input = new byte[LABEL_PREFIX.length + key.length];
    System.arraycopy(LABEL_PREFIX, 0, input, 0, LABEL_PREFIX.length);
    System.arraycopy(key, 0, input, LABEL_PREFIX.length, key.length);
    return input;
  }

  private byte[] seal(byte[] label, byte[] value) {
    byte[] padded = new byte[LENGTH_BYTES + limits.valueSize()];
    ByteBuffer.wrap(padded).putInt(value.length).put(value);
    return aead.encrypt(padded, label);
  }

  private byte[] open(byte[] label, byte[] sealed) {
    byte[] padded = aead.decrypt(sealed, label);
    if (padded.length != LENGTH_BYTES + limits.valueSize()) {
      throw new IntegrityException("sealed value has " + padded.length + " bytes, expected "
          + (LENGTH_BYTES + limits.valueSize()) + ": was the store written with another "
          + PancakeConfig.VALUE_SIZE_PROPERTY + "?");
    }
    int length = ByteBuffer.wrap(padded).getInt();
    if (length < 0 || length > limits.valueSize()) {
      throw new IntegrityException("sealed value has an impossible length field");
    }
    byte[] value = new byte[length];
    System.arraycopy(padded, LENGTH_BYTES, value, 0, length);
    return value;
  }

  @Override
  byte[] storeKey(byte[] key) {
    return label(key);
  }

  @Override
  byte[] encode(byte[] label, byte[] value) {
    return seal(label, value);
  }

  @Override
  byte[] decode(byte[] label, byte[] sealed) {
    return open(label, sealed);
  }
}
