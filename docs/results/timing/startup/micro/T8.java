import org.rocksdb.*;
public class T8 {
  public static void main(String[] a) throws Exception {
    RocksDB.loadLibrary();
    LRUCache cache = new LRUCache(1024L << 20);
    BloomFilter filter = new BloomFilter(10, false);
    Options options = new Options().setCreateIfMissing(true).setIncreaseParallelism(2).setEnableWriteThreadAdaptiveYield(false)
        .setMemtablePrefixBloomSizeRatio(0.01).setMemtableWholeKeyFiltering(true)
        .useCappedPrefixExtractor(256).setMemTableConfig(new HashSkipListMemTableConfig())
        .setAllowConcurrentMemtableWrite(false).setWriteBufferSize(1024L << 20).setCompressionType(CompressionType.NO_COMPRESSION)
        .setTableFormatConfig(new BlockBasedTableConfig().setBlockCache(cache).setFilterPolicy(filter)).setInplaceUpdateSupport(true);
    RocksDB db = RocksDB.open(options, a[0]);
    long s = System.nanoTime(); long n = 0, bytes = 0;
    try (ReadOptions ro = new ReadOptions().setTotalOrderSeek(true).setFillCache(false); RocksIterator it = db.newIterator(ro);
         WriteOptions nw = new WriteOptions().setDisableWAL(true); WriteBatch b = new WriteBatch()) {
      for (it.seekToFirst(); it.isValid(); it.next()) {
        byte[] k = it.key(), v = it.value(); b.put(k, v); n++; bytes += v.length;
        if (b.count() == 256) { db.write(nw, b); b.clear(); }
      }
      db.write(nw, b);
    }
    System.out.printf("prefill %d entries, %d MB in %.0f ms; memtable %d MB%n", n, bytes >> 20, (System.nanoTime() - s) / 1e6, db.getLongProperty("rocksdb.cur-size-all-mem-tables") >> 20);
    db.close();
  }
}
