package io.pancakej.smoothing;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.IntConsumer;

import io.pancakej.PancakeException;
import io.pancakej.WalSync;

/**
 * Puts write records in the write-ahead log without the emitter's store calls ever waiting for the
 * disk: what the store sees, and when, does not depend on whether a batch carried writes. A
 * write's {@link LogTicket} turns durable after its append (and, with {@code fsync}, the fsync that
 * covers it: group commit).
 *
 * <p>Where an append is a copy into pages the log allocated ahead ({@code write}, the default:
 * {@link WriteAheadLog#appendsByCopy}), the thread that serves the write appends it at once, and
 * this class's thread only prepares the log's next chunk and file ({@link WriteAheadLog#prepare}),
 * so that the serving thread makes no system call for the log. Otherwise ({@code fsync}, or
 * Windows) records go to this class's thread, which appends and syncs them. Slot frees run on that
 * thread in either case, after the WRITE records of the key they free (a slot is freed only once
 * no request holds it and every replica has its deletion, so no write to it can be in flight).
 *
 * <p>A failed append or fsync fails the write that needed it and every later one (the log's
 * tail is then in doubt), and each failed key goes back to its last logged value: the proxy keeps
 * emitting the same batches, reads of logged data go on, and writes fail with the log's error
 * until the process reopens the state.
 */
final class LogWriter implements AutoCloseable {
  private sealed interface Task permits Write, Free, Barrier, Prepare {}

  /** Prepares the log's next chunk or file, off the serving thread. */
  private record Prepare() implements Task {}

  /** Completes once every task queued before it is done (tests: frees are asynchronous). */
  private record Barrier(java.util.concurrent.CompletableFuture<Void> done) implements Task {}

  /** {@code failedInline}: the error its append on the serving thread met (null: not tried there). */
  private record Write(int slot, byte[] value, LogTicket ticket, RuntimeException failedInline) implements Task {
    void fail(RuntimeException e, java.util.function.ObjIntConsumer<LogTicket> revert) {
      // the key goes back first: a caller told its write failed must read the value before it
      revert.accept(ticket, slot);
      ticket.failed(e);
    }
  }

  private record Free(int slot) implements Task {}

  private static final Task STOP = new Free(-1);
  private static final Task PREPARE = new Prepare();
  private static final System.Logger LOG = System.getLogger("io.pancakej");

  private final WriteAheadLog wal;
  private final IntConsumer free;
  /** Called with (slot, ticket) for every write that failed: the key goes back to its previous value. */
  private final java.util.function.ObjIntConsumer<LogTicket> revert;
  private final LinkedBlockingQueue<Task> tasks = new LinkedBlockingQueue<>();
  private final Thread thread;
  private volatile RuntimeException failure;
  /** A {@link #PREPARE} is queued and not yet run. */
  private final java.util.concurrent.atomic.AtomicBoolean preparing = new java.util.concurrent.atomic.AtomicBoolean();

  LogWriter(WriteAheadLog wal, IntConsumer free, java.util.function.ObjIntConsumer<LogTicket> revert,
      java.util.concurrent.ThreadFactory threads) {
    this.wal = wal;
    this.free = free;
    this.revert = revert;
    this.thread = threads.newThread(this::loop);
  }

  void start() {
    thread.start();
    prepareLog(); // the first spare chunk, before the first write needs it
  }

  /**
   * Logs a key's new latest value (null: deleted); its ticket turns durable once logged: at once
   * where an append is a copy, else on the log thread.
   */
  void write(int slot, byte[] value, LogTicket ticket) {
    // called inside the key's UpdateCache critical section: a failure is settled on the log
    // thread (the queue fails it), where reverting the key cannot re-enter that section
    if (wal.sync() == WalSync.OFF) {
      ticket.durable(); // nothing is logged: durable means "as durable as configured"
      return;
    }
    if (wal.appendsByCopy() && failure == null) {
      try {
        wal.append(new LogRecord.Write(slot, value));
        ticket.durable();
        if (wal.wantsPreparation()) {
          prepareLog();
        }
        return;
      } catch (RuntimeException e) {
        // queued, the write fails on the log thread (never appended again: a later write of the
        // key may be in the log already), and the ticks go on as they were
        tasks.add(new Write(slot, value, ticket, e));
        return;
      }
    }
    tasks.add(new Write(slot, value, ticket, null));
  }

