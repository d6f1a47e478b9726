package io.pancakej.smoothing;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.LongFunction;

import io.pancakej.IntegrityException;
import io.pancakej.StateException;
import io.pancakej.WalSync;
import io.pancakej.crypto.Aead;

/**
 * The proxy's write-ahead log: every change a checkpoint of the state would otherwise lose --
 * a key bound to a slot, a new latest value, a slot freed -- is appended here before the request
 * that caused it is acknowledged. Files are {@code wal.<seq>} in the state directory; a checkpoint
 * starts a new sequence number, saves the state naming it, and deletes older files (and a record
 * that would take a file past {@link #MAX_FILE_BYTES} goes to the next number at once). Each record
 * is {@code length(4) || AES-GCM(plaintext)} with the file's sequence number as associated data, so a
 * damaged record is detected; a torn record at the very end of the newest file is what a crash
 * mid-append leaves, and replay stops there. What a plaintext holds is {@link LogRecord}'s to say.
 *
 * <p>Each file has its own key ({@code keyOfFile.apply(seq)}; the proxy derives it from the master
 * key, the state's id and the sequence number), so AES-GCM key use is bounded by what one file
 * holds: at most 64 MiB (or one larger record), i.e. at most about 1.8 million records (a record seals at
 * least 5 bytes into 37), far below the 2^32 encryptions NIST SP 800-38D allows a key with random
 * nonces, however long the checkpoint interval. Sequence numbers only grow within a state, so no
 * key is used for two files. Starting a file that way is the log's own affair: it opens a file and
 * pauses nothing (a checkpoint's pause stays on its fixed schedule).
 *
 * <p>Sync policies are {@link WalSync}'s: {@code OFF} logs nothing; {@code WRITE} hands each record
 * to the operating system before returning; {@code FSYNC} also forces the file to disk
 * ({@link #syncTo}, grouped across concurrent appends).
 *
 * <p>With {@code WRITE} (not on Windows: {@link #MAPS_FILES}) a record is copied into mapped chunks
 * of the file ({@value #CHUNK_BYTES} bytes each, contiguous, a record may span two) instead of
 * costing a {@code write} call: the page cache holds it either way, and a killed process loses
 * neither. A chunk is allocated with one write of zeros (so a full disk fails there and not as a
 * fault) and its pages touched by {@link #prepare}, on another thread, before an append needs it;
 * the next file, with its first chunk, is opened the same way before this one is full
 * ({@link #prepareNextFile}). An append then makes no system call and takes no page fault, unless
 * the preparation fell behind, when it allocates the chunk itself. A closed or retired file is cut
 * back to its records; a crash leaves the unused zeros after them, which replay reads as the file's
 * end, and a prepared file holding only zeros counts as holding no record. {@code FSYNC} writes, so
 * that its fsync covers exactly what was written.
 */
final class WriteAheadLog implements AutoCloseable {
  private static final String PREFIX = "wal.";
  /** A file this long gets no more records: the next go to a new file under a new key. */
  static final long MAX_FILE_BYTES = 64L << 20;
  /** Bytes of the file mapped at a time for {@code WRITE}'s appends (a larger record spans several). */
  static final int CHUNK_BYTES = 1 << 20;
  /** What a chunk is allocated with, shared read-only (a direct buffer: written without a copy). */
  private static final ByteBuffer ZEROS = ByteBuffer.allocateDirect(CHUNK_BYTES).asReadOnlyBuffer();
  /**
   * Windows refuses to cut or delete a file while a mapping of it is open, and Java unmaps only when
   * the buffer is collected: there {@code WRITE} writes its records, as {@code FSYNC} does.
   */
  static final boolean MAPS_FILES = !System.getProperty("os.name", "").toLowerCase(java.util.Locale.ROOT)
      .startsWith("windows");

  private final Path dir;
  private final LongFunction<Aead> keyOfFile;
  private Aead aead;
  private final WalSync sync;
  /** Records are copied into mapped chunks ({@code WRITE}, where the OS lets a mapped file be cut and deleted). */
  private final boolean mapped;
  private final long maxFileBytes;
  private long seq;
  private FileChannel channel;
  private long written;
  /** Where this log's records in the current file begin: the file's length when it was opened. */
  private long fileStart;
  /** {@code WRITE}: the mapped chunk the next records are copied into (null: map one at the next append). */
  private MappedByteBuffer chunk;
  /** {@code WRITE}: a record's length prefix, reused by every append (they hold the log's lock). */
  private final byte[] frameLength = new byte[4];
  private long synced;
  /** The first append or fsync failure; every later append fails with it. */
  private volatile StateException broken;
  /** Files rotated away from and not yet forced and closed ({@link #closeRetired}). */
  private final java.util.List<Retired> retired = new java.util.ArrayList<>();

