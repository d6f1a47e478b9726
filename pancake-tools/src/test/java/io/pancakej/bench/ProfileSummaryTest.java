package io.pancakej.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

class ProfileSummaryTest {
  @Test
  void samples_goToTheFirstMatchingCategory_andUnknownStacksToOther() {
    Map<String, Long> c = ProfileSummary.summarize(List.of(
        "start_thread;Thread::call_run;CompileBroker::compiler_thread_loop;C2Compiler::compile_method 7",
        "java/lang/Thread.run;site/ycsb/ClientThread.run;io/pancakej/smoothing/Proxy.submit;"
            + "io/pancakej/store/CombiningStore.call;java/util/concurrent/locks/LockSupport.park 5",
        "java/lang/Thread.run;site/ycsb/ClientThread.run;io/pancakej/smoothing/Proxy.readServeWrite;"
            + "io/pancakej/store/RocksDbStore.multiGet;org/rocksdb/RocksDB.multiGet 11",
        "java/lang/Thread.run;site/ycsb/ClientThread.run;io/pancakej/smoothing/Proxy.readServeWrite;"
            + "io/pancakej/crypto/Aead.encrypt 3",
        "java/lang/Thread.run;site/ycsb/ClientThread.run;io/pancakej/smoothing/Proxy.readServeWrite 2",
        "java/lang/Thread.run;site/ycsb/ClientThread.run;site/ycsb/workloads/CoreWorkload.doTransaction 1",
        "start_thread;rocksdb::ThreadPoolImpl::Impl::BGThread;rocksdb::CompactionJob::Run 4",
        "java/lang/Thread.run;io/pancakej/smoothing/Pacer.loop;io/pancakej/smoothing/Proxy.runBatch 6",
        "start_thread;JavaMain;LoadClass 8",
        "not a sample line"));
    assertEquals(7L, c.get("JIT compilation"));
    assertEquals(5L, c.get("request threads: hand-offs (park, unpark)"));
    assertEquals(11L, c.get("request threads: store calls (RocksDB, Jedis, sockets)"));
    assertEquals(3L, c.get("request threads: crypto (AES-GCM, HMAC)"));
    assertEquals(2L, c.get("request threads: PANCAKE engine"));
    assertEquals(1L, c.get("request threads: YCSB and binding"));
    assertEquals(4L, c.get("store background threads (RocksDB flush, compaction)"));
    assertEquals(6L, c.get("PANCAKE pacer batches"));
    assertEquals(8L, c.get("other (JVM start-up, class loading, ...)"));
    assertEquals(0L, c.get("garbage collection"));
    assertEquals(47L, c.values().stream().mapToLong(Long::longValue).sum());
  }
}
