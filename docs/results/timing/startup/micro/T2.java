import org.rocksdb.*;
public class T2 {
  public static void main(String[] a) throws Exception {
    RocksDB.loadLibrary();
    for (String spec : a[1].split(",")) {
      double ratio = Double.parseDouble(spec.split(":")[0]);
      long mb = Long.parseLong(spec.split(":")[1]);
      for (int i = 0; i < 2; i++) {
      LRUCache cache = new LRUCache(1024L << 20);
      BloomFilter filter = new BloomFilter(10, false);
      Options options = new Options().setCreateIfMissing(true).setIncreaseParallelism(2).setEnableWriteThreadAdaptiveYield(false)
        .setMemtablePrefixBloomSizeRatio(ratio).setMemtableWholeKeyFiltering(true)
        .useCappedPrefixExtractor(256).setMemTableConfig(new HashSkipListMemTableConfig())
        .setAllowConcurrentMemtableWrite(false).setWriteBufferSize(mb << 20).setCompressionType(CompressionType.NO_COMPRESSION)
        .setTableFormatConfig(new BlockBasedTableConfig().setBlockCache(cache).setFilterPolicy(filter)).setInplaceUpdateSupport(true);
      long s = System.nanoTime();
      RocksDB db = RocksDB.open(options, a[0]);
      long m = System.nanoTime();
      byte[] v = new byte[1300];
      for (int k = 0; k < 8000; k++) { byte[] key = new byte[16]; key[0]=(byte)k; key[1]=(byte)(k>>8); key[5]=7; db.put(key, v); }
      long w = System.nanoTime();
      try (FlushOptions f = new FlushOptions().setWaitForFlush(true)) { db.flush(f); }
      long f2 = System.nanoTime();
      System.out.printf("  flush %.1f ms%n", (f2-w)/1e6);
      m = System.nanoTime();
      db.close();
      long e = System.nanoTime();
      System.out.printf("ratio %s memtable %d MB: open %.1f ms close %.1f ms%n", ratio, mb, (m-s)/1e6, (e-m)/1e6);
      }
    }
  }
}