  /** A file rotated away from, and where its records end (a mapped one is cut there when it is closed). */
  private record Retired(FileChannel channel, long end) {}

  /** A file opened for sequence number {@code seq} before the log rotates to it, its first chunk allocated. */
  private record NextFile(long seq, FileChannel channel, long length, Aead aead, MappedByteBuffer firstChunk) {}

  // What {@link #prepare} has allocated ahead of the appends. Lock order: this, then one of these two.
  private final Object chunks = new Object();
  /** Guarded by {@code chunks}: the file chunks are allocated in (the current one). */
  private FileChannel chunkFile;
  /** Guarded by {@code chunks}: where the next chunk starts (the end of the last one allocated). */
  private long allocatedEnd;
  /** Guarded by {@code chunks}: where the current file's records must end ({@code fileStart + maxFileBytes}). */
  private long fileLimit;
  /** Guarded by {@code chunks}: the chunk after the current one, allocated and touched (null: none yet). */
  private MappedByteBuffer spare;
  private final Object nextFiles = new Object();
  /** Guarded by {@code nextFiles}: the current file's sequence number, as the next file's preparation sees it. */
  private long preparedAfter;
  /** Guarded by {@code nextFiles}: the file to rotate to, opened ahead (null: none yet). */
  private NextFile nextFile;
  /** Written under {@code nextFiles}: closed, so no file is opened ahead any more, and nothing appended. */
  private volatile boolean closed;
  /** An append took the spare chunk or a rotation its file: {@link #prepare} has work. */
  private volatile boolean wantsPreparation;

  private WriteAheadLog(Path dir, LongFunction<Aead> keyOfFile, WalSync sync, long seq, long maxFileBytes) {
    this.dir = dir;
    this.keyOfFile = keyOfFile;
    this.aead = sync == WalSync.OFF ? null : keyOfFile.apply(seq);
    this.sync = sync;
    this.mapped = sync == WalSync.WRITE && MAPS_FILES;
    this.seq = seq;
    this.maxFileBytes = maxFileBytes;
    this.preparedAfter = seq;
  }

  /** Opens a new log file {@code wal.<seq>} for appending; file {@code s} is sealed under {@code keyOfFile.apply(s)}. */
  static WriteAheadLog open(Path dir, LongFunction<Aead> keyOfFile, WalSync sync, long seq) {
    return open(dir, keyOfFile, sync, seq, MAX_FILE_BYTES);
  }

  /** {@link #open} with another file length limit (tests). */
  static WriteAheadLog open(Path dir, LongFunction<Aead> keyOfFile, WalSync sync, long seq, long maxFileBytes) {
    WriteAheadLog log = new WriteAheadLog(dir, keyOfFile, sync, seq, maxFileBytes);
    if (sync != WalSync.OFF) {
      FileChannel ch = log.openFile(seq);
      log.useFile(ch, log.lengthOf(ch), null);
    }
    return log;
  }

  private FileChannel openFile(long s) {
    FileChannel ch;
    try {
      // WRITE maps the file, which needs it readable, and places records itself; FSYNC appends
      ch = FileChannel.open(dir.resolve(PREFIX + s), StandardOpenOption.CREATE, StandardOpenOption.WRITE,
          mapped ? StandardOpenOption.READ : StandardOpenOption.APPEND);
    } catch (IOException e) {
      throw new StateException("cannot open write-ahead log in " + dir + ": " + e.getMessage(), e);
    }
    if (sync == WalSync.FSYNC) {
      // fsync'ed records are only durable if the file's directory entry is
      io.pancakej.state.SealedFile.forceDirectory(dir);
    }
    return ch;
  }

  /** How much a freshly opened log file already holds (closing it if that cannot be read). */
  private long lengthOf(FileChannel ch) {
    try {
      return ch.size();
    } catch (IOException e) {
      try {
        ch.close();
      } catch (IOException ignored) {
        // the open fails anyway
      }
      throw new StateException("cannot open write-ahead log in " + dir + ": " + e.getMessage(), e);
    }
  }

