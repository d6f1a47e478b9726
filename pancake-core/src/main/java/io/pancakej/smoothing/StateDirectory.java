package io.pancakej.smoothing;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

import io.pancakej.IntegrityException;
import io.pancakej.StateException;
import io.pancakej.crypto.Aead;
import io.pancakej.crypto.KeyPurposes;
import io.pancakej.crypto.MasterKey;
import io.pancakej.state.SealedFile;

/**
 * A proxy state directory: a sealed state file ({@code state.bin}, AES-GCM under a key derived
 * from the master key, written atomically by temp file, fsync and rename) and an exclusive lock
 * ({@code state.lock}) so that two processes never drive one state at once. The file header
 * carries the master key's fingerprint in clear, so a wrong key is reported as such.
 *
 * <p>A third file, {@code epoch.bin}, is the value key's ledger (see
 * {@link io.pancakej.crypto.EpochAead}): the current key epoch and how many encryptions may have
 * been done under it, sealed and bound to the state's id, replaced atomically at every
 * reservation. It is tiny, so a read-only session can keep it current without re-sealing the
 * state.
 *
 * <p>Files {@code plan-<n>.bin} hold swapping plans saved ahead of their install ({@link SavedPlan}),
 * numbered in the order they were saved and bound to the state's id and their number; a checkpoint
 * that holds them deletes them.
 */
