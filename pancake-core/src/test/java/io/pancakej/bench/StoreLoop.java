package io.pancakej.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.SplittableRandom;

import io.pancakej.store.KvStore;
import io.pancakej.store.Stores;

/**
 * Raw store latency under concurrency, for profiling:
 * {@code java -cp <test classpath> io.pancakej.bench.StoreLoop <threads> <ops> <batch> [name=value...]}
 * (store properties as for {@link Stores#open}); {@code -Dkeys=N} sets the key space (default 20 000).
 * Each pair is what one PANCAKE request costs the store: a multi-get and a multi-put of
 * {@code batch} 1.2 KB values on uniformly random keys, with no proxy work at all.
 */
public final class StoreLoop {
  private StoreLoop() {}

  public static void main(String[] args) throws Exception {
    int threads = Integer.parseInt(args[0]);
    int ops = Integer.parseInt(args[1]);
    int batch = Integer.parseInt(args[2]);
    Properties p = new Properties();
    for (int i = 3; i < args.length; i++) {
      String[] kv = args[i].split("=", 2);
      p.setProperty(kv[0], kv[1]);
    }
    try (KvStore store = Stores.open(p)) {
      byte[] value = new byte[1228];
      for (int round = 0; round < 2; round++) {
        long start = System.nanoTime();
        List<Thread> ts = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
          int seed = t;
          Thread th = new Thread(() -> {
            SplittableRandom rnd = new SplittableRandom(seed);
            for (int i = 0; i < ops / threads; i++) {
              List<byte[]> keys = new ArrayList<>();
              List<byte[]> values = new ArrayList<>();
              for (int b = 0; b < batch; b++) {
                keys.add(Long.toString(rnd.nextInt(Integer.getInteger("keys", 20000))).getBytes());
                values.add(value);
              }
              store.multiGet(keys);
              store.multiPut(keys, values);
            }
          });
          th.start();
          ts.add(th);
        }
        for (Thread th : ts) {
          th.join();
        }
        double s = (System.nanoTime() - start) / 1e9;
        System.out.printf("round %d: %d x (multiGet+multiPut of %d) on %d threads: %.0f pairs/s, %.1f us each%n",
            round, ops, batch, threads, ops / s, s * 1e6 * threads / ops);
      }
    }
  }
}
