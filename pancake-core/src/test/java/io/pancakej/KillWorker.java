package io.pancakej;

import java.nio.charset.StandardCharsets;
import java.util.Properties;
import java.util.SplittableRandom;

/**
 * Child process of {@link CrashSafetyTest}: opens a PANCAKE client on RocksDB and writes unique,
 * increasing values to random keys from several threads, printing {@code ACK <key> <counter>} after
 * each write returns (and {@code BEGIN ...} before it starts), until it is killed. Arguments: state dir, RocksDB dir, keys, seed, wal sync.
 */
public final class KillWorker {
  private KillWorker() {}

  public static void main(String[] args) throws Exception {
    Properties p = new Properties();
    p.setProperty(PancakeConfig.STATE_DIR_PROPERTY, args[0]);
    p.setProperty("pancake.store", "rocksdb");
    p.setProperty("rocksdb.dir", args[1]);
    p.setProperty(PancakeConfig.CREATE_PROPERTY, "false");
    p.setProperty(PancakeConfig.WAL_SYNC_PROPERTY, args[4]);
    int keys = Integer.parseInt(args[2]);
    long seed = Long.parseLong(args[3]);
    PancakeClient client = PancakeClient.open(PancakeConfig.fromProperties(p));
    System.out.println("READY");
    System.out.flush();
    Thread[] threads = new Thread[4];
    for (int t = 0; t < threads.length; t++) {
      int id = t;
      threads[t] = new Thread(() -> {
        SplittableRandom rnd = new SplittableRandom(seed * 31 + id);
        // each thread owns the keys congruent to its id, so per-key counters only grow
        long counter = seed * 1_000_000_000L;
        while (true) {
          int k = rnd.nextInt(keys / threads.length) * threads.length + id;
          counter++;
          boolean delete = rnd.nextInt(20) == 0;
          synchronized (System.out) {
            System.out.println("BEGIN " + id + " " + k + " " + (delete ? -1 : counter));
            System.out.flush();
          }
          if (delete) {
            client.delete(("k" + k).getBytes(StandardCharsets.UTF_8));
          } else {
            client.put(("k" + k).getBytes(StandardCharsets.UTF_8),
                Long.toString(counter).getBytes(StandardCharsets.UTF_8));
          }
          synchronized (System.out) {
            System.out.println("ACK " + id + " " + k + " " + (delete ? -1 : counter));
            System.out.flush();
          }
        }
      });
      threads[t].start();
    }
    for (Thread t : threads) {
      t.join();
    }
  }

}
