package io.pancakej.store;

import java.util.ArrayList;
import java.util.List;

import io.pancakej.StoreException;
import redis.clients.jedis.Connection;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.exceptions.JedisException;

/**
 * One Redis connection on which put-and-get calls ({@code MSET} then {@code MGET}) are written
 * without waiting, and their answers read later, in the order sent: Redis runs one connection's
 * commands in order, so a call's reads see every earlier call's writes, and several calls can be in
 * flight. One thread sends and another reads (the socket's two directions are independent). A
 * broken connection fails every call in flight on it; the next call opens a new one.
 */
final class RedisPipe implements AutoCloseable {
  private final HostAndPort address;
  private final JedisClientConfig config;
  private final String description;
  /** The connection calls are sent on (guarded by this). */
  private Link link;
  private boolean closed;

  RedisPipe(HostAndPort address, JedisClientConfig config, String description) {
    this.address = address;
    this.config = config;
    this.description = description;
  }

  /** A Jedis connection that can flush what was written without reading a reply. */
  private static final class Link extends Connection {
    /** Calls sent on it, and answers read (each guarded by its own side's lock). */
    private long sent;
    private long read;
    private final Object reading = new Object();

    Link(HostAndPort address, JedisClientConfig config) {
      super(address, config);
    }

    void send() {
      flush();
    }
  }

  /** Sends {@code MSET putKeys putValues} (if any) and {@code MGET getKeys} (if any) and returns at once. */
  synchronized KvStore.Pending send(List<byte[]> putKeys, List<byte[]> putValues, List<byte[]> getKeys) {
    if (closed) {
      throw new StoreException("Redis store " + description + " is closed");
    }
    byte[][] kv = new byte[putKeys.size() * 2][];
    for (int i = 0; i < putKeys.size(); i++) {
      kv[2 * i] = putKeys.get(i);
      kv[2 * i + 1] = putValues.get(i);
    }
    byte[][] keys = getKeys.toArray(new byte[0][]);
    Link l = link;
    try {
      if (l == null || l.isBroken()) {
        l = new Link(address, config);
        link = l;
      }
      if (kv.length > 0) {
        l.sendCommand(Protocol.Command.MSET, kv);
      }
      if (keys.length > 0) {
        l.sendCommand(Protocol.Command.MGET, keys);
      }
      l.send();
    } catch (JedisException e) {
      drop(l);
      throw RedisStore.failure("Redis MSET+MGET pipeline failed on " + description, e);
    }
    Link on = l;
    long seq = l.sent++;
    boolean put = kv.length > 0;
    return () -> answer(on, seq, put, keys.length);
  }

  /** Reads one call's answer: its {@code MSET} reply (if it had one), then its {@code MGET} reply. */
  private List<byte[]> answer(Link l, long seq, boolean put, int gets) {
    synchronized (l.reading) {
      if (l.read != seq) {
        throw new IllegalStateException("answers awaited out of order: call " + seq + " before " + l.read);
      }
      l.read++;
      if (l.isBroken()) {
        throw new StoreException("Redis MSET+MGET pipeline failed on " + description
            + " (connection): the connection broke before this call's answer");
      }
      try {
        JedisDataException refused = null;
        if (put) {
          try {
            l.getUnflushedObject();
          } catch (JedisDataException e) {
            refused = e; // the MGET's reply follows: read it so the next call's answer stays in step
          }
        }
        List<byte[]> values = new ArrayList<>(gets);
        if (gets > 0) {
          for (Object v : (List<?>) l.getUnflushedObject()) {
            values.add((byte[]) v);
          }
        }
        if (refused != null) {
          throw refused;
        }
        return values;
      } catch (JedisException e) {
        if (e instanceof JedisConnectionException) {
          drop(l);
        }
        throw RedisStore.failure("Redis MSET+MGET pipeline failed on " + description, e);
      }
    }
  }

  /** Closes a broken link (calls in flight on it fail when awaited); the next call opens a new one. */
  private void drop(Link l) {
    if (l == null) {
      return;
    }
    l.setBroken();
    try {
      l.close();
    } catch (RuntimeException e) {
      // best effort: it is broken already
    }
    synchronized (this) {
      if (link == l) {
        link = null;
      }
    }
  }

  @Override
  public synchronized void close() {
    closed = true;
    if (link != null) {
      try {
        link.close();
      } catch (RuntimeException e) {
        // best effort at close
      }
      link = null;
    }
  }
}