  /**
   * Makes {@code ch} the file records go to, after the {@code length} bytes it already holds
   * ({@code firstChunk}: its first chunk, allocated ahead, or null).
   */
  private void useFile(FileChannel ch, long length, MappedByteBuffer firstChunk) {
    channel = ch;
    fileStart = length;
    chunk = null;
    if (mapped) {
      synchronized (chunks) {
        chunkFile = ch;
        fileLimit = length + maxFileBytes;
        spare = firstChunk;
        allocatedEnd = length + (firstChunk == null ? 0 : firstChunk.capacity());
      }
      wantsPreparation = true;
    }
  }

  /**
   * Cuts a mapped file back to its records, which end at {@code end}. Should that fail, the
   * chunk's unused zeros stay after them, as a crash leaves them, and replay reads them as the
   * file's end.
   */
  private void cutToRecords(FileChannel ch, long end) {
    if (!mapped) {
      return;
    }
    try {
      ch.truncate(end);
    } catch (IOException ignored) {
      // harmless: see above
    }
  }

  /** Whether an append is a copy into memory the log prepared ahead ({@code WRITE} where files are mapped). */
  boolean appendsByCopy() {
    return mapped;
  }

  /** Whether {@link #prepare} has work: an append took the chunk or the file prepared for it. */
  boolean wantsPreparation() {
    return wantsPreparation;
  }

  /**
   * Allocates the current file's next chunk, and touches its pages, if none is ready; once the
   * chunks reach the file's limit, opens the next file instead ({@link #prepareNextFile}). Run off
   * the threads that append, so that they find what they need. A failure here is not the log's:
   * the append that needs the chunk allocates it itself, and reports the failure then.
   */
  void prepare() {
    if (!mapped) {
      return;
    }
    wantsPreparation = false;
    boolean full;
    synchronized (chunks) {
      if (spare == null && allocatedEnd < fileLimit && chunkFile != null) {
        try {
          spare = allocateNext();
        } catch (IOException | InternalError e) {
          return; // see above
        }
      }
      full = allocatedEnd >= fileLimit; // the file's last chunk is allocated: its successor is next
    }
    if (full) {
      prepareNextFile();
    }
  }

  /**
   * Opens the file the log rotates to next, with its first chunk allocated, if it is not open yet
   * (the checkpoint calls this before it holds off the ticks to rotate). A failure is left to the
   * rotation, which opens the file itself.
   */
  void prepareNextFile() {
    if (!mapped) {
      return;
    }
    synchronized (nextFiles) {
      long next = preparedAfter + 1;
      if (nextFile != null || broken != null || closed) {
        return;
      }
      FileChannel ch = null;
      try {
        ch = openFile(next);
        long length = lengthOf(ch);
        nextFile = new NextFile(next, ch, length, keyOfFile.apply(next), allocate(ch, length));
      } catch (IOException | InternalError | StateException e) {
        if (ch != null) {
          try {
            ch.close();
          } catch (IOException ignored) {
            // the rotation opens it again
          }
        }
      }
    }
  }

  /** One chunk of {@code ch} from {@code start}: allocated with a write of zeros, mapped, its pages touched. */
  private static MappedByteBuffer allocate(FileChannel ch, long start) throws IOException {
    for (long done = 0; done < CHUNK_BYTES; ) {
      done += ch.write(ZEROS.duplicate().position((int) done), start + done);
    }
    MappedByteBuffer m = ch.map(FileChannel.MapMode.READ_WRITE, start, CHUNK_BYTES);
    for (int page = 0; page < CHUNK_BYTES; page += 4096) {
      m.put(page, (byte) 0); // a write fault now, so that the append that copies here takes none
    }
    return m;
  }

  WalSync sync() {
    return sync;
  }

  /** The current file's sequence number. */
  synchronized long sequence() {
    return seq;
  }

  /** Bytes appended to the current file (0 right after a rotation, also one the log started itself). */
  synchronized long size() {
    return written;
  }

