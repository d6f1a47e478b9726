package io.pancakej.crypto;

/** Test-side reader of an {@link EpochAead}'s key-use counters, for tests in other packages. */
public final class EpochAeadProbe {
  private EpochAeadProbe() {}

  /** Indices claimed in the current epoch. */
  public static long claimedInEpoch(EpochAead aead) {
    return aead.claimedInEpoch();
  }

  /** The epoch and first index the instance started from: {@code {epoch, index}}. */
  public static long[] started(EpochAead aead) {
    return aead.started();
  }
}
