import org.rocksdb.*;
import java.util.*;
public class T7 {
  public static void main(String[] a) throws Exception {
    RocksDB.loadLibrary();
    String v = a[1];
    LRUCache cache = new LRUCache(1024L << 20);
    BloomFilter filter = new BloomFilter(10, false);
    BlockBasedTableConfig t = new BlockBasedTableConfig().setBlockCache(cache).setFilterPolicy(filter);
    if (v.contains("dhash")) t.setDataBlockIndexType(DataBlockIndexType.kDataBlockBinaryAndHash);
    if (v.contains("ihash")) t.setIndexType(IndexType.kHashSearch);
    if (v.contains("b16")) t.setBlockSize(16384);
    if (v.contains("b2k")) t.setBlockSize(2048);
    Options options = new Options().setCreateIfMissing(true).setIncreaseParallelism(2).setEnableWriteThreadAdaptiveYield(false)
        .setMemtablePrefixBloomSizeRatio(0.01).setMemtableWholeKeyFiltering(true)
        .useCappedPrefixExtractor(256).setMemTableConfig(new HashSkipListMemTableConfig())
        .setAllowConcurrentMemtableWrite(false).setWriteBufferSize(1024L << 20).setCompressionType(CompressionType.NO_COMPRESSION)
        .setTableFormatConfig(t).setInplaceUpdateSupport(true);
    RocksDB db = RocksDB.open(options, a[0]);
    try (CompactRangeOptions co = new CompactRangeOptions().setBottommostLevelCompaction(CompactRangeOptions.BottommostLevelCompaction.kForce)) { db.compactRange(null, null, null, co); }
    List<byte[]> keys = new ArrayList<>();
    try (ReadOptions ro = new ReadOptions().setTotalOrderSeek(true); RocksIterator it = db.newIterator(ro)) {
      for (it.seekToFirst(); it.isValid(); it.next()) keys.add(it.key());
    }
    if (v.contains("mem")) { WriteOptions nw = new WriteOptions().setDisableWAL(true); for (byte[] k : keys) db.put(nw, k, db.get(k)); }
    Random r = new Random(1);
    StringBuilder out = new StringBuilder(v + ":");
    for (int round = 0; round < 6; round++) {
      long s = System.nanoTime(); int n = 20000;
      for (int i = 0; i < n; i++) {
        List<byte[]> ks = new ArrayList<>();
        for (int j = 0; j < 10; j++) ks.add(keys.get(r.nextInt(keys.size())));
        db.multiGetAsList(ks);
      }
      out.append(String.format(" %.1f", (System.nanoTime() - s) / 1e3 / n));
    }
    System.out.println(out + "  (us per multiGet of 10; last rounds warm)");
    db.close();
  }
}
