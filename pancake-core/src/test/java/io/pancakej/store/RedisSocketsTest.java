package io.pancakej.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Arrays;
import java.util.Random;

import org.junit.jupiter.api.Test;

import redis.clients.jedis.util.RedisInputStream;
import redis.clients.jedis.util.RedisOutputStream;

/** What the sockets change: the writes and reads a tick's call costs (the server tests cover the rest). */
class RedisSocketsTest {
  /** A tick's call at three batches: 9 values of 1.3 KB out, as many back. */
  private static final int CALL_BYTES = 13_000;

  @Test
  void aPipelineGoesOutInOneWrite_whereJedisAloneNeedsTwo() throws IOException {
    CountingOutput plain = new CountingOutput();
    sendCall(new RedisOutputStream(plain));
    assertTrue(plain.writes >= 2, "Jedis's own 8 KiB buffer: " + plain.writes + " writes");

    CountingOutput coalesced = new CountingOutput();
    byte[] sent = sendCall(new RedisOutputStream(RedisSockets.coalescing(coalesced)));
    assertEquals(1, coalesced.writes, "one write at the flush");
    assertArrayEquals(sent, coalesced.bytes.toByteArray());
  }

  @Test
  void aReplyThatHasArrivedIsTakenInOneRead_andReadsBackExactly() throws IOException {
    byte[] reply = new byte[CALL_BYTES];
    new Random(1).nextBytes(reply);

    ChunkedInput plain = new ChunkedInput(reply, reply.length);
    byte[] got = readAll(new RedisInputStream(plain), reply.length);
    assertArrayEquals(reply, got);
    assertTrue(plain.reads >= 2, "Jedis's own 8 KiB buffer: " + plain.reads + " reads");

    ChunkedInput filled = new ChunkedInput(reply, reply.length);
    got = readAll(new RedisInputStream(new RedisSockets.FillingInput(filled)), reply.length);
    assertArrayEquals(reply, got);
    assertEquals(1, filled.reads, "the whole reply in one read");
  }

  @Test
  void fillingInput_handsOutPartialArrivals_singleBytes_andTheEnd() throws IOException {
    byte[] data = new byte[100_000]; // more than its buffer
    new Random(2).nextBytes(data);
    RedisSockets.FillingInput in = new RedisSockets.FillingInput(new ChunkedInput(data, 777));
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    byte[] chunk = new byte[1000];
    int b = in.read();
    out.write(b);
    int n;
    while ((n = in.read(chunk, 0, chunk.length)) > 0) {
      assertTrue(n <= 777, "never more than the socket gave in one read: " + n);
      out.write(chunk, 0, n);
    }
    assertEquals(-1, n);
    assertEquals(-1, in.read());
    assertArrayEquals(data, out.toByteArray());
    assertEquals(0, in.read(chunk, 0, 0));
  }

  private static byte[] sendCall(RedisOutputStream out) throws IOException {
    ByteArrayOutputStream sent = new ByteArrayOutputStream();
    byte[] value = new byte[1300];
    Arrays.fill(value, (byte) 'v');
    for (int i = 0; i < CALL_BYTES / value.length; i++) {
      out.write(value);
      sent.write(value);
      out.writeCrLf();
      sent.write(new byte[] {'\r', '\n'});
    }
    out.flush();
    return sent.toByteArray();
  }

  private static byte[] readAll(RedisInputStream in, int length) throws IOException {
    byte[] b = new byte[length];
    int off = 0;
    while (off < length) {
      int n = in.read(b, off, length - off);
      if (n < 0) {
        break;
      }
      off += n;
    }
    return Arrays.copyOf(b, off);
  }

  private static final class CountingOutput extends OutputStream {
    final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    int writes;

    @Override
    public void write(int b) {
      writes++;
      bytes.write(b);
    }

    @Override
    public void write(byte[] b, int off, int len) {
      writes++;
      bytes.write(b, off, len);
    }
  }

  /** A socket's input: at most {@code chunk} bytes a read, counted. */
  private static final class ChunkedInput extends InputStream {
    private final byte[] data;
    private final int chunk;
    private int pos;
    int reads;

    ChunkedInput(byte[] data, int chunk) {
      this.data = data;
      this.chunk = chunk;
    }

    @Override
    public int read() {
      reads++;
      return pos < data.length ? data[pos++] & 0xff : -1;
    }

    @Override
    public int read(byte[] b, int off, int len) {
      reads++;
      if (pos == data.length) {
        return -1;
      }
      int n = Math.min(Math.min(len, chunk), data.length - pos);
      System.arraycopy(data, pos, b, off, n);
      pos += n;
      return n;
    }
  }
}
