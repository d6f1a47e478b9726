package io.pancakej.crypto;

import java.security.GeneralSecurityException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntFunction;

import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

import io.pancakej.IntegrityException;
import io.pancakej.PancakeException;

/**
 * AES-256-GCM under a sequence of <em>key epochs</em>, each key sealing at most {@code budget}
 * messages (NIST SP 800-38D: with random 96-bit nonces at most 2^32 encryptions per key). The wire
 * format is {@code epoch (4 bytes, big-endian) || nonce (12) || ciphertext || tag (16)}: the same
 * length in every epoch, and the epoch header is authenticated (it is the first part of the
 * associated data, followed by the caller's). A ciphertext of any earlier epoch keeps decrypting;
 * one that names an epoch after the current one, or a negative one, fails with
 * {@link IntegrityException} without deriving anything. Keys of earlier epochs are derived on first
 * use and cached, so a forged header costs at most one derivation per epoch that really exists.
 *
 * <p><b>Counting across processes.</b> Every encryption claims an index in the current epoch
 * (one {@link AtomicLong} increment). An index is usable only below the epoch's <em>reserved</em>
 * limit, and the limit is raised -- in blocks of {@code budget/128} (at least 4096 or the whole
 * budget) -- only after the {@link Ledger} has durably recorded it; moving to the next epoch is
 * likewise recorded before its first encryption. So at every moment the ledger says of its epoch E
 * a number N at least the messages ever sealed under E, and no message was sealed under a later
 * epoch. A process that reopens after a crash starts from that record with N counted as used
 * (reserved but unused indices are lost, never reused), so no key seals more than {@code budget}
 * messages whatever happens to the process. The ledger write costs one small file write with fsync
 * per block (every 2^24 encryptions at the default budget of 2^31).
 *
 * <p>Thread-safe; one {@link Cipher} and nonce generator per thread.
 */
public final class EpochAead {
  public static final int HEADER_BYTES = 4;
  /** Bytes a ciphertext adds to its plaintext, whatever the epoch. */
  public static final int OVERHEAD = HEADER_BYTES + Aead.NONCE_BYTES + Aead.TAG_BYTES;
  /** Default encryptions per key epoch: half the NIST limit for random nonces. */
  public static final long DEFAULT_BUDGET = 1L << 31;
  /** The largest budget accepted: the NIST limit. */
  public static final long MAX_BUDGET = 1L << 32;
  private static final int NONCE = Aead.NONCE_BYTES;
  private static final int TAG = Aead.TAG_BYTES;

  /** Durable record of the key use (the state directory's epoch file). */
  @FunctionalInterface
  public interface Ledger {
    /**
     * Records, durably, before returning, that at most {@code limit} messages are or will be sealed
     * under {@code epoch} and none under a later epoch. Throwing stops the encryption that asked.
     */
    void record(int epoch, long limit);
  }

  /** One key epoch: its number, key, how many indices were claimed and how many are reserved. */
  private static final class Epoch {
    final int number;
    final SecretKeySpec key;
    final AtomicLong claimed;
    volatile long reserved;

    Epoch(int number, SecretKeySpec key, long used) {
      this.number = number;
      this.key = key;
      this.claimed = new AtomicLong(used);
      this.reserved = used;
    }
  }

  private final IntFunction<byte[]> keyOfEpoch;
  private final long budget;
  private final long block;
  private final Ledger ledger;
  private final ConcurrentHashMap<Integer, SecretKeySpec> keys = new ConcurrentHashMap<>();
  private final ThreadLocal<Cipher> cipher = ThreadLocal.withInitial(EpochAead::newCipher);
  private final ThreadLocal<CtrDrbg> random = ThreadLocal.withInitial(CtrDrbg::new);
  private volatile Epoch current;
  private volatile boolean closed;
  private final int startEpoch;
  private final long startUsed;