  /**
   * Appends one record; returns its end position (for {@link #syncTo}). After an append or fsync
   * failed, every later append fails with that error: a torn record stays the file's tail, which
   * replay drops, instead of being followed by records that replay would then call damage.
   */
  long append(LogRecord record) {
    if (sync == WalSync.OFF) {
      return 0;
    }
    StateException b = broken;
    if (b != null) {
      throw new StateException("the write-ahead log in " + dir + " failed earlier: " + b.getMessage(), b);
    }
    byte[] plain = record.encode();
    synchronized (this) {
      if (closed) {
        // a late append (a request finishing after close frees its key's slot) must not open a file
        throw new StateException("the write-ahead log in " + dir + " is closed");
      }
      if (written > 0 && written + 4 + plain.length + Aead.OVERHEAD > maxFileBytes) {
        try {
          rotate(); // bounds what one key seals; the next checkpoint deletes the full file with the others
        } catch (StateException e) {
          broken = e; // no new file: writing on under the full file's key would break the bound
          throw e;
        }
      }
      byte[] sealed = aead.encrypt(plain, associatedData(seq));
      try {
        if (mapped) {
          copyToChunk(sealed);
        } else {
          ByteBuffer buf = ByteBuffer.allocate(4 + sealed.length).putInt(sealed.length).put(sealed);
          buf.flip();
          while (buf.hasRemaining()) {
            channel.write(buf);
          }
        }
      } catch (IOException | InternalError e) {
        // InternalError: the JVM's report of a fault on a mapped page (an I/O error behind it)
        broken = new StateException("cannot append to the write-ahead log in " + dir + ": " + e.getMessage(), e);
        throw broken;
      }
      written += 4 + sealed.length;
      return written;
    }
  }

  /** Copies one framed record into the mapped chunks, moving on to the next chunk where one is full. */
  private void copyToChunk(byte[] sealed) throws IOException {
    for (int i = 0; i < 4; i++) {
      frameLength[i] = (byte) (sealed.length >>> (24 - 8 * i)); // big-endian, as replay's getInt reads it
    }
    copy(frameLength);
    copy(sealed);
  }

  private void copy(byte[] bytes) throws IOException {
    for (int done = 0; done < bytes.length; ) {
      if (chunk == null || !chunk.hasRemaining()) {
        chunk = nextChunk();
      }
      int n = Math.min(chunk.remaining(), bytes.length - done);
      chunk.put(bytes, done, n);
      done += n;
    }
  }

  /**
   * The chunk that follows the current one: the spare {@link #prepare} allocated, else one
   * allocated here (the preparation fell behind). The first chunk of a file starts at its records.
   */
  private MappedByteBuffer nextChunk() throws IOException {
    wantsPreparation = true;
    synchronized (chunks) {
      MappedByteBuffer next = spare;
      spare = null;
      return next != null ? next : allocateNext();
    }
  }

  /** The chunk after the last one allocated in the current file (holding {@code chunks}). */
  private MappedByteBuffer allocateNext() throws IOException {
    MappedByteBuffer next = allocate(chunkFile, allocatedEnd);
    allocatedEnd += CHUNK_BYTES;
    return next;
  }

  /**
   * With the fsync policy, forces the log to disk up to {@code position} (group commit). A
   * position appended before a {@link #rotate} lies in a retired file, which is forced first.
   */
  void syncTo(long position) {
    if (sync != WalSync.FSYNC) {
      return;
    }
    FileChannel ch;
    java.util.List<Retired> old;
    synchronized (this) {
      if (synced >= position && retired.isEmpty()) {
        return;
      }
      ch = channel;
      old = new java.util.ArrayList<>(retired);
    }
    for (Retired o : old) {
      try {
        o.channel().force(false);
      } catch (java.nio.channels.ClosedChannelException closed) {
        // closeRetired forced it before closing it
      } catch (IOException e) {
        throw new StateException("cannot fsync the write-ahead log in " + dir + ": " + e.getMessage(), e);
      }
    }
    synchronized (ch) {
      long target;
      synchronized (this) {
        if (synced >= position || ch != channel) {
          return;
        }
        target = written;
      }
      try {
        ch.force(false);
      } catch (IOException e) {
        broken = new StateException("cannot fsync the write-ahead log in " + dir + ": " + e.getMessage(), e);
        throw broken;
      }
      synchronized (this) {
        synced = Math.max(synced, target);
      }
    }
  }

