package io.pancakej.store;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;

import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.CompressionType;
import org.rocksdb.LRUCache;
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

  /** Block cache size in MiB (all schemes get the same). */
  public static final String CACHE_MB_PROPERTY = "rocksdb.cache.mb";
  public static final int DEFAULT_CACHE_MB = 1024;

  private final Path dir;
  private final Options options;
  private final LRUCache cache;
  private final BloomFilter filter;
  private final RocksDB db;
  private final WriteOptions writeOptions;
  private final AtomicBoolean open = new AtomicBoolean(true);

  private RocksDbStore(Path dir, Options options, LRUCache cache, BloomFilter filter, RocksDB db) {
    this.dir = dir;
    this.options = options;
    this.cache = cache;
    this.filter = filter;
    this.db = db;
    this.writeOptions = new WriteOptions();
  }

  /** Opens (creating if needed) the database in {@code dir} with the default block cache. */
  public static RocksDbStore open(Path dir) {
    return open(dir, DEFAULT_CACHE_MB);
  }

  /**
   * Opens (creating if needed) the database in {@code dir}. Point lookups are what every scheme
   * does, so tables get a bloom filter and a {@code cacheMb} block cache; compression is off
   * because three of the four schemes store ciphertext, which does not compress.
   */
  public static RocksDbStore open(Path dir, int cacheMb) {
    Path abs = dir.toAbsolutePath().normalize();
    try {
      Files.createDirectories(abs);
    } catch (IOException e) {
      throw new StoreException("cannot create RocksDB directory " + abs + ": " + e.getMessage(), e);
    }
    LRUCache cache = new LRUCache(Math.max(1, cacheMb) * 1024L * 1024L);
    BloomFilter filter = new BloomFilter(10, false);
    Options options = new Options().setCreateIfMissing(true).setIncreaseParallelism(2)
        // writers spin-wait for the group-commit leader by default, which starves a 2-core machine
        .setEnableWriteThreadAdaptiveYield(false)
        // most point lookups miss the memtables (PANCAKE's are uniform over all labels): a whole-key
        // bloom filter answers those without a skip-list search
        .setMemtablePrefixBloomSizeRatio(0.1).setMemtableWholeKeyFiltering(true)
        .setCompressionType(CompressionType.NO_COMPRESSION)
        .setTableFormatConfig(new BlockBasedTableConfig().setBlockCache(cache).setFilterPolicy(filter));
    try {
      return new RocksDbStore(abs, options, cache, filter, RocksDB.open(options, abs.toString()));
    } catch (RocksDBException e) {
      options.close();
      cache.close();
      filter.close();
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
  public boolean isEmbedded() {
    return true;
  }

  @Override
  public String describe() {
    return "rocksdb:" + dir;
  }

  /**
   * RocksDB's own estimates: {@code rocksdb.estimate-num-keys} entries, and
   * {@code rocksdb.total-sst-files-size} plus {@code rocksdb.cur-size-all-mem-tables} bytes.
   */
  @Override
  public Optional<Storage> storage() {
    checkOpen();
    try {
      long keys = db.getLongProperty("rocksdb.estimate-num-keys");
      long bytes = db.getLongProperty("rocksdb.total-sst-files-size")
          + db.getLongProperty("rocksdb.cur-size-all-mem-tables");
      return Optional.of(new Storage(keys, bytes));
    } catch (RocksDBException e) {
      return Optional.empty();
    }
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
      cache.close();
      filter.close();
    }
  }
}
