package io.pancakej.state;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;

import io.pancakej.IntegrityException;
import io.pancakej.StateException;
import io.pancakej.crypto.Aead;

/**
 * A state file that is a plaintext magic followed by one AES-GCM seal (the magic as associated
 * data), replaced atomically and durably: the framing the Path ORAM and DetWoORAM clients share
 * (the PANCAKE proxy's own state files add a key fingerprint or a state id, and use only
 * {@link #replace}). Errors name the file and what it was meant to be ({@code what}, e.g. "Path
 * ORAM").
 *
 * <p>Internal: public only because those clients and the proxy live in other packages and modules;
 * not an API of its own.
 */
public final class SealedFile {
  private SealedFile() {}

  /** Seals {@code plaintext} (then zeroes it) and replaces {@code dir/name} with magic + seal. */
  public static void write(Path dir, String name, byte[] magic, Aead aead, byte[] plaintext, String what) {
    byte[] sealed = aead.encrypt(plaintext, magic);
    Arrays.fill(plaintext, (byte) 0);
    ByteBuffer content = ByteBuffer.allocate(magic.length + sealed.length).put(magic).put(sealed);
    try {
      Files.createDirectories(dir);
      replace(dir, name, content);
    } catch (IOException e) {
      throw new StateException("cannot write " + what + " state file " + dir.resolve(name) + ": " + e.getMessage(), e);
    }
  }

  /** The plaintext of {@code file}, checked: its magic, then its seal. */
  public static byte[] read(Path file, byte[] magic, Aead aead, String what) {
    byte[] all;
    try {
      all = Files.readAllBytes(file);
    } catch (IOException e) {
      throw new StateException("cannot read " + what + " state file " + file + ": " + e.getMessage(), e);
    }
    if (all.length < magic.length || !Arrays.equals(magic, 0, magic.length, all, 0, magic.length)) {
      throw new StateException("file " + file + " is not a " + what + " state file (" + all.length
          + " bytes, bad header): it is truncated or was written by something else");
    }
    try {
      return aead.decrypt(Arrays.copyOfRange(all, magic.length, all.length), magic);
    } catch (IntegrityException e) {
      throw new IntegrityException(what + " state file " + file + " failed authentication: it is truncated"
          + " or was tampered with, or the master key is not the one it was sealed with", e);
    }
  }

  /**
   * Writes {@code content} (from its start to its position) to {@code dir/name} atomically and
   * durably: temporary file, fsync, rename, directory fsync (best effort: some file systems cannot
   * fsync a directory; the rename is still atomic).
   */
  public static void replace(Path dir, String name, ByteBuffer content) throws IOException {
    Path tmp = dir.resolve(name + ".tmp");
    try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
        StandardOpenOption.TRUNCATE_EXISTING)) {
      content.flip();
      while (content.hasRemaining()) {
        ch.write(content);
      }
      ch.force(true);
    }
    try {
      Files.move(tmp, dir.resolve(name), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (AtomicMoveNotSupportedException e) {
      Files.move(tmp, dir.resolve(name), StandardCopyOption.REPLACE_EXISTING);
    }
    forceDirectory(dir);
  }

  /**
   * Forces {@code dir}'s entries to disk (a created, renamed or deleted file then survives a power
   * loss), best effort: some file systems cannot fsync a directory.
   */
  public static void forceDirectory(Path dir) {
    try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
      d.force(true);
    } catch (IOException | UnsupportedOperationException ignored) {
      // best effort, as above
    }
  }
}