  /**
   * Starts file {@code wal.<seq+1>} (the one {@link #prepareNextFile} opened, if it did); returns
   * the new sequence number. The old file is only set aside: cutting, forcing and closing it
   * ({@link #closeRetired}) is left to the caller, outside whatever it holds (a checkpoint holds off
   * the ticks only while it snapshots and rotates); files the log rotated away from itself, when
   * full, are left to the next checkpoint.
   */
  synchronized long rotate() {
    if (closed) {
      throw new StateException("the write-ahead log in " + dir + " is closed");
    }
    long next = seq + 1;
    if (sync != WalSync.OFF) {
      // nextFiles held throughout: a preparation must not open (and fill with zeros) the file this
      // rotation is opening itself
      synchronized (nextFiles) {
        NextFile prepared = nextFile != null && nextFile.seq() == next ? nextFile : null;
        // the new file is opened first: should that fail, this log keeps writing to the old one under
        // its own sequence number (records sealed for seq must never land in another file)
        FileChannel fresh = prepared != null ? prepared.channel() : openFile(next);
        long freshLength = prepared != null ? prepared.length() : lengthOf(fresh);
        Aead freshAead = prepared != null ? prepared.aead() : keyOfFile.apply(next);
        retired.add(new Retired(channel, fileStart + written));
        useFile(fresh, freshLength, prepared == null ? null : prepared.firstChunk());
        aead = freshAead;
        nextFile = null;
        preparedAfter = next;
      }
    }
    seq = next;
    written = 0;
    synced = 0;
    return next;
  }

  /** Cuts, forces and closes the files {@link #rotate} set aside. */
  void closeRetired() {
    java.util.List<Retired> old;
    synchronized (this) {
      old = new java.util.ArrayList<>(retired);
    }
    for (Retired o : old) {
      try {
        cutToRecords(o.channel(), o.end());
        o.channel().force(false);
        o.channel().close();
      } catch (IOException e) {
        throw new StateException("cannot close the write-ahead log in " + dir + ": " + e.getMessage(), e);
      }
      synchronized (this) {
        removeSame(retired, o);
      }
    }
  }

  /**
   * Removes {@code o} itself from {@code list}: {@code List.remove} would call the record's
   * {@code equals}, whose first call bootstraps a call site (dozens of hidden classes defined under
   * the JVM's locks) on the nice-19 saver while the ticks run (results/timing/off-slot-silences).
   */
  private static <T> void removeSame(java.util.List<T> list, T o) {
    for (int i = 0; i < list.size(); i++) {
      if (list.get(i) == o) {
        list.remove(i);
        return;
      }
    }
  }

  /** Deletes log files older than {@code seq} (their content is in a saved checkpoint). */
  static void deleteBefore(Path dir, long seq) {
    for (long s : sequences(dir)) {
      if (s < seq) {
        try {
          Files.deleteIfExists(dir.resolve(PREFIX + s));
        } catch (IOException e) {
          throw new StateException("cannot delete old write-ahead log " + dir.resolve(PREFIX + s), e);
        }
      }
    }
  }

