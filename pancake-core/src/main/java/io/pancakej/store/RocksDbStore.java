package io.pancakej.store;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantReadWriteLock;

import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.CompressionType;
import org.rocksdb.FlushOptions;
import org.rocksdb.HashSkipListMemTableConfig;
import org.rocksdb.LRUCache;
import org.rocksdb.Options;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

import io.pancakej.ConfigException;
import io.pancakej.StoreException;

/**
 * Embedded RocksDB, the default store: no server to run. A multi-get is one
 * {@code multiGetAsList}; a multi-put is one atomic {@link WriteBatch} (written to the WAL,
 * not fsynced: a process crash loses nothing, a machine crash may lose the last writes).
 *
 * <p>Every scheme here overwrites a fixed set of keys with values of a fixed size (PANCAKE's 2n
 * labels, PathORAM's buckets, YCSB's records), so by default the memtable updates values in
 * place and is large enough to hold the whole data set: writes stop piling up versions that
 * flushes and compactions must rewrite (see {@link Tuning}).
 *
 * <p>Close is fenced: every call holds the read side of a lock while it uses the database, and
 * {@link #close()} takes the write side, so it waits for the calls under way before it frees the
 * native handles (a call on a closed RocksDB is a use-after-free in native code, not an
 * exception). A call that starts after close fails with a {@link StoreException}.
 */
public final class RocksDbStore implements KvStore {
  static {
    RocksDB.loadLibrary();
  }

  /** Block cache size in MiB (all schemes get the same). */
  public static final String CACHE_MB_PROPERTY = "rocksdb.cache.mb";
  public static final int DEFAULT_CACHE_MB = 1024;
  /** Memtable (write buffer) size in MiB. */
  public static final String MEMTABLE_MB_PROPERTY = "rocksdb.memtable.mb";
  public static final int DEFAULT_MEMTABLE_MB = 1024;
  /** Whether the memtable overwrites a value in place when the new one is no larger. */
  public static final String IN_PLACE_PROPERTY = "rocksdb.inplace.updates";
  /** MiB written after which the memtable is flushed, which bounds the RocksDB WAL. */
  public static final String FLUSH_AFTER_MB_PROPERTY = "rocksdb.flush.after.mb";
  public static final int DEFAULT_FLUSH_AFTER_MB = 1024;
  /**
   * The memtable hashes a key's first bytes, up to this many: whole keys in practice (labels are
   * 16 bytes, Path ORAM's bucket numbers 8, YCSB's keys some 23), so keys that share a long
   * beginning (YCSB's ordered, zero-padded ones) still fall into buckets of their own.
   */
  private static final int HASHED_KEY_BYTES = 256;

  /** The memtable's bloom filter, as a share of the memtable's size in bytes. */
  private static final double MEMTABLE_BLOOM_RATIO = 0.01;

  /**
   * How the database is sized and written; the same for every scheme.
   *
   * @param cacheMb block cache, MiB
   * @param memtableMb memtable (write buffer), MiB; allocated as it fills
   * @param inPlaceUpdates overwrite values in the memtable in place (no concurrent memtable
   *     writes then). A memtable that holds every key then never fills, and RocksDB does not
   *     bound the WAL of a single column family, so
   * @param flushAfterMb a flush is started after this many MiB of keys and values were written
   */
  public record Tuning(int cacheMb, int memtableMb, boolean inPlaceUpdates, int flushAfterMb) {
    public static final Tuning DEFAULT =
        new Tuning(DEFAULT_CACHE_MB, DEFAULT_MEMTABLE_MB, true, DEFAULT_FLUSH_AFTER_MB);

    public Tuning {
      positive(CACHE_MB_PROPERTY, cacheMb);
      positive(MEMTABLE_MB_PROPERTY, memtableMb);
      positive(FLUSH_AFTER_MB_PROPERTY, flushAfterMb);
    }

    public Tuning withCacheMb(int mb) {
      return new Tuning(mb, memtableMb, inPlaceUpdates, flushAfterMb);
    }

    private static void positive(String name, int mb) {
      if (mb <= 0) {
        throw new ConfigException("property " + name + " must be a positive number of MiB, got " + mb);
      }
    }
  }

