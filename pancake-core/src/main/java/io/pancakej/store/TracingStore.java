package io.pancakej.store;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

import io.pancakej.StoreException;

/**
 * Records every server-visible operation, one per line, as the adversary (the store operator)
 * sees it: {@code R <label hex> <value length> <ns>} for each key of a read ({@code -1} when
 * absent), {@code W <label hex> <value length> <ns>} for each write and {@code D <label hex> 0 <ns>}
 * for each delete. {@code <ns>} is when the call was issued, in monotonic nanoseconds since this
 * process opened the trace, the same on every line of one call; one call is one round trip as the
 * store sees it (the proxy groups batches above this layer). Lines of one call are contiguous; the
 * audit reads this file. {@link #isEmpty()} and {@link #storage()} are not traced: they read no
 * label (one {@code DBSIZE} or seek before a state is created; a figure for reports).
 */
public final class TracingStore extends ForwardingStore {
  private static final HexFormat HEX = HexFormat.of();
  private final Path file;
  private final BufferedWriter out;
  private final AtomicBoolean open = new AtomicBoolean(true);
  private final long startNanos = System.nanoTime();

  /** Traces {@code delegate} into {@code file} (appended to; created with its directories if absent). */
  public TracingStore(KvStore delegate, Path file) {
    super(delegate);
    this.file = file.toAbsolutePath();
    try {
      Path parent = this.file.getParent();
      if (parent != null) {
        Files.createDirectories(parent);
      }
      this.out = Files.newBufferedWriter(this.file, StandardCharsets.US_ASCII,
          StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    } catch (IOException e) {
      delegate.close();
      throw new StoreException("cannot open trace file " + this.file + ": " + e.getMessage(), e);
    }
  }

  /**
   * The {@link System#nanoTime()} reading the trace's timestamps count from, to line the trace up
   * with the application's own events.
   */
  public long originNanos() {
    return startNanos;
  }

  @Override
  public List<byte[]> multiGet(List<byte[]> keys) {
    long at = System.nanoTime() - startNanos;
    List<byte[]> values = delegate().multiGet(keys);
    StringBuilder sb = new StringBuilder(keys.size() * 64);
    for (int i = 0; i < keys.size(); i++) {
      byte[] v = values.get(i);
      line(sb, 'R', keys.get(i), v == null ? -1 : v.length, at);
    }
    write(sb);
    return values;
  }

  @Override
  public void multiPut(List<byte[]> keys, List<byte[]> values) {
    long at = System.nanoTime() - startNanos;
    delegate().multiPut(keys, values);
    StringBuilder sb = new StringBuilder(keys.size() * 64);
    for (int i = 0; i < keys.size(); i++) {
      line(sb, 'W', keys.get(i), values.get(i).length, at);
    }
    write(sb);
  }

  @Override
  public List<byte[]> multiPutGet(List<byte[]> putKeys, List<byte[]> putValues, List<byte[]> getKeys) {
    long at = System.nanoTime() - startNanos;
    List<byte[]> values = delegate().multiPutGet(putKeys, putValues, getKeys);
    tracePutGet(putKeys, putValues, getKeys, values, at);
    return values;
  }

  /**
   * Traced once, when its reply is first awaited (the lengths read are known then), stamped with
   * when it was sent. Replies are awaited in the order calls were sent, so the lines keep that order.
   */
  @Override
  public PendingReply sendPutGet(List<byte[]> putKeys, List<byte[]> putValues, List<byte[]> getKeys) {
    long at = System.nanoTime() - startNanos;
    PendingReply reply = delegate().sendPutGet(putKeys, putValues, getKeys);
    boolean[] traced = new boolean[1];
    return () -> {
      synchronized (traced) {
        List<byte[]> values = reply.await();
        if (!traced[0]) {
          traced[0] = true;
          tracePutGet(putKeys, putValues, getKeys, values, at);
        }
        return values;
      }
    };
  }

  private void tracePutGet(List<byte[]> putKeys, List<byte[]> putValues, List<byte[]> getKeys, List<byte[]> values,
      long at) {
    StringBuilder sb = new StringBuilder((putKeys.size() + getKeys.size()) * 64);
    for (int i = 0; i < putKeys.size(); i++) {
      line(sb, 'W', putKeys.get(i), putValues.get(i).length, at);
    }
    for (int i = 0; i < getKeys.size(); i++) {
      byte[] v = values.get(i);
      line(sb, 'R', getKeys.get(i), v == null ? -1 : v.length, at);
    }
    write(sb);
  }

  @Override
  public void multiDelete(List<byte[]> keys) {
    long at = System.nanoTime() - startNanos;
    delegate().multiDelete(keys);
    StringBuilder sb = new StringBuilder(keys.size() * 64);
    for (byte[] k : keys) {
      line(sb, 'D', k, 0, at);
    }
    write(sb);
  }

  private static void line(StringBuilder sb, char op, byte[] key, int length, long at) {
    sb.append(op).append(' ').append(HEX.formatHex(key)).append(' ').append(length).append(' ').append(at)
        .append('\n');
  }

  private void write(StringBuilder sb) {
    synchronized (out) {
      try {
        out.write(sb.toString());
      } catch (IOException e) {
        throw new StoreException("cannot append to trace file " + file, new UncheckedIOException(e));
      }
    }
  }

  /** Traced as a one-element {@link #multiGet}. */
  @Override
  public byte[] get(byte[] key) {
    return standardGet(key);
  }

  /** Traced as a one-element {@link #multiPut}. */
  @Override
  public void put(byte[] key, byte[] value) {
    standardPut(key, value);
  }

  @Override
  public void close() {
    if (open.compareAndSet(true, false)) {
      try {
        synchronized (out) {
          out.close();
        }
      } catch (IOException e) {
        throw new StoreException("cannot close trace file " + file, e);
      } finally {
        super.close();
      }
    }
  }
}
