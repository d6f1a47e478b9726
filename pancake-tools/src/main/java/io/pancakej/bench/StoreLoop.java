package io.pancakej.bench;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;

import io.pancakej.store.KvStore;
import io.pancakej.store.Stores;

/**
 * What the store alone allows: the request rate a store sustains for one access pattern, with no
 * proxy, crypto or YCSB work at all (so an upper bound for any scheme with that pattern).
 *
 * <pre>
 * java -cp &lt;pancake-tools classpath&gt; io.pancakej.bench.StoreLoop &lt;threads&gt; &lt;requests&gt; &lt;batch&gt; &lt;keys&gt; [name=value...]
 * </pre>
 *
 * One request is a multi-get of {@code batch} uniformly random keys out of {@code keys} and, if
 * {@code batch > 0}, a multi-put of 1.2 KB values to the same keys: {@code batch = 3} is what a
 * PANCAKE request costs the store (B = 3 reads and write-backs). {@code batch = 0} is one get and
 * no write, what an insecure read costs. All keys are loaded first. Store properties as for
 * {@link Stores#open}. Prints one line per round (the first round warms up).
 */
public final class StoreLoop {
  static final int VALUE_BYTES = 1228;

  private StoreLoop() {}

  public static void main(String[] args) throws Exception {
    if (args.length < 4) {
      System.err.println("usage: StoreLoop <threads> <requests> <batch> <keys> [name=value...]");
      System.exit(2);
    }
    int threads = Integer.parseInt(args[0]);
    int requests = Integer.parseInt(args[1]);
    int batch = Integer.parseInt(args[2]);
    int keyCount = Integer.parseInt(args[3]);
    Properties p = new Properties();
    for (int i = 4; i < args.length; i++) {
      String[] kv = args[i].split("=", 2);
      p.setProperty(kv[0], kv[1]);
    }
    run(threads, requests, batch, keyCount, p, System.out);
  }

  /**
   * Loads {@code keyCount} keys into the store {@code p} opens, runs three rounds of
   * {@code requests} requests on {@code threads} threads, prints one line per round to
   * {@code out} and returns the last round's requests/s.
   */
  public static double run(int threads, int requests, int batch, int keyCount, Properties p, PrintStream out)
      throws InterruptedException {
    byte[] value = new byte[VALUE_BYTES];
    double rate = 0;
    try (KvStore store = Stores.open(p)) {
      load(store, keyCount);
      String pattern = batch == 0 ? "1 get" : batch + " gets + " + batch + " puts";
      for (int round = 0; round < 3; round++) {
        AtomicLong done = new AtomicLong();
        long start = System.nanoTime();
        List<Thread> ts = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
          SplittableRandom rnd = new SplittableRandom(round * 1000L + t);
          Thread th = new Thread(() -> {
            for (int i = 0; i < requests / threads; i++) {
              List<byte[]> keys = new ArrayList<>();
              List<byte[]> values = new ArrayList<>();
              for (int b = 0; b < Math.max(1, batch); b++) {
                keys.add(key(rnd.nextInt(keyCount)));
                values.add(value);
              }
              store.multiGet(keys);
              if (batch > 0) {
                store.multiPut(keys, values);
              }
              done.incrementAndGet();
            }
          });
          th.start();
          ts.add(th);
        }
        for (Thread th : ts) {
          th.join();
        }
        double s = (System.nanoTime() - start) / 1e9;
        rate = done.get() / s;
        out.printf("%s round %d: %s per request, %d keys, %d threads: %.0f requests/s%n",
            store.describe(), round, pattern, keyCount, threads, rate);
      }
    }
    return rate;
  }

  /** Writes {@code keyCount} keys of 1.2 KB ({@code key0, key1, ...}) into {@code store}. */
  public static void load(KvStore store, int keyCount) {
    byte[] value = new byte[VALUE_BYTES];
    for (int from = 0; from < keyCount; from += 1000) {
      List<byte[]> keys = new ArrayList<>();
      List<byte[]> values = new ArrayList<>();
      for (int k = from; k < Math.min(keyCount, from + 1000); k++) {
        keys.add(key(k));
        values.add(value);
      }
      store.multiPut(keys, values);
    }
  }

  static byte[] key(int k) {
    return ("key" + k).getBytes(java.nio.charset.StandardCharsets.US_ASCII);
  }
}