  private static List<Long> sequences(Path dir) {
    List<Long> out = new ArrayList<>();
    try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, PREFIX + "*")) {
      for (Path f : files) {
        try {
          out.add(Long.parseLong(f.getFileName().toString().substring(PREFIX.length())));
        } catch (NumberFormatException ignored) {
          // not ours
        }
      }
    } catch (IOException e) {
      throw new StateException("cannot list write-ahead logs in " + dir, e);
    }
    out.sort(null);
    return out;
  }

  /**
   * Replays every record of files {@code wal.<s>} with {@code s >= fromSeq}, in order. Zeros after
   * a file's records end it (a mapped chunk a crash left uncut). A record that fails
   * authentication ends replay if it is the last thing in the newest file, zeros aside (a torn
   * append); anywhere else the log is damaged and replay fails, as it does on a record that
   * authenticates but does not parse. Returns the highest sequence seen.
   */
  static long replay(Path dir, LongFunction<Aead> keyOfFile, long fromSeq, Consumer<LogRecord> consumer) {
    List<Long> seqs = sequences(dir);
    long last = fromSeq - 1;
    // the newest file with content: only its tail can be torn (empty files after it were created
    // by an open that failed before its checkpoint)
    long newestWithContent = -1;
    for (long s : seqs) {
      if (s >= fromSeq && holdsRecords(dir.resolve(PREFIX + s))) {
        newestWithContent = s;
      }
    }
    for (int i = 0; i < seqs.size(); i++) {
      long s = seqs.get(i);
      if (s < fromSeq) {
        continue;
      }
      last = s;
      boolean newest = s == newestWithContent;
      byte[] data;
      try {
        data = Files.readAllBytes(dir.resolve(PREFIX + s));
      } catch (IOException e) {
        throw new StateException("cannot read write-ahead log " + dir.resolve(PREFIX + s), e);
      }
      ByteBuffer buf = ByteBuffer.wrap(data);
      Aead aead = data.length == 0 ? null : keyOfFile.apply(s);
      while (buf.remaining() > 0) {
        int start = buf.position();
        if (zeroBetween(data, start, data.length)) {
          // a mapped chunk's unused zeros, which a crash left after the file's records (a record's
          // length is never 0, so this looks at no more than its first bytes)
          break;
        }
        boolean complete = buf.remaining() >= 4;
        int length = complete ? buf.getInt() : -1;
        complete = complete && length > 0 && length <= buf.remaining();
        byte[] plain = null;
        if (complete) {
          byte[] sealed = new byte[length];
          buf.get(sealed);
          try {
            plain = aead.decrypt(sealed, associatedData(s));
          } catch (IntegrityException e) {
            if (!(newest && zeroBetween(data, buf.position(), data.length))) {
              throw new StateException("write-ahead log " + dir.resolve(PREFIX + s) + " is damaged at byte " + start, e);
            }
          }
        } else if (!newest) {
          throw new StateException("write-ahead log " + dir.resolve(PREFIX + s) + " is truncated at byte " + start);
        }
        if (plain == null) {
          break; // torn tail of the newest file: the append a crash interrupted
        }
        LogRecord record;
        try {
          record = LogRecord.decode(plain);
        } catch (StateException e) {
          throw new StateException("write-ahead log " + dir.resolve(PREFIX + s) + " holds a record at byte " + start
              + " that cannot be read: " + e.getMessage(), e);
        }
        consumer.accept(record);
      }
    }
    return last;
  }

  /** Whether {@code data[from, to)} holds only zeros (also when it is empty). */
  private static boolean zeroBetween(byte[] data, int from, int to) {
    for (int i = from; i < to; i++) {
      if (data[i] != 0) {
        return false;
      }
    }
    return true;
  }

  /** True if no log file numbered {@code fromSeq} or later holds a record (or there is none). */
  static boolean isEmpty(Path dir, long fromSeq) {
    for (long s : sequences(dir)) {
      if (s >= fromSeq && holdsRecords(dir.resolve(PREFIX + s))) {
        return false;
      }
    }
    return true;
  }

  /**
   * Whether a log file holds anything but zeros: a file prepared ahead, or a chunk a crash left
   * uncut before its first record, holds none (a record starts with its nonzero length).
   */
  private static boolean holdsRecords(Path file) {
    try (java.io.InputStream in = Files.newInputStream(file)) {
      byte[] block = new byte[64 << 10];
      for (int n; (n = in.read(block)) > 0; ) {
        if (!zeroBetween(block, 0, n)) {
          return true;
        }
      }
      return false;
    } catch (IOException e) {
      throw new StateException("cannot read write-ahead log " + file, e);
    }
  }

  private static byte[] associatedData(long seq) {
    return ("pancake-j wal " + seq).getBytes(StandardCharsets.US_ASCII);
  }

  @Override
  public synchronized void close() {
    for (Retired o : retired) {
      cutToRecords(o.channel(), o.end());
      try {
        o.channel().close();
      } catch (IOException ignored) {
        // its records were forced by syncTo or are covered by a saved checkpoint
      }
    }
    retired.clear();
    synchronized (nextFiles) {
      if (nextFile != null) {
        // it holds no record: remove it (should that fail, replay counts its zeros as no record)
        try {
          nextFile.channel().close();
          Files.deleteIfExists(dir.resolve(PREFIX + nextFile.seq()));
        } catch (IOException ignored) {
          // see above
        }
        nextFile = null;
      }
      closed = true;
    }
    if (channel != null) {
      synchronized (chunks) { // after any preparation in progress, and before the cut: none may follow it
        spare = null;
        chunkFile = null;
      }
      cutToRecords(channel, fileStart + written);
      chunk = null; // its pages past the cut are gone: nothing may copy into them
      try {
        channel.close();
      } catch (IOException e) {
        throw new StateException("cannot close the write-ahead log in " + dir, e);
      }
      channel = null;
    }
  }
}
