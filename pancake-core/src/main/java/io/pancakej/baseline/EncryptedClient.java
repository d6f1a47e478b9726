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
import io.pancakej.crypto.Aead;
import io.pancakej.crypto.KeyPurposes;
import io.pancakej.crypto.MasterKey;
import io.pancakej.crypto.Prf;
import io.pancakej.scheme.SchemeBuilder;
import io.pancakej.scheme.SchemeSettings;
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

  private EncryptedClient(KvStore store, MasterKey masterKey, Limits limits) {
    super(store, limits);
    Objects.requireNonNull(masterKey, "masterKey");
    this.labels = new Prf(masterKey.derive(KeyPurposes.ENCRYPTED_LABELS), LABEL_BYTES);
    this.aead = new Aead(masterKey.derive(KeyPurposes.ENCRYPTED_VALUES));
  }

  /** A builder; {@link Builder#store} and a master key ({@link Builder#masterKey} or a key file) are needed. */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Opens the client from properties, through {@link Builder}: {@value SchemeBuilder#STATE_DIR_PROPERTY}
   * (default {@value #DEFAULT_STATE_DIR}), {@value SchemeBuilder#KEY_FILE_PROPERTY} (default
   * {@code master.key} in the state directory), {@value SchemeBuilder#CREATE_PROPERTY},
   * {@value Limits#VALUE_SIZE_PROPERTY}, {@value Limits#KEY_SIZE_PROPERTY}; the store by name
   * ({@link Stores#open(Properties, Path, boolean)}). The key file is created on first use unless
   * {@code pancake.state.create=false}, in which case a missing one is a {@link StateException}. The
   * key file is this baseline's state: a {@code memory} store is refused once an earlier process
   * left one, since the data sealed under it went with that process.
   */
  public static EncryptedClient open(Properties props) {
    return Builder.fromProperties(props).build();
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

  /**
   * Builder with fail-fast checks, on the settings every scheme shares ({@link SchemeBuilder}): the
   * key and value sizes (read at every open: nothing fixes them), the key file or a
   * {@link #masterKey}, whether a missing key file may be created, and the store, which the client
   * then owns. A capacity is accepted and ignored: one store entry per key, no fixed size.
   */
  public static final class Builder extends SchemeBuilder<Builder> {
    private MasterKey masterKey;

    private Builder() {
      super("encrypted", DEFAULT_STATE_DIR, 30);
    }

    /** Use this master key instead of a key file. */
    public Builder masterKey(MasterKey key) {
      this.masterKey = Objects.requireNonNull(key, "masterKey");
      return this;
    }

    /**
     * What the properties say; the master key is read (or created) before the store opens, so a
     * missing key that may not be created opens nothing.
     */
    static Builder fromProperties(Properties props) {
      Builder b = builder().readProperties(props);
      Path keyFile = b.settings().keyFile();
      boolean existed = Files.exists(keyFile);
      b.masterKey(b.keyOf(b.settings()));
      return b.store(Stores.open(props, keyFile.toAbsolutePath().getParent(), existed));
    }

    /** The master key given, else the key file's; a missing key file is created unless creating is off. */
    private MasterKey keyOf(SchemeSettings s) {
      if (masterKey != null) {
        return masterKey;
      }
      Path keyFile = s.keyFile();
      if (Files.exists(keyFile)) {
        return MasterKey.load(keyFile);
      }
      if (!s.createIfMissing()) {
        throw new StateException("no master key file at " + keyFile.toAbsolutePath() + " and "
            + SchemeBuilder.CREATE_PROPERTY + "=false: load the data first (bin/ycsb load encrypted ...) with the"
            + " same " + SchemeBuilder.STATE_DIR_PROPERTY + " or " + SchemeBuilder.KEY_FILE_PROPERTY);
      }
      return MasterKey.loadOrCreate(keyFile);
    }

    /** Opens the client on the store given to {@link #store}. */
    public EncryptedClient build() {
      return open(s -> new EncryptedClient(s.store(), keyOf(s),
          new Limits(s.keySizeOr(Limits.DEFAULT_KEY_SIZE), s.valueSizeOr(Limits.DEFAULT_VALUE_SIZE), null)));
    }
  }
}
