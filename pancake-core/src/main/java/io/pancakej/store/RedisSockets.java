package io.pancakej.store;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;

import redis.clients.jedis.JedisSocketFactory;
import redis.clients.jedis.exceptions.JedisConnectionException;

/**
 * Sockets for Jedis that send a pipeline in one write and take a reply in as few reads as the
 * kernel allows. Jedis buffers 8 KiB each way, so a tick's call (an {@code MSET} of its write-back
 * and an {@code MGET}, some 13 KB at three batches) left in two or three writes, each waking the
 * server for a command it could not finish parsing, and its reply came back in as many reads.
 * Jedis flushes before it reads a reply, so holding the output until then changes nothing else.
 * The socket is set up as Jedis's own factory sets it up (address reuse, keep-alive, no Nagle, no
 * linger, the connect and read timeouts).
 */
final class RedisSockets implements JedisSocketFactory {
  /** Bytes held each way: a few ticks' calls (a tick of 64 batches sends some 250 KB, in several writes). */
  static final int BUFFER_BYTES = 1 << 16;

  private final String host;
  private final int port;
  private final int timeoutMs;

  RedisSockets(String host, int port, int timeoutMs) {
    this.host = host;
    this.port = port;
    this.timeoutMs = timeoutMs;
  }

  /** Connects to the host's addresses in the order they resolve, the first that answers (as Jedis's own factory). */
  @Override
  public Socket createSocket() {
    InetAddress[] addresses;
    try {
      addresses = InetAddress.getAllByName(host);
    } catch (IOException e) {
      throw new JedisConnectionException("Failed to connect to " + this + ": " + e.getMessage(), e);
    }
    Exception last = null;
    for (InetAddress address : addresses) {
      Socket s = new Coalescing();
      try {
        s.setReuseAddress(true);
        s.setKeepAlive(true);
        s.setTcpNoDelay(true);
        s.setSoLinger(true, 0);
        s.connect(new InetSocketAddress(address, port), timeoutMs);
        s.setSoTimeout(timeoutMs);
        return s;
      } catch (IOException | RuntimeException e) {
        last = e;
        try {
          s.close();
        } catch (IOException ignored) {
          // the connect failure is the one to report
        }
      }
    }
    throw new JedisConnectionException("Failed to connect to " + this + ": " + (last == null ? "no address" : last.getMessage()), last);
  }

  @Override
  public String toString() {
    return host + ":" + port;
  }

  /** Output held until Jedis flushes: the stream a socket's writes go through. */
  static OutputStream coalescing(OutputStream out) {
    return new BufferedOutputStream(out, BUFFER_BYTES);
  }

  private static final class Coalescing extends Socket {
    private OutputStream out;
    private InputStream in;

    @Override
    public synchronized OutputStream getOutputStream() throws IOException {
      if (out == null) {
        out = coalescing(super.getOutputStream());
      }
      return out;
    }

    @Override
    public synchronized InputStream getInputStream() throws IOException {
      if (in == null) {
        in = new FillingInput(super.getInputStream());
      }
      return in;
    }
  }

  /**
   * Reads whatever the socket holds, up to {@link #BUFFER_BYTES}, in one call, and hands it out
   * from memory. Unlike {@code BufferedInputStream} it never asks the socket how much is
   * available (a system call of its own) when a read is only partly answered from the buffer.
   */
  static final class FillingInput extends InputStream {
    private final InputStream in;
    private final byte[] buf = new byte[BUFFER_BYTES];
    private int pos;
    private int limit;

    FillingInput(InputStream in) {
      this.in = in;
    }

    private boolean fill() throws IOException {
      int n = in.read(buf, 0, buf.length);
      if (n <= 0) {
        return false;
      }
      pos = 0;
      limit = n;
      return true;
    }

    @Override
    public int read() throws IOException {
      if (pos == limit && !fill()) {
        return -1;
      }
      return buf[pos++] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      java.util.Objects.checkFromIndexSize(off, len, b.length);
      if (len == 0) {
        return 0;
      }
      if (pos == limit && !fill()) {
        return -1;
      }
      int n = Math.min(len, limit - pos);
      System.arraycopy(buf, pos, b, off, n);
      pos += n;
      return n;
    }

    @Override
    public int available() {
      return limit - pos;
    }

    @Override
    public void close() throws IOException {
      in.close();
    }
  }
}
