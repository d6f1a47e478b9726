package io.pancakej.store;

import java.io.IOException;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.ReentrantLock;

import redis.clients.jedis.CommandArguments;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.exceptions.JedisException;
import redis.clients.jedis.util.RedisInputStream;
import redis.clients.jedis.util.RedisOutputStream;

/**
 * One Redis connection on which calls are sent without waiting for their replies, and whose
 * replies are read back in the order the calls were sent, by whichever thread awaits one: a tick's
 * call leaves on its grid point while the previous tick's reply is still on its way. Sending
 * writes only the socket's output and reading reads only its input, so a sender never waits for a
 * reader. Redis executes one connection's commands in order, so a call reads what every call sent
 * before it wrote.
 *
 * <p>A connection whose send fails takes no more calls (the next send opens a new one), but the
 * replies of the calls sent on it before are still read: Redis ran them. A connection whose reply
 * cannot be read (an I/O error, a timed-out reply) is dropped: the stream is no longer in step
 * with the calls, so every call on it whose reply was not read fails with that error. An error
 * reply (Redis's {@code -ERR ...}) fails its own call only; the connection goes on.
 */
final class RedisPipeline implements AutoCloseable {
  private final RedisSockets sockets;
  private final String password;
  private final int db;
  /** Guarded by this: the connection calls are sent on (null: none yet, or dropped). */
  private Link link;
  /** Guarded by this. */
  private boolean closed;

  RedisPipeline(RedisSockets sockets, String password, int db) {
    this.sockets = sockets;
    this.password = password;
    this.db = db;
  }

  /**
   * Sends {@code commands} as one write and returns the call that reads their replies; a send
   * that fails drops the connection and throws.
   *
   * @param reads whether the last command's reply is the values the call returns (else none)
   */
  synchronized Call send(List<CommandArguments> commands, boolean reads) {
    if (closed) {
      throw new JedisConnectionException("the store is closed");
    }
    if (link == null || link.failure != null) {
      link = null;
      link = Link.open(sockets, password, db);
    }
    Link l = link;
    try {
      for (CommandArguments c : commands) {
        Protocol.sendCommand(l.out, c);
      }
      l.out.flush();
    } catch (IOException | RuntimeException | Error e) {
      JedisException failure = e instanceof JedisException je ? je : new JedisConnectionException(e);
      l.stopSending(failure);
      throw failure;
    }
    Call call = new Call(l, commands.size(), reads);
    l.unread.add(call); // after the write: a reader never waits for a reply that was not sent
    return call;
  }

  /** Drops the connection: calls whose replies were not read fail. */
  @Override
  public synchronized void close() {
    closed = true;
    if (link != null) {
      link.drop(new JedisConnectionException("the store is closed"));
      link = null;
    }
  }

  /** One connection, and its calls whose replies were not read yet, in the order they were sent. */
  private static final class Link {
    final Socket socket;
    final RedisOutputStream out;
    final RedisInputStream in;
    final ConcurrentLinkedQueue<Call> unread = new ConcurrentLinkedQueue<>();
    /** Held while a reply is read: readers take replies in order. */
    final ReentrantLock reading = new ReentrantLock();
    /** The error that ended the connection for new calls (null: it works). */
    volatile JedisException failure;
    /** The stream can no longer be read in step with the calls (or the store closed). */
    volatile boolean unreadable;

    private Link(Socket socket) throws IOException {
      this.socket = socket;
      this.out = new RedisOutputStream(socket.getOutputStream());
      this.in = new RedisInputStream(socket.getInputStream());
    }

    /** Connects, authenticates and selects the database, as Jedis's own connections do. */
    static Link open(RedisSockets sockets, String password, int db) {
      Socket s = sockets.createSocket();
      try {
        Link l = new Link(s);
        int replies = 0;
        if (password != null) {
          Protocol.sendCommand(l.out, new CommandArguments(Protocol.Command.AUTH).add(password));
          replies++;
        }
        if (db != 0) {
          Protocol.sendCommand(l.out, new CommandArguments(Protocol.Command.SELECT).add(db));
          replies++;
        }
        l.out.flush();
        for (int i = 0; i < replies; i++) {
          Protocol.read(l.in); // an error reply is thrown: a wrong password or database fails the send
        }
        return l;
      } catch (IOException | RuntimeException e) {
        try {
          s.close();
        } catch (IOException ignored) {
          // the setup's failure is the one to report
        }
        if (e instanceof JedisException je) {
          throw je;
        }
        throw new JedisConnectionException("cannot set up a connection to " + sockets + ": " + e.getMessage(), e);
      }
    }

    /**
     * A send failed: no more calls go out here, and the replies of those sent before are still
     * read (the socket closes after the last of them).
     */
    void stopSending(JedisException e) {
      if (failure == null) {
        failure = e;
      }
      try {
        socket.shutdownOutput();
      } catch (IOException ignored) {
        // the output is unusable either way
      }
      // a reader takes a call off the queue before it reads its reply: only with the reading lock
      // held does an empty queue mean no reply is being read (otherwise the last reader closes it)
      reading.lock();
      try {
        if (unread.isEmpty()) {
          closeSocket();
        }
      } finally {
        reading.unlock();
      }
    }

    /** Drops the connection with {@code e} (the first error wins); a blocked reader wakes with an error. */
    void drop(JedisException e) {
      if (failure == null) {
        failure = e;
      }
      unreadable = true;
      closeSocket();
    }

    void closeSocket() {
      try {
        socket.close();
      } catch (IOException ignored) {
        // closing is best effort: the connection is not used again
      }
    }
  }

  /** A call sent on a connection, whose replies are read once, by the first thread that needs them. */
  static final class Call {
    private final Link link;
    private final int replies;
    private final boolean reads;
    // written under link.reading before done is set, read after it is seen set (volatile)
    private List<byte[]> values;
    private JedisException failure;
    private volatile boolean done;

    private Call(Link link, int replies, boolean reads) {
      this.link = link;
      this.replies = replies;
      this.reads = reads;
    }

    /** Reads the replies up to this call's (those of calls sent before it first); returns its values. */
    List<byte[]> await() {
      if (!done) {
        link.reading.lock();
        try {
          while (!done) {
            Call first = link.unread.poll();
            if (first == null) {
              throw new IllegalStateException("a call's reply was awaited before it was sent");
            }
            first.read();
          }
        } finally {
          link.reading.unlock();
        }
      }
      if (failure != null) {
        throw failure;
      }
      return values;
    }

    /** Reads this call's replies (holding the link's reading lock). */
    @SuppressWarnings("unchecked")
    private void read() {
      try {
        if (link.unreadable) {
          failure = link.failure;
          return;
        }
        JedisDataException error = null;
        Object last = null;
        for (int i = 0; i < replies; i++) {
          try {
            last = Protocol.read(link.in);
          } catch (JedisDataException e) {
            // an error reply: the connection is fine, and the call's other replies still follow
            if (error == null) {
              error = e;
            }
          }
        }
        if (error != null) {
          failure = error;
        } else if (reads && !(last instanceof List)) {
          throw new JedisConnectionException("unexpected reply to a multi-get: " + last);
        } else {
          values = reads ? (List<byte[]>) last : List.of();
        }
      } catch (RuntimeException | Error e) {
        // the stream is no longer in step with the calls: every later one fails too
        link.drop(e instanceof JedisException je ? je : new JedisConnectionException(e));
        failure = link.failure;
      } finally {
        done = true;
        if (link.failure != null && link.unread.isEmpty()) {
          link.closeSocket(); // a connection that took no more calls: its last reply is read
        }
      }
    }
  }
}