  /**
   * @param keyOfEpoch derives the 32-byte key of an epoch (called once per epoch)
   * @param epoch the epoch the ledger records ({@code 0} for a new state)
   * @param used the number it records for that epoch (counted as used; {@code 0} for a new state)
   * @param budget encryptions per epoch, 1 .. 2^32
   * @param ledger where reservations and epoch changes are made durable
   */
  public EpochAead(IntFunction<byte[]> keyOfEpoch, int epoch, long used, long budget, Ledger ledger) {
    if (budget < 1 || budget > MAX_BUDGET) {
      throw new IllegalArgumentException("an epoch budget must be between 1 and 2^32, got " + budget);
    }
    if (epoch < 0 || used < 0) {
      throw new IllegalArgumentException("negative key epoch or count");
    }
    this.keyOfEpoch = keyOfEpoch;
    this.budget = budget;
    this.block = Math.max(budget / 128, Math.min(budget, 4096));
    this.ledger = ledger;
    if (used >= budget) {
      epoch = nextEpochNumber(epoch);
      used = 0;
    }
    this.current = new Epoch(epoch, keyOf(epoch), used);
    this.startEpoch = epoch;
    this.startUsed = used;
  }

  private static Cipher newCipher() {
    try {
      return Cipher.getInstance("AES/GCM/NoPadding");
    } catch (GeneralSecurityException e) {
      throw new PancakeException("AES/GCM is not available in this JVM", e);
    }
  }

  private static int nextEpochNumber(int epoch) {
    if (epoch == Integer.MAX_VALUE) {
      throw new PancakeException("the value key has run out of epochs (2^31 epochs of encryptions)");
    }
    return epoch + 1;
  }

  private SecretKeySpec keyOf(int epoch) {
    SecretKeySpec known = keys.get(epoch);
    if (known != null) {
      return known;
    }
    return keys.computeIfAbsent(epoch, e -> {
      byte[] k = keyOfEpoch.apply(e);
      if (k.length != 32) {
        throw new IllegalStateException("AES-256-GCM needs a 32-byte key");
      }
      return new SecretKeySpec(k, "AES");
    });
  }

  /** Claims one encryption in the current epoch: the fast path is one increment and one volatile read. */
  private Epoch claim() {
    while (true) {
      Epoch e = current;
      long index = e.claimed.getAndIncrement();
      if (index < e.reserved) {
        return e;
      }
      synchronized (this) {
        if (closed) {
          throw new PancakeException("the value cipher is closed");
        }
        if (e != current) {
          continue; // the epoch moved on meanwhile; the index is wasted, never reused
        }
        if (index < e.reserved) {
          return e; // another thread reserved meanwhile
        }
        if (index < budget) {
          long limit = Math.min(budget, Math.max(index + 1, e.reserved + block));
          ledger.record(e.number, limit); // durable before any index below it is used
          e.reserved = limit;
          return e;
        }
        // the epoch is spent: record the next one before anything is sealed under it
        int n = nextEpochNumber(e.number);
        Epoch next = new Epoch(n, keyOf(n), 0);
        long limit = Math.min(budget, block);
        ledger.record(n, limit);
        next.reserved = limit;
        current = next;
      }
    }
  }

  /** Encrypts {@code plaintext[0, length)} bound to {@code associatedData} under the current epoch. */
  public byte[] encrypt(byte[] plaintext, int length, byte[] associatedData) {
    Epoch e = claim();
    byte[] out = new byte[HEADER_BYTES + NONCE + length + TAG];
    int n = e.number;
    out[0] = (byte) (n >>> 24);
    out[1] = (byte) (n >>> 16);
    out[2] = (byte) (n >>> 8);
    out[3] = (byte) n;
    byte[] nonce = new byte[NONCE];
    random.get().nextBytes(nonce);
    System.arraycopy(nonce, 0, out, HEADER_BYTES, NONCE);
    try {
      Cipher c = cipher.get();
      c.init(Cipher.ENCRYPT_MODE, e.key, new GCMParameterSpec(TAG * 8, out, HEADER_BYTES, NONCE));
      c.updateAAD(out, 0, HEADER_BYTES);
      if (associatedData != null) {
        c.updateAAD(associatedData);
      }
      c.doFinal(plaintext, 0, length, out, HEADER_BYTES + NONCE);
      return out;
    } catch (GeneralSecurityException ex) {
      throw new PancakeException("AES-GCM encryption failed", ex);
    }
  }