final class StateDirectory implements AutoCloseable {
  static final String STATE_FILE = "state.bin";
  static final String LOCK_FILE = "state.lock";
  static final String EPOCH_FILE = "epoch.bin";
  private static final byte[] EPOCH_MAGIC = "PCKJEP01".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] MAGIC = "PCKJST01".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] ASSOCIATED_DATA = "pancake-j proxy state v1".getBytes(StandardCharsets.US_ASCII);

  private final Path dir;
  private final FileChannel lockChannel;
  private final FileLock lock;

  private StateDirectory(Path dir, FileChannel lockChannel, FileLock lock) {
    this.dir = dir;
    this.lockChannel = lockChannel;
    this.lock = lock;
  }

  /** True if {@code dir} holds a state file. */
  static boolean exists(Path dir) {
    return Files.isRegularFile(dir.resolve(STATE_FILE));
  }

  /** Creates {@code dir} if needed and takes its exclusive lock. */
  static StateDirectory lock(Path dir) {
    Path abs = dir.toAbsolutePath().normalize();
    FileChannel channel = null;
    try {
      Files.createDirectories(abs);
      channel = FileChannel.open(abs.resolve(LOCK_FILE), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
      FileLock lock = channel.tryLock();
      if (lock == null) {
        channel.close();
        throw new StateException("state directory " + abs + " is in use by another process");
      }
      return new StateDirectory(abs, channel, lock);
    } catch (OverlappingFileLockException e) {
      closeQuietly(channel);
      throw new StateException("state directory " + abs + " is already open in this JVM", e);
    } catch (IOException e) {
      closeQuietly(channel);
      throw new StateException("cannot lock state directory " + abs + ": " + e.getMessage(), e);
    }
  }

  Path path() {
    return dir;
  }

  /** Seals and atomically replaces the state file. */
  void save(ProxyState state, MasterKey key) {
    save(state, key, STATE_FILE, ASSOCIATED_DATA);
  }

  /**
   * {@link #save}'s whole path into a scratch file, deleted after: a rehearsal that leaves the saved
   * state alone ({@code Checkpointer.rehearse}).
   */
  void rehearseSave(ProxyState state, MasterKey key) {
    save(state, key, REHEARSAL_FILE, REHEARSAL_ASSOCIATED_DATA); // never loadable as the state
    try {
      Files.deleteIfExists(dir.resolve(REHEARSAL_FILE));
    } catch (IOException e) {
      throw new StateException("cannot delete " + REHEARSAL_FILE + " in " + dir + ": " + e.getMessage(), e);
    }
  }

  static final String REHEARSAL_FILE = "state.rehearsal";

  /**
   * {@link #savePlan}'s whole path into a scratch file ({@code Transitions.rehearse}), sealed as
   * plan number 0, which no plan has (they start at 1), under a name no plan has, so it is never
   * loadable as one. The file and its temporary are deleted after, whether or not the save went
   * through (one a crash left is deleted by the next rehearsal).
   */
  void rehearseSavePlan(SavedPlan plan, MasterKey key, byte[] stateId) {
    try {
      writePlan(PLAN_REHEARSAL_FILE, 0, plan, key, stateId);
    } finally {
      try {
        Files.deleteIfExists(dir.resolve(PLAN_REHEARSAL_FILE));
        Files.deleteIfExists(dir.resolve(PLAN_REHEARSAL_FILE + ".tmp"));
        SealedFile.forceDirectory(dir);
      } catch (IOException e) {
        throw new StateException("cannot delete " + PLAN_REHEARSAL_FILE + " in " + dir + ": " + e.getMessage(), e);
      }
    }
  }

  static final String PLAN_REHEARSAL_FILE = "plan.rehearsal";
  private static final byte[] REHEARSAL_ASSOCIATED_DATA =
      "pancake-j proxy state rehearsal v1".getBytes(StandardCharsets.US_ASCII);

  private void save(ProxyState state, MasterKey key, String name, byte[] associatedData) {
    byte[] fingerprint = key.fingerprint().getBytes(StandardCharsets.US_ASCII);
    byte[] sealed = new Aead(key.derive(KeyPurposes.STATE_SEAL)).encrypt(state.toBytes(), associatedData);
    ByteBuffer out = ByteBuffer.allocate(MAGIC.length + 1 + fingerprint.length + sealed.length);
    out.put(MAGIC).put((byte) fingerprint.length).put(fingerprint).put(sealed);
    replace(name, out);
  }

  /** Writes {@code content} to {@code name} atomically and durably ({@link SealedFile#replace}). */
  private void replace(String name, ByteBuffer out) {
    try {
      SealedFile.replace(dir, name, out);
    } catch (IOException e) {
      throw new StateException("cannot write " + name + " to " + dir + ": " + e.getMessage(), e);
    }
  }

  private static byte[] epochAssociatedData(byte[] stateId) {
    byte[] ad = Arrays.copyOf(EPOCH_MAGIC, EPOCH_MAGIC.length + stateId.length);
    System.arraycopy(stateId, 0, ad, EPOCH_MAGIC.length, stateId.length);
    return ad;
  }

  /**
   * Durably records the value key's epoch and reserved count (the {@link io.pancakej.crypto.EpochAead}
   * ledger) for the state {@code stateId}; returns only once the file is on disk.
   */
  void saveKeyEpoch(ProxyState.KeyEpoch epoch, MasterKey key, byte[] stateId) {
    byte[] plain = ByteBuffer.allocate(12).putInt(epoch.epoch()).putLong(epoch.used()).array();
    byte[] sealed = new Aead(key.derive(KeyPurposes.EPOCH_LEDGER)).encrypt(plain, epochAssociatedData(stateId));
    ByteBuffer out = ByteBuffer.allocate(EPOCH_MAGIC.length + sealed.length);
    out.put(EPOCH_MAGIC).put(sealed);
    replace(EPOCH_FILE, out);
  }

  /** Reads the value key's ledger of state {@code stateId}; a missing or damaged file is a {@link StateException}. */
  ProxyState.KeyEpoch loadKeyEpoch(MasterKey key, byte[] stateId) {
    Path file = dir.resolve(EPOCH_FILE);
    byte[] data;
    try {
      data = Files.readAllBytes(file);
    } catch (IOException e) {
      throw new StateException("cannot read the key-epoch file " + file + " (" + e.getMessage() + "): it records how"
          + " often the value key was used and is part of the state; restore it with the rest of the state directory", e);
    }
    if (data.length < EPOCH_MAGIC.length || !Arrays.equals(Arrays.copyOf(data, EPOCH_MAGIC.length), EPOCH_MAGIC)) {
      throw new StateException("file " + file + " is not a PANCAKE-J key-epoch file (damaged or truncated)");
    }
    byte[] plain;
    try {
      plain = new Aead(key.derive(KeyPurposes.EPOCH_LEDGER))
          .decrypt(Arrays.copyOfRange(data, EPOCH_MAGIC.length, data.length), epochAssociatedData(stateId));
    } catch (IntegrityException e) {
      throw new StateException("key-epoch file " + file + " is damaged or belongs to another state", e);
    }
    ByteBuffer b = ByteBuffer.wrap(plain);
    if (plain.length != 12) {
      throw new StateException("key-epoch file " + file + " is damaged (wrong length)");
    }
    int epoch = b.getInt();
    long used = b.getLong();
    if (epoch < 0 || used < 0) {
      throw new StateException("key-epoch file " + file + " is damaged (negative epoch or count)");
    }
    return new ProxyState.KeyEpoch(epoch, used);
  }

  /** Reads and authenticates the state file. */
  ProxyState load(MasterKey key) {
    Path file = dir.resolve(STATE_FILE);
    byte[] data;
    try {
      data = Files.readAllBytes(file);
    } catch (IOException e) {
      throw new StateException("cannot read proxy state " + file + ": " + e.getMessage(), e);
    }
    if (data.length < MAGIC.length + 1 || !Arrays.equals(Arrays.copyOf(data, MAGIC.length), MAGIC)) {
      throw new StateException("file " + file + " is not a PANCAKE-J state file (damaged or truncated)");
    }
    int fpLength = data[MAGIC.length] & 0xff;
    int sealedStart = MAGIC.length + 1 + fpLength;
    if (data.length < sealedStart) {
      throw new StateException("proxy state " + file + " is truncated");
    }
    String fingerprint = new String(data, MAGIC.length + 1, fpLength, StandardCharsets.US_ASCII);
    if (!fingerprint.equals(key.fingerprint())) {
      throw new IntegrityException("the master key does not match proxy state " + file
          + " (key fingerprint " + key.fingerprint() + ", state was sealed under " + fingerprint
          + "); use the key file this state was created with");
    }
    byte[] plain;
    try {
      plain = new Aead(key.derive(KeyPurposes.STATE_SEAL))
          .decrypt(Arrays.copyOfRange(data, sealedStart, data.length), ASSOCIATED_DATA);
    } catch (IntegrityException e) {
      throw new StateException("proxy state " + file + " is damaged or truncated (authentication failed)", e);
    }
    return ProxyState.fromBytes(plain);
  }

  private static final String PLAN_PREFIX = "plan-";
  private static final String PLAN_SUFFIX = ".bin";
  private static final byte[] PLAN_MAGIC = "PCKJPL01".getBytes(StandardCharsets.US_ASCII);

  /** A saved plan and its number. */
  record NumberedPlan(long number, SavedPlan plan) {}

  static String planFile(long number) {
    // not String.format: its first call loads the locale data (some 60 classes), and the first plan
    // saved ahead paid for that while the ticks ran (results/timing/plan-rehearsal)
    String digits = Long.toString(number);
    return PLAN_PREFIX + "0".repeat(Math.max(0, 20 - digits.length())) + digits + PLAN_SUFFIX;
  }

  private static byte[] planAssociatedData(byte[] stateId, long number) {
    return ByteBuffer.allocate(PLAN_MAGIC.length + stateId.length + 8).put(PLAN_MAGIC).put(stateId).putLong(number)
        .array();
  }

  /** Seals {@code plan} as plan number {@code number} of state {@code stateId}; returns once it is on disk. */
  void savePlan(long number, SavedPlan plan, MasterKey key, byte[] stateId) {
    writePlan(planFile(number), number, plan, key, stateId);
  }

  /** {@code plan} sealed as plan {@code number} of state {@code stateId}, written to {@code name}. */
  private void writePlan(String name, long number, SavedPlan plan, MasterKey key, byte[] stateId) {
    byte[] sealed = new Aead(key.derive(KeyPurposes.STATE_SEAL)).encrypt(plan.toBytes(),
        planAssociatedData(stateId, number));
    replace(name, ByteBuffer.allocate(PLAN_MAGIC.length + sealed.length).put(PLAN_MAGIC).put(sealed));
  }

  /**
   * The saved plans of state {@code stateId}, in the order they were saved. One that cannot be read
   * or authenticated is a {@link StateException}: it may describe swaps that reached the store.
   */
  List<NumberedPlan> loadPlans(MasterKey key, byte[] stateId) {
    List<NumberedPlan> plans = new ArrayList<>();
    Aead aead = new Aead(key.derive(KeyPurposes.STATE_SEAL));
    for (long number : planNumbers()) {
      Path file = dir.resolve(planFile(number));
      byte[] data;
      try {
        data = Files.readAllBytes(file);
      } catch (IOException e) {
        throw new StateException("cannot read saved plan " + file + " (" + e.getMessage() + "): it records replica"
            + " swaps that may have reached the store; restore it with the rest of the state directory", e);
      }
      if (data.length < PLAN_MAGIC.length || !Arrays.equals(PLAN_MAGIC, 0, PLAN_MAGIC.length, data, 0, PLAN_MAGIC.length)) {
        throw new StateException("file " + file + " is not a PANCAKE-J saved plan (damaged or truncated)");
      }
      byte[] plain;
      try {
        plain = aead.decrypt(Arrays.copyOfRange(data, PLAN_MAGIC.length, data.length),
            planAssociatedData(stateId, number));
      } catch (IntegrityException e) {
        throw new StateException("saved plan " + file + " is damaged or belongs to another state (authentication"
            + " failed); it may record replica swaps that reached the store", e);
      }
      plans.add(new NumberedPlan(number, SavedPlan.fromBytes(plain)));
    }
    return plans;
  }

  /** Deletes saved plan number {@code number}, durably (a reopen must not find it). */
  void deletePlan(long number) {
    try {
      Files.deleteIfExists(dir.resolve(planFile(number)));
      SealedFile.forceDirectory(dir);
    } catch (IOException e) {
      throw new StateException("cannot delete saved plan " + dir.resolve(planFile(number)) + ": " + e.getMessage(), e);
    }
  }

  /** Deletes the saved plans numbered up to {@code number}. */
  void deletePlans(long number) {
    deletePlanFiles(name -> {
      long n = planNumber(name);
      return n > 0 && n <= number;
    });
  }

  /** Deletes what a plan's save left unfinished (at open and at a new state: no plan is being saved then). */
  void deleteUnfinishedPlans() {
    deletePlanFiles(name -> name.startsWith(PLAN_PREFIX) && name.endsWith(PLAN_SUFFIX + ".tmp"));
  }

  private void deletePlanFiles(java.util.function.Predicate<String> which) {
    try (Stream<Path> files = Files.list(dir)) {
      for (Path f : (Iterable<Path>) files::iterator) {
        if (which.test(f.getFileName().toString())) {
          Files.deleteIfExists(f);
        }
      }
    } catch (IOException e) {
      throw new StateException("cannot delete saved plans in " + dir + ": " + e.getMessage(), e);
    }
  }

  /** A saved plan's file name: the prefix, 20 digits, the suffix; other names are not plans. */
  private static final java.util.regex.Pattern PLAN_NAME = java.util.regex.Pattern.compile("plan-[0-9]{20}\\.bin");

  /** The numbers of the saved plans, ascending. */
  private long[] planNumbers() {
    try (Stream<Path> files = Files.list(dir)) {
      return files.mapToLong(f -> planNumber(f.getFileName().toString())).filter(n -> n > 0).sorted().toArray();
    } catch (IOException e) {
      throw new StateException("cannot list the saved plans in " + dir + ": " + e.getMessage(), e);
    }
  }

  /** The number of saved plan file {@code name}, or -1 if the name is not a saved plan's. */
  static long planNumber(String name) {
    if (!PLAN_NAME.matcher(name).matches()) {
      return -1;
    }
    try {
      return Long.parseLong(name.substring(PLAN_PREFIX.length(), name.length() - PLAN_SUFFIX.length()));
    } catch (NumberFormatException e) {
      return -1; // beyond any number a proxy gives
    }
  }

  private static void closeQuietly(FileChannel ch) {
    if (ch != null) {
      try {
        ch.close();
      } catch (IOException ignored) {
        // nothing to do
      }
    }
  }

  /** Releases the lock. Idempotent. */
  @Override
  public void close() {
    try {
      if (lock.isValid()) {
        lock.release();
      }
      lockChannel.close();
    } catch (IOException e) {
      throw new StateException("cannot release the lock of " + dir, e);
    }
  }
}
