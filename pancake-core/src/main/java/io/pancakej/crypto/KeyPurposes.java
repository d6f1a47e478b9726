package io.pancakej.crypto;

import java.util.HexFormat;

/**
 * Every purpose a PANCAKE-J scheme derives a key for from the {@link MasterKey}
 * ({@link MasterKey#derive}), in one place -- PANCAKE's, the baselines', Path ORAM's and
 * DetWoORAM's, since one key file may serve several schemes: no two coincide, and changing one
 * changes what existing states and stores can be read with. The PANCAKE state's value and
 * write-ahead log keys are bound to its random state id, so a state created again under the same
 * key file never reuses one.
 */
public final class KeyPurposes {
  /** PANCAKE replica and canary labels (HMAC-SHA256 PRF). */
  public static final String PANCAKE_LABELS = "pancake-j label prf v1";
  /** The PANCAKE state file ({@code state.bin}). */
  public static final String STATE_SEAL = "pancake-j state seal v1";
  /** The PANCAKE key-epoch ledger. */
  public static final String EPOCH_LEDGER = "pancake-j epoch ledger v1";
  /** The {@code encrypted} baseline's labels. */
  public static final String ENCRYPTED_LABELS = "pancake-j encrypted label v1";
  /** The {@code encrypted} baseline's values. */
  public static final String ENCRYPTED_VALUES = "pancake-j encrypted value v1";
  /** {@link MasterKey#fingerprint}. */
  public static final String FINGERPRINT = "pancake-j key fingerprint v1";
  /** Path ORAM's bucket seals. */
  public static final String PATHORAM_BUCKETS = "pancake-j pathoram buckets v1";
  /** Path ORAM's state file. */
  public static final String PATHORAM_STATE = "pancake-j pathoram state v1";
  /** DetWoORAM's block seals. */
  public static final String DETWORAM_BLOCKS = "pancake-j detworam blocks v1";
  /** DetWoORAM's block labels (PRF). */
  public static final String DETWORAM_LABELS = "pancake-j detworam labels v1";
  /** DetWoORAM's state file. */
  public static final String DETWORAM_STATE = "pancake-j detworam state v1";

  private KeyPurposes() {}

  /** The PANCAKE replicas' value key of {@code epoch} (see {@link EpochAead}) for state {@code stateId}. */
  public static String pancakeValues(byte[] stateId, long epoch) {
    return "pancake-j value aead v2 " + HexFormat.of().formatHex(stateId) + " epoch " + epoch;
  }

  /** The key of PANCAKE write-ahead log file {@code sequence} for state {@code stateId} (one per file). */
  public static String pancakeLogFile(byte[] stateId, long sequence) {
    return "pancake-j wal v2 " + HexFormat.of().formatHex(stateId) + " file " + sequence;
  }
}