  /** Has the log thread allocate the log's next chunk or file (once, however often asked before it runs). */
  void prepareLog() {
    if (wal.appendsByCopy() && !preparing.getAndSet(true)) {
      tasks.add(PREPARE);
    }
  }

  /** Queues freeing a key slot (its FREE record follows every WRITE queued before). */
  void free(int slot) {
    tasks.add(new Free(slot));
  }

  /** Waits until everything queued so far is done (tests). */
  void drain() {
    Barrier b = new Barrier(new java.util.concurrent.CompletableFuture<>());
    tasks.add(b);
    b.done().join();
  }

  /** The log's failure, if an append or fsync failed. */
  RuntimeException failure() {
    return failure;
  }

  private void loop() {
    List<Task> drained = new ArrayList<>();
    List<Write> appended = new ArrayList<>();
    while (true) {
      drained.clear();
      try {
        drained.add(tasks.take());
      } catch (InterruptedException e) {
        continue; // close() sends STOP; a stray interrupt changes nothing
      }
      tasks.drainTo(drained);
      boolean stop = false;
      long position = 0;
      appended.clear();
      for (Task t : drained) {
        if (t == STOP) {
          stop = true;
        } else if (t == PREPARE) {
          preparing.set(false);
          try {
            wal.prepare();
          } catch (RuntimeException e) {
            // not the log's failure: an append that finds nothing prepared allocates for itself
            LOG.log(System.Logger.Level.WARNING, "preparing the write-ahead log's next chunk failed: " + e);
          }
        } else if (t instanceof Barrier b) {
          settle(position, appended);
          position = 0;
          b.done().complete(null);
        } else if (t instanceof Write w) {
          if (failure != null) {
            w.fail(failure, revert);
            continue;
          }
          if (w.failedInline() != null) {
            settle(position, appended);
            position = 0;
            appended.add(w);
            fail(w.failedInline(), appended);
            continue;
          }
          try {
            position = wal.append(new LogRecord.Write(w.slot(), w.value()));
            appended.add(w);
          } catch (RuntimeException e) {
            settle(position, appended); // the records before it did reach the log
            position = 0;
            appended.add(w);
            fail(e, appended);
          }
        } else {
          settle(position, appended); // the frees' records follow the writes' on disk, synced or not
          position = 0;
          try {
            free.accept(((Free) t).slot());
          } catch (Throwable e) {
            // not a log failure unless the log says so (a FREE append): the slot stays bound, and a
            // reopen frees it (its deletion is in the log); the writes go on
            LOG.log(System.Logger.Level.WARNING, "freeing a deleted key's slot failed: " + e);
          }
        }
      }
      settle(position, appended);
      if (stop) {
        return;
      }
    }
  }

  private void settle(long position, List<Write> appended) {
    if (appended.isEmpty()) {
      return;
    }
    try {
      wal.syncTo(position);
      for (Write w : appended) {
        w.ticket().durable();
      }
    } catch (RuntimeException e) {
      fail(e, appended);
    }
    appended.clear();
  }

  private void fail(RuntimeException e, List<Write> appended) {
    if (failure == null) {
      failure = new PancakeException("the write-ahead log failed, so this write was not made durable;"
          + " writes fail until the state is reopened: " + e.getMessage(), e);
    }
    for (Write w : appended) {
      w.fail(failure, revert); // in log order: an earlier value is settled before a later one reverts to it
    }
    appended.clear();
  }

  /** Waits, without a limit, for the thread to end (after a close that gave up on a stuck store call). */
  void awaitStopped() throws InterruptedException {
    thread.join();
  }

  /** Appends what is queued, then stops the thread. */
  @Override
  public void close() {
    if (!thread.isAlive()) {
      return;
    }
    tasks.add(STOP);
    try {
      thread.join(TimeUnit.SECONDS.toMillis(30));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
