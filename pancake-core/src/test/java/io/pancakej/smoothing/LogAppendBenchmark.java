package io.pancakej.smoothing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

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

import io.pancakej.WalSync;
import io.pancakej.crypto.Aead;

/**
 * What logging one write costs the thread that appends it: sealing a WRITE record of a YCSB-sized
 * value (1 200 bytes) and copying it into the log. {@code prepared}: the default, the next chunk
 * and file prepared on another thread ({@link WriteAheadLog#prepare}, as the log thread does), so
 * the appending thread makes no system call; {@code unprepared}: every 1 MiB the append allocates
 * the chunk itself (one write of zeros and a mapping: what {@code prepared} keeps off the serving
 * thread); {@code fsync}-less {@code written}: each record written with one {@code write} call (the
 * {@code fsync} policy's append, without its fsync). {@code pauseMicros} paces the appends: 100
 * is about the rate of YCSB A's writes at 8 callers; 0 writes hundreds of MB a second, so the
 * kernel's dirty-page throttling and writeback show in the tail. Run with
 * {@code bin/bench-proxy LogAppendBenchmark -f 1 -wi 3 -i 5}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class LogAppendBenchmark {
  @Param({"prepared", "unprepared", "written"})
  String mode;

  /** Microseconds parked before each append (0: flat out, far past any real write rate; 100: about 6 000 writes a second). */
  @Param({"100", "0"})
  int pauseMicros;

  private Path dir;
  private WriteAheadLog log;
  private ExecutorService preparer;
  private final AtomicBoolean preparing = new AtomicBoolean();
  private LogRecord record;

  @Setup(Level.Iteration)
  public void open() throws IOException {
    dir = Files.createTempDirectory("log-append");
    byte[] key = new byte[32];
    Arrays.fill(key, (byte) 1);
    Aead aead = new Aead(key);
    log = WriteAheadLog.open(dir, seq -> aead, mode.equals("written") ? WalSync.FSYNC : WalSync.WRITE, 1);
    preparer = Executors.newSingleThreadExecutor();
    record = new LogRecord.Write(7, new byte[1200]);
    if (mode.equals("prepared")) {
      log.prepare();
    }
  }

  @Setup(Level.Invocation)
  public void pause() {
    if (pauseMicros > 0) {
      java.util.concurrent.locks.LockSupport.parkNanos(pauseMicros * 1_000L);
    }
  }

  @Benchmark
  public long append() {
    long at = log.append(record);
    if (mode.equals("prepared") && log.wantsPreparation() && !preparing.getAndSet(true)) {
      preparer.execute(() -> {
        preparing.set(false);
        log.prepare();
      });
    }
    return at;
  }

  @TearDown(Level.Iteration)
  public void close() throws Exception {
    preparer.shutdown();
    preparer.awaitTermination(10, TimeUnit.SECONDS);
    log.close();
    try (var files = Files.list(dir)) {
      for (Path f : (Iterable<Path>) files::iterator) {
        Files.delete(f);
      }
    }
    Files.delete(dir);
  }
}
