package io.pancakej.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import io.pancakej.KvClient;
import io.pancakej.PancakeClient;
import io.pancakej.PancakeConfig;
import io.pancakej.baseline.EncryptedClient;
import io.pancakej.baseline.InsecureClient;
import io.pancakej.crypto.MasterKey;
import io.pancakej.store.MemoryStore;

/**
 * Proxy CPU time per request on an in-memory store (no I/O): a PANCAKE get and put (B reads, B
 * sealed write-backs) next to the encrypted and insecure schemes on the same store, single
 * caller. Subtract {@link CryptoBenchmark}'s 3 x (label + open + seal) from the PANCAKE figure for
 * the smoothing share. Run with {@code bin/bench-proxy}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class ProxyBenchmark {
  private static final int KEYS = 10_000;

  @Param({"pancake", "encrypted", "insecure"})
  String scheme;

  @Param({"3"})
  int batchSize;

  private KvClient client;
  private Path dir;
  private byte[] value;
  private byte[][] keys;
  private final SplittableRandom random = new SplittableRandom(1);

  @Setup(Level.Trial)
  public void setup() throws IOException {
    dir = Files.createTempDirectory("proxybench");
    switch (scheme) {
      case "pancake":
        // one closed-loop caller misses its own batch 1 time in 8 and then waits for a pacer batch: a fast
        // pacer (on the other core) keeps that wait short
        client = PancakeClient.open(PancakeConfig.builder().stateDir(dir).capacity(KEYS).valueSize(1024)
            .batchSize(batchSize).pacerRate(100).tickRateMax(25_600).adapt(false).store(new MemoryStore()).build());
        break;
      case "encrypted":
        client = EncryptedClient.builder().store(new MemoryStore())
            .masterKey(MasterKey.generate(new SecureRandom())).valueSize(1024).keySize(128).build();
        break;
      default:
        client = InsecureClient.builder().store(new MemoryStore()).valueSize(1024).keySize(128).build();
    }
    value = new byte[1000];
    keys = new byte[KEYS][];
    for (int i = 0; i < KEYS; i++) {
      keys[i] = KvClient.utf8("user" + i);
      client.put(keys[i], value);
    }
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    client.close();
  }

  @Benchmark
  public Object get() {
    return client.get(keys[random.nextInt(KEYS)]);
  }

  @Benchmark
  public void put() {
    client.put(keys[random.nextInt(KEYS)], value);
  }
}
