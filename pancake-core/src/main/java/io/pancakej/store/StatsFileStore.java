package io.pancakej.store;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;

import io.pancakej.StoreException;

/**
 * A {@link CountingStore} that, on {@link #close()}, writes its counts and the store's
 * {@link KvStore#storage() storage} to a properties file ({@value Stores#STATS_FILE_PROPERTY}):
 * {@code roundTrips}, {@code keysRead}, {@code keysWritten}, {@code keysDeleted},
 * {@code bytesRead}, {@code bytesWritten}, {@code storageEntries}, {@code storageBytes}
 * (-1 when the backend cannot tell). Storage is measured before the delegate closes.
 */
final class StatsFileStore extends ForwardingStore {
  private final CountingStore counting;
  private final Path file;
  private final AtomicBoolean open = new AtomicBoolean(true);

  StatsFileStore(KvStore delegate, Path file) {
    this(new CountingStore(delegate), file);
  }

  private StatsFileStore(CountingStore counting, Path file) {
    super(counting);
    this.counting = counting;
    this.file = file.toAbsolutePath();
  }

  @Override
  public void close() {
    if (!open.compareAndSet(true, false)) {
      return;
    }
    try {
      CountingStore.Counts c = counting.snapshot();
      Storage s;
      try {
        s = counting.storage().orElse(new Storage(-1, -1));
      } catch (RuntimeException e) {
        s = new Storage(-1, -1);
      }
      String text = "# server-side counts of " + counting.describe() + "\n"
          + "roundTrips=" + c.roundTrips() + "\n"
          + "keysRead=" + c.keysRead() + "\n"
          + "keysWritten=" + c.keysWritten() + "\n"
          + "keysDeleted=" + c.keysDeleted() + "\n"
          + "bytesRead=" + c.bytesRead() + "\n"
          + "bytesWritten=" + c.bytesWritten() + "\n"
          + "storageEntries=" + s.entries() + "\n"
          + "storageBytes=" + s.bytes() + "\n";
      Path parent = file.getParent();
      if (parent != null) {
        Files.createDirectories(parent);
      }
      Files.writeString(file, text, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new StoreException("cannot write stats file " + file + ": " + e.getMessage(), e);
    } finally {
      counting.close();
    }
  }
}
