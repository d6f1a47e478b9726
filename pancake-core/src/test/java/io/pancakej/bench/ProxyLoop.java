package io.pancakej.bench;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import io.pancakej.KvClient;
import io.pancakej.PancakeClient;
import io.pancakej.PancakeConfig;
import io.pancakej.store.MemoryStore;

/**
 * A plain closed-loop driver for profiling the proxy (run under JFR or a profiler):
 * {@code java -cp <test classpath> io.pancakej.bench.ProxyLoop [threads] [requests] [valueSize]}.
 */
public final class ProxyLoop {
  private ProxyLoop() {}

  public static void main(String[] args) throws Exception {
    int threads = args.length > 0 ? Integer.parseInt(args[0]) : 4;
    int requests = args.length > 1 ? Integer.parseInt(args[1]) : 500_000;
    int valueSize = args.length > 2 ? Integer.parseInt(args[2]) : 1024;
    int keys = 10_000;
    Path dir = Files.createTempDirectory("proxyloop");
    try (PancakeClient client = PancakeClient.open(PancakeConfig.builder().stateDir(dir).capacity(keys)
        .valueSize(valueSize).store(new MemoryStore()).build())) {
      byte[] value = new byte[valueSize];
      for (int i = 0; i < keys; i++) {
        client.put(KvClient.utf8("user" + i), value);
      }
      long start = System.nanoTime();
      List<Thread> ts = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int seed = t;
        Thread th = new Thread(() -> {
          SplittableRandom rnd = new SplittableRandom(seed);
          for (int i = 0; i < requests / threads; i++) {
            byte[] k = ("user" + rnd.nextInt(keys)).getBytes(StandardCharsets.UTF_8);
            if (rnd.nextBoolean()) {
              client.get(k);
            } else {
              client.put(k, value);
            }
          }
        });
        th.start();
        ts.add(th);
      }
      for (Thread th : ts) {
        th.join();
      }
      double seconds = (System.nanoTime() - start) / 1e9;
      System.out.printf("%d requests, %d threads, %d-byte values: %.0f requests/s; %s%n", requests, threads,
          valueSize, requests / seconds, client.stats());
    }
  }
}
