import org.rocksdb.*;
import java.util.*;
public class T6 {
  public static void main(String[] a) throws Exception {
    RocksDB.loadLibrary();
    LRUCache cache = new LRUCache(1024L << 20);
    BloomFilter filter = new BloomFilter(10, false);
    BlockBasedTableConfig t = new BlockBasedTableConfig().setBlockCache(cache).setFilterPolicy(filter);
    String v = a.length > 1 ? a[1] : "";
    if (v.contains("dhash")) t.setDataBlockIndexType(DataBlockIndexType.kDataBlockBinaryAndHash);
    if (v.contains("ihash")) t.setIndexType(IndexType.kHashSearch);
    if (v.contains("b16")) t.setBlockSize(16384);
    if (v.contains("b1k")) t.setBlockSize(1024);
    if (v.contains("pin")) t.setPinL0FilterAndIndexBlocksInCache(true).setCacheIndexAndFilterBlocks(true);
    if (v.contains("nofilter")) t.setFilterPolicy(null);
    Options options = new Options().setCreateIfMissing(true).setIncreaseParallelism(2).setEnableWriteThreadAdaptiveYield(false)
        .setMemtablePrefixBloomSizeRatio(0.01).setMemtableWholeKeyFiltering(true)
        .useCappedPrefixExtractor(256).setMemTableConfig(new HashSkipListMemTableConfig())
        .setAllowConcurrentMemtableWrite(false).setWriteBufferSize(1024L << 20).setCompressionType(CompressionType.NO_COMPRESSION)
        .setTableFormatConfig(t).setInplaceUpdateSupport(true);
    RocksDB db = RocksDB.open(options, a[0]);
    if (v.contains("compact")) { long c0 = System.nanoTime(); try (CompactRangeOptions co = new CompactRangeOptions().setBottommostLevelCompaction(CompactRangeOptions.BottommostLevelCompaction.kForce)) { db.compactRange(null, null, null, co); } System.out.printf("compact %.0f ms%n", (System.nanoTime()-c0)/1e6); }
    List<byte[]> keys = new ArrayList<>();
    try (ReadOptions ro = new ReadOptions().setTotalOrderSeek(true); RocksIterator it = db.newIterator(ro)) {
      for (it.seekToFirst(); it.isValid(); it.next()) keys.add(it.key());
    }
    System.out.println(keys.size() + " keys");
    Random r = new Random(1);
    WriteOptions wo = new WriteOptions();
    for (int round = 0; round < Integer.getInteger("rounds", 4); round++) {
      long gets = 0, puts = 0; int n = 0;
      for (int i = 0; i < 4000; i++) {
        List<byte[]> ks = new ArrayList<>();
        for (int j = 0; j < 10; j++) ks.add(keys.get(r.nextInt(keys.size())));
        long s = System.nanoTime();
        List<byte[]> vs = db.multiGetAsList(ks);
        long m = System.nanoTime();
        try (WriteBatch b = new WriteBatch()) { for (int j = 0; j < 10; j++) b.put(ks.get(j), vs.get(j)); db.write(wo, b); }
        long e = System.nanoTime();
        gets += m - s; puts += e - m; n++;
      }
      System.out.printf("round %d: multiGet(10) %.1f us, write(10) %.1f us, memtable %d MB%n", round, gets / 1e3 / n, puts / 1e3 / n, db.getLongProperty("rocksdb.cur-size-all-mem-tables") >> 20);
    }
    db.close();
  }
}