  private final Path dir;
  private final Options options;
  private final LRUCache cache;
  private final BloomFilter filter;
  private final RocksDB db;
  private final WriteOptions writeOptions;
  private final FlushOptions flushOptions;
  private final long flushAfterBytes;
  private final AtomicLong unflushedBytes = new AtomicLong();
  /** Read side: a call using the database; write side: close. */
  private final ReentrantReadWriteLock fence = new ReentrantReadWriteLock();
  /** Guarded by {@link #fence}. */
  private boolean closed;

  private RocksDbStore(Path dir, Options options, LRUCache cache, BloomFilter filter, RocksDB db,
      Tuning tuning) {
    this.dir = dir;
    this.options = options;
    this.cache = cache;
    this.filter = filter;
    this.db = db;
    this.writeOptions = new WriteOptions();
    this.flushOptions = new FlushOptions().setWaitForFlush(false);
    this.flushAfterBytes = tuning.flushAfterMb() * 1024L * 1024L;
  }

  /** Opens (creating if needed) the database in {@code dir} with the default tuning. */
  public static RocksDbStore open(Path dir) {
    return open(dir, Tuning.DEFAULT);
  }

  /** Opens (creating if needed) the database in {@code dir} with a {@code cacheMb} block cache. */
  public static RocksDbStore open(Path dir, int cacheMb) {
    return open(dir, Tuning.DEFAULT.withCacheMb(cacheMb));
  }

