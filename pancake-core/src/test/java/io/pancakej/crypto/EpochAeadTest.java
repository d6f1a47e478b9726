package io.pancakej.crypto;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import io.pancakej.IntegrityException;
import io.pancakej.PancakeException;

class EpochAeadTest {
  private final MasterKey master = MasterKey.generate(new SecureRandom());
  private final Random random = new Random(5);

  /** Ledger records, in order, and the largest limit recorded per epoch. */
  private final List<long[]> records = new ArrayList<>();
  private final Map<Integer, Long> limits = new ConcurrentHashMap<>();

  private EpochAead aead(int epoch, long used, long budget) {
    return new EpochAead(e -> master.derive("test epoch " + e), epoch, used, budget, (e, limit) -> {
      synchronized (records) {
        records.add(new long[] {e, limit});
      }
      limits.merge(e, limit, Math::max);
    });
  }

  private byte[] bytes(int n) {
    byte[] b = new byte[n];
    random.nextBytes(b);
    return b;
  }

  @Test
  void tinyBudget_changesEpochs_oldCiphertextsStillDecrypt_andEveryLengthIsTheSame() {
    EpochAead aead = aead(0, 0, 7);
    byte[] label = bytes(16);
    List<byte[]> plains = new ArrayList<>();
    List<byte[]> sealed = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      byte[] p = bytes(200);
      plains.add(p);
      sealed.add(aead.encrypt(p, label));
    }
    assertEquals(14, aead.epoch(), "100 encryptions at 7 per epoch fill epochs 0..13 and start 14");
    Map<Integer, Integer> perEpoch = new HashMap<>();
    for (int i = 0; i < sealed.size(); i++) {
      byte[] ct = sealed.get(i);
      assertEquals(200 + EpochAead.OVERHEAD, ct.length, "length must not depend on the epoch");
      perEpoch.merge(EpochAead.epochOf(ct), 1, Integer::sum);
      assertArrayEquals(plains.get(i), aead.decrypt(ct, label), "ciphertext " + i);
    }
    perEpoch.forEach((e, n) -> assertTrue(n <= 7, "epoch " + e + " sealed " + n + " messages"));
    assertEquals(15, perEpoch.size());
    // every epoch was recorded before its first encryption, in increasing order
    long last = -1;
    for (long[] r : records) {
      assertTrue(r[0] >= last);
      last = r[0];
    }
    assertEquals(14, last);
  }

  @Test
  void tamperedEpochHeader_failsWithIntegrityException_andDerivesNoKey() {
    EpochAead aead = aead(0, 0, 3);
    byte[] label = bytes(16);
    byte[] old = aead.encrypt(bytes(40), label); // epoch 0
    for (int i = 0; i < 10; i++) {
      aead.encrypt(bytes(40), label);
    }
    byte[] ct = aead.encrypt(bytes(40), label);
    int epoch = EpochAead.epochOf(ct);
    assertEquals(3, epoch);
    int keysBefore = aead.derivedKeys();
    for (int i = 0; i < EpochAead.HEADER_BYTES; i++) {
      for (int bit = 0; bit < 8; bit++) {
        byte[] tampered = ct.clone();
        tampered[i] ^= (byte) (1 << bit);
        assertThrows(IntegrityException.class, () -> aead.decrypt(tampered, label), "byte " + i + " bit " + bit);
      }
    }
    // an earlier, real epoch named in the header: its key, but the tag covers the header
    for (int e = 0; e < epoch; e++) {
      byte[] moved = ct.clone();
      moved[3] = (byte) e;
      assertThrows(IntegrityException.class, () -> aead.decrypt(moved, label));
    }
    // and an old ciphertext relabelled as the current epoch
    byte[] promoted = old.clone();
    promoted[3] = (byte) epoch;
    assertThrows(IntegrityException.class, () -> aead.decrypt(promoted, label));
    // future and negative epochs are refused before any key derivation
    for (int e : new int[] {epoch + 1, 1 << 20, Integer.MAX_VALUE, -1, Integer.MIN_VALUE}) {
      byte[] forged = ct.clone();
      forged[0] = (byte) (e >>> 24);
      forged[1] = (byte) (e >>> 16);
      forged[2] = (byte) (e >>> 8);
      forged[3] = (byte) e;
      assertThrows(IntegrityException.class, () -> aead.decrypt(forged, label), "epoch " + e);
    }
    assertEquals(keysBefore, aead.derivedKeys(), "a forged header must not derive keys");
    assertThrows(IntegrityException.class, () -> aead.decrypt(new byte[EpochAead.OVERHEAD - 1], label));
    assertThrows(IntegrityException.class, () -> aead.decrypt(null, label));
  }

  @Test
  void anyFlippedBitOrOtherLabel_failsWithIntegrityException() {
    EpochAead aead = aead(0, 0, 1000);
    byte[] label = bytes(16);
    byte[] ct = aead.encrypt(bytes(24), label);
    for (int i = 0; i < ct.length; i++) {
      byte[] tampered = ct.clone();
      tampered[i] ^= 0x40;
      assertThrows(IntegrityException.class, () -> aead.decrypt(tampered, label), "byte " + i);
    }
    assertThrows(IntegrityException.class, () -> aead.decrypt(ct, bytes(16)));
  }

  @Test
  void concurrentEncryptions_neverExceedTheBudget_orTheRecordedReservation() throws Exception {
    long budget = 10_000; // blocks of 4096: reservations within an epoch, then epoch changes
    EpochAead aead = aead(0, 0, budget);
    Map<Integer, AtomicInteger> counts = new ConcurrentHashMap<>();
    Thread[] threads = new Thread[4];
    List<Throwable> failures = new ArrayList<>();
    for (int t = 0; t < threads.length; t++) {
      threads[t] = new Thread(() -> {
        try {
          byte[] p = new byte[8];
          for (int i = 0; i < 15_000; i++) {
            byte[] ct = aead.encrypt(p, null);
            int e = EpochAead.epochOf(ct);
            int n = counts.computeIfAbsent(e, x -> new AtomicInteger()).incrementAndGet();
            // the ledger already allowed this message when it was sealed
            if (n > limits.getOrDefault(e, 0L)) {
              throw new AssertionError("epoch " + e + " sealed message " + n + " beyond its recorded limit");
            }
          }
        } catch (Throwable x) {
          synchronized (failures) {
            failures.add(x);
          }
        }
      });
      threads[t].start();
    }
    for (Thread t : threads) {
      t.join();
    }
    assertTrue(failures.isEmpty(), () -> failures.get(0).toString());
    assertTrue(aead.epoch() >= 5, "60000 encryptions at 10000 per epoch");
    counts.forEach((e, n) -> assertTrue(n.get() <= budget, "epoch " + e + ": " + n));
  }

  @Test
  void resumingFromTheLedger_continuesAfterTheRecordedCount_orStartsTheNextEpoch() {
    EpochAead first = aead(0, 0, 10_000);
    byte[] ct = first.encrypt(bytes(10), null);
    long[] last = records.get(records.size() - 1);
    assertEquals(0, last[0]);
    assertEquals(4096, last[1], "first reservation: one block");

    EpochAead resumed = aead((int) last[0], last[1], 10_000);
    assertArrayEquals(new long[] {0, 4096}, resumed.started());
    assertEquals(10, resumed.decrypt(ct, null).length);
    resumed.encrypt(bytes(10), null);
    assertEquals(8192, records.get(records.size() - 1)[1], "the next reservation starts after the recorded one");

    EpochAead spent = aead(4, 10_000, 10_000);
    assertArrayEquals(new long[] {5, 0}, spent.started(), "a spent epoch is never resumed");
    assertEquals(5, EpochAead.epochOf(spent.encrypt(bytes(1), null)));
  }

  @Test
  void aFailingLedger_failsTheEncryption_andNothingIsSealedUnrecorded() {
    boolean[] fail = {true};
    EpochAead aead = new EpochAead(e -> master.derive("x" + e), 0, 0, 100, (e, limit) -> {
      if (fail[0]) {
        throw new PancakeException("disk full");
      }
    });
    assertThrows(PancakeException.class, () -> aead.encrypt(bytes(4), null));
    assertThrows(PancakeException.class, () -> aead.encrypt(bytes(4), null));
    fail[0] = false;
    assertEquals(0, EpochAead.epochOf(aead.encrypt(bytes(4), null)));
    aead.close();
    for (int index = 3; index < 100; index++) { // indices 0 and 1 went to the failed attempts
      aead.encrypt(bytes(4), null); // within the reservation made before closing
    }
    assertThrows(PancakeException.class, () -> aead.encrypt(bytes(4), null), "no new reservation after close");
  }
}
