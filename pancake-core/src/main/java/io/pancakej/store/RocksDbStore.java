package io.pancakej.store;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

import io.pancakej.StoreException;

/**
 * Embedded RocksDB, the default store: no server to run. A multi-get is one
 * {@code multiGetAsList}; a multi-put is one atomic {@link WriteBatch} (written to the WAL,
 * not fsynced: a process crash loses nothing, a machine crash may lose the last writes).
 */
public final class RocksDbStore implements KvStore {
  static {
    RocksDB.loadLibrary();
  }

  private final Path dir;
  private final Options options;
  private final RocksDB db;
  private final WriteOptions writeOptions;
  private final AtomicBoolean open = new AtomicBoolean(true);

  private RocksDbStore(Path dir, Options options, RocksDB db) {
    this.dir = dir;
    this.options = options;
    this.db = db;
    this.writeOptions = new WriteOptions();
  }

  /** Opens (creating if needed) the database in {@code dir}. */
  public static RocksDbStore open(Path dir) {
    Path abs = dir.toAbsolutePath().normalize();
    try {
      Files.createDirectories(abs);
    } catch (IOException e) {
      throw new StoreException("cannot create RocksDB directory " + abs + ": " + e.getMessage(), e);
    }
    Options options = new Options().setCreateIfMissing(true).setIncreaseParallelism(2);
    try {
      return new RocksDbStore(abs, options, RocksDB.open(options, abs.toString()));
    } catch (RocksDBException e) {
      options.close();
      String msg = e.getMessage() == null ? "" : e.getMessage();
      if (msg.contains("lock")) {
        throw new StoreException("RocksDB directory " + abs
            + " is locked by another process (is another ycsb or client still running?)", e);
      }
      throw new StoreException("cannot open RocksDB at " + abs + ": " + msg, e);
    }
  }

  @Override
  public List<byte[]> multiGet(List<byte[]> keys) {
    checkOpen();
    if (keys.isEmpty()) {
      return new ArrayList<>(0); // multiGetAsList asserts a non-empty list
    }
    try {
      return db.multiGetAsList(keys);
    } catch (RocksDBException e) {
      throw new StoreException("RocksDB multiGet failed: " + e.getMessage(), e);
    }
  }

  @Override
  public void multiPut(List<byte[]> keys, List<byte[]> values) {
    checkOpen();
    Stores.checkSameSize(keys, values);
    if (keys.isEmpty()) {
      return;
    }
    try (WriteBatch batch = new WriteBatch()) {
      for (int i = 0; i < keys.size(); i++) {
        batch.put(keys.get(i), values.get(i));
      }
      db.write(writeOptions, batch);
    } catch (RocksDBException e) {
      throw new StoreException("RocksDB write failed: " + e.getMessage(), e);
    }
  }

  @Override
  public void multiDelete(List<byte[]> keys) {
    checkOpen();
    if (keys.isEmpty()) {
      return;
    }
    try (WriteBatch batch = new WriteBatch()) {
      for (byte[] k : keys) {
        batch.delete(k);
      }
      db.write(writeOptions, batch);
    } catch (RocksDBException e) {
      throw new StoreException("RocksDB delete failed: " + e.getMessage(), e);
    }
  }

  @Override
  public String describe() {
    return "rocksdb:" + dir;
  }

  private void checkOpen() {
    if (!open.get()) {
      throw new StoreException("RocksDB store " + dir + " is closed");
    }
  }

  @Override
  public void close() {
    if (open.compareAndSet(true, false)) {
      writeOptions.close();
      db.close();
      options.close();
    }
  }
}