  /**
   * Opens (creating if needed) the database in {@code dir}. Point lookups are what every scheme
   * does, so tables get a bloom filter and a block cache; compression is off because three of
   * the four schemes store ciphertext, which does not compress.
   */
  public static RocksDbStore open(Path dir, Tuning tuning) {
    Path abs = dir.toAbsolutePath().normalize();
    try {
      Files.createDirectories(abs);
    } catch (IOException e) {
      throw new StoreException("cannot create RocksDB directory " + abs + ": " + e.getMessage(), e);
    }
    LRUCache cache = new LRUCache(tuning.cacheMb() * 1024L * 1024L);
    BloomFilter filter = new BloomFilter(10, false);
    Options options = new Options().setCreateIfMissing(true).setIncreaseParallelism(2)
        // writers spin-wait for the group-commit leader by default, which starves a 2-core machine
        .setEnableWriteThreadAdaptiveYield(false)
        // most point lookups miss the memtables (PANCAKE's are uniform over all labels): a whole-key
        // bloom filter answers those without a skip-list search. It is allocated and zeroed with
        // every memtable, at open and at each flush: a hundredth of the 1-GiB memtable (10.7 MB,
        // 8 bits per entry even if it filled with 100-byte entries) opens in about 37 ms; a tenth
        // (107 MB) took 290 ms to open and 250 ms more to flush at close
        .setMemtablePrefixBloomSizeRatio(MEMTABLE_BLOOM_RATIO).setMemtableWholeKeyFiltering(true)
        // point lookups only, and the memtable holds the whole data set: a hash of the whole key
        // (a prefix capped far above any key this project writes) instead of one skip list, whose
        // search was 14 % of a RocksDB C run's CPU samples on the ticking thread (design.md,
        // "Embedded RocksDB"). It takes no concurrent memtable writes, and iterators must ask for
        // total order (isEmpty)
        .useCappedPrefixExtractor(HASHED_KEY_BYTES).setMemTableConfig(new HashSkipListMemTableConfig())
        .setAllowConcurrentMemtableWrite(false)
        .setWriteBufferSize(tuning.memtableMb() * 1024L * 1024L)
        .setCompressionType(CompressionType.NO_COMPRESSION)
        .setTableFormatConfig(new BlockBasedTableConfig().setBlockCache(cache).setFilterPolicy(filter));
    if (tuning.inPlaceUpdates()) {
      options.setInplaceUpdateSupport(true);
    }
    try {
      return new RocksDbStore(abs, options, cache, filter, RocksDB.open(options, abs.toString()), tuning);
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
    enter();
    try {
      if (keys.isEmpty()) {
        return new ArrayList<>(0); // multiGetAsList asserts a non-empty list
      }
      return db.multiGetAsList(keys);
    } catch (RocksDBException e) {
      throw new StoreException("RocksDB multiGet failed: " + e.getMessage(), e);
    } finally {
      exit();
    }
  }

  @Override
  public void multiPut(List<byte[]> keys, List<byte[]> values) {
    enter();
    try {
      Stores.checkSameSize(keys, values);
      if (keys.isEmpty()) {
        return;
      }
      write("write", batch -> {
        for (int i = 0; i < keys.size(); i++) {
          batch.put(keys.get(i), values.get(i));
        }
      });
    } finally {
      exit();
    }
  }

  /** What goes into one atomic write. */
  private interface BatchContent {
    void addTo(WriteBatch batch) throws RocksDBException;
  }

  /** Writes {@code content} as one batch (the caller holds the fence); {@code what} names it in errors. */
  private void write(String what, BatchContent content) {
    try (WriteBatch batch = new WriteBatch()) {
      content.addTo(batch);
      db.write(writeOptions, batch);
      wrote(batch.getDataSize());
    } catch (RocksDBException e) {
      throw new StoreException("RocksDB " + what + " failed: " + e.getMessage(), e);
    }
  }

  /**
   * Starts a background flush once {@code flushAfterBytes} were written since the last one: with
   * in-place updates the memtable stops growing once it holds every key, so RocksDB would never
   * flush it and its WAL (replayed at every open) would grow without bound.
   */
  private void wrote(long bytes) {
    long pending = unflushedBytes.addAndGet(bytes);
    if (pending >= flushAfterBytes && unflushedBytes.compareAndSet(pending, 0)) {
      try {
        db.flush(flushOptions);
      } catch (RocksDBException e) {
        // the write itself succeeded and is in the WAL; the next write tries the flush again
        unflushedBytes.addAndGet(pending);
      }
    }
  }

  @Override
  public void multiDelete(List<byte[]> keys) {
    enter();
    try {
      if (keys.isEmpty()) {
        return;
      }
      write("delete", batch -> {
        for (byte[] k : keys) {
          batch.delete(k);
        }
      });
    } finally {
      exit();
    }
  }

  /** One seek to the first key (deleted keys are skipped, unlike the key-count estimate). */
  @Override
  public boolean isEmpty() {
    enter();
    try (ReadOptions totalOrder = new ReadOptions().setTotalOrderSeek(true);
        RocksIterator it = db.newIterator(totalOrder)) {
      it.seekToFirst();
      if (it.isValid()) {
        return false;
      }
      it.status();
      return true;
    } catch (RocksDBException e) {
      throw new StoreException("RocksDB scan of " + dir + " failed: " + e.getMessage(), e);
    } finally {
      exit();
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
    enter();
    try {
      long keys = db.getLongProperty("rocksdb.estimate-num-keys");
      long bytes = db.getLongProperty("rocksdb.total-sst-files-size")
          + db.getLongProperty("rocksdb.cur-size-all-mem-tables");
      return Optional.of(new Storage(keys, bytes));
    } catch (RocksDBException e) {
      return Optional.empty();
    } finally {
      exit();
    }
  }

  /** Takes the read side for one call; a {@link StoreException} once the store is closed. */
  private void enter() {
    fence.readLock().lock();
    if (closed) {
      fence.readLock().unlock();
      throw new StoreException("RocksDB store " + dir + " is closed");
    }
  }

  private void exit() {
    fence.readLock().unlock();
  }

  /** Waits for the calls under way, flushes what this process wrote and frees the native handles. Idempotent. */
  @Override
  public void close() {
    fence.writeLock().lock();
    try {
      if (closed) {
        return;
      }
      closed = true;
      if (unflushedBytes.get() > 0) {
        // what this process wrote is still only in the memtable and the WAL; replaying the WAL at
        // the next open costs more (measured: 3.5 s for 450 MB) than flushing now (1.3 s)
        try (FlushOptions wait = new FlushOptions().setWaitForFlush(true)) {
          db.flush(wait);
        } catch (RocksDBException e) {
          // nothing is lost: the next open replays the WAL
        }
      }
      writeOptions.close();
      flushOptions.close();
      db.close();
      options.close();
      cache.close();
      filter.close();
    } finally {
      fence.writeLock().unlock();
    }
  }
}