  /** Encrypts all of {@code plaintext}. */
  public byte[] encrypt(byte[] plaintext, byte[] associatedData) {
    return encrypt(plaintext, plaintext.length, associatedData);
  }

  /** The epoch a ciphertext names in its header (not authenticated until it decrypts). */
  public static int epochOf(byte[] ciphertext) {
    return ((ciphertext[0] & 0xff) << 24) | ((ciphertext[1] & 0xff) << 16) | ((ciphertext[2] & 0xff) << 8)
        | (ciphertext[3] & 0xff);
  }

  /** Decrypts and authenticates; throws {@link IntegrityException} on any mismatch. */
  public byte[] decrypt(byte[] ciphertext, byte[] associatedData) {
    if (ciphertext == null || ciphertext.length < OVERHEAD) {
      throw new IntegrityException("ciphertext is too short to be authentic ("
          + (ciphertext == null ? "missing" : ciphertext.length + " bytes") + ")");
    }
    int epoch = epochOf(ciphertext);
    Epoch cur = current;
    if (epoch < 0 || epoch > cur.number) {
      throw new IntegrityException("ciphertext names key epoch " + epoch + ", which was never in use"
          + " (tampered, or sealed by another state)");
    }
    try {
      Cipher c = cipher.get();
      c.init(Cipher.DECRYPT_MODE, epoch == cur.number ? cur.key : keyOf(epoch), new GCMParameterSpec(TAG * 8, ciphertext, HEADER_BYTES, NONCE));
      c.updateAAD(ciphertext, 0, HEADER_BYTES);
      if (associatedData != null) {
        c.updateAAD(associatedData);
      }
      return c.doFinal(ciphertext, HEADER_BYTES + NONCE, ciphertext.length - HEADER_BYTES - NONCE);
    } catch (AEADBadTagException ex) {
      throw new IntegrityException("ciphertext failed authentication: tampered, moved to another label,"
          + " or sealed under a different master key or state", ex);
    } catch (GeneralSecurityException ex) {
      throw new PancakeException("AES-GCM decryption failed", ex);
    }
  }

  /** The current epoch. */
  public int epoch() {
    return current.number;
  }

  /**
   * What a checkpoint saves: the current epoch and its reserved limit (at least the encryptions
   * done under it). Reading both is not atomic against a concurrent epoch change; the ledger is
   * the authoritative record, this is a lower bound kept with the state.
   */
  public long[] snapshot() {
    Epoch e = current;
    return new long[] {e.number, Math.min(budget, e.reserved)};
  }

  /** Indices claimed in the current epoch (an upper bound on its encryptions so far; tests, through EpochAeadProbe). */
  long claimedInEpoch() {
    return Math.min(current.claimed.get(), budget);
  }

  /** The epoch and first index this instance started from: {@code {epoch, index}} (tests, through EpochAeadProbe). */
  long[] started() {
    return new long[] {startEpoch, startUsed};
  }

  /** Encryptions per epoch. */
  public long budget() {
    return budget;
  }

  /** Number of epoch keys derived so far (tests: a forged header must not derive keys). */
  int derivedKeys() {
    return keys.size();
  }

  /** After this no encryption needs a new reservation: one that would fails (the state is closing). */
  public synchronized void close() {
    closed = true;
  }

  @Override
  public String toString() {
    return "EpochAead[AES-256-GCM, epoch " + current.number + ", budget " + budget + "]";
  }
}
