package io.pancakej.ycsb;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.Vector;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

import io.pancakej.KvClient;
import io.pancakej.PancakeConfig;
import io.pancakej.StoreException;
import io.pancakej.ValueTooLargeException;
import io.pancakej.store.Stores;
import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.DBException;
import site.ycsb.Status;

/**
 * A YCSB binding on a {@link KvClient}. YCSB makes one {@link DB} per client thread; they all
 * share one client per JVM and binding class, opened by the first {@link #init()} and closed by
 * the last {@link #cleanup()} (reference counted, as YCSB's RocksDB binding does). A record is
 * one value ({@link RecordCodec}); a YCSB update merges its fields into the stored record inside
 * {@link KvClient#update}, atomically.
 *
 * <p>Exceptions become {@link Status} here and nowhere else: an absent key is
 * {@link Status#NOT_FOUND}; a too-large record or a bad argument is {@link Status#BAD_REQUEST}; a
 * store failure is {@link Status#SERVICE_UNAVAILABLE}; anything else is {@link Status#ERROR}.
 * Each distinct failure message is printed once to stderr with its causes (no stack trace).
 *
 * <p>Every binding keeps its data apart by default: {@code rocksdb.dir} defaults to
 * {@code data/<binding>/rocksdb} and {@code pancake.state.dir} to {@code data/<binding>/state}.
 * In the run phase (YCSB's {@code dotransactions=true}) {@code pancake.state.create} is forced to
 * false, so a run without a load fails clearly instead of starting from an empty state.
 *
 * <p>With {@code pancake.stats.file} set, the store counts server operations and bytes and writes
 * them to that file when the client closes ({@link Stores#STATS_FILE_PROPERTY}); the binding then
 * appends {@code ycsbOperations}, the number of YCSB operations (read, insert, update, delete)
 * this JVM performed, so a reader can divide.
 */
public abstract class KvClientBinding extends DB {
  /** YCSB's run-phase flag, set by {@code -t} (true) and {@code -load} (false). */
  public static final String DO_TRANSACTIONS_PROPERTY = "dotransactions";
  /**
   * Whether a failed {@link #init()} ends the JVM with exit status 1 (default true). YCSB's client
   * thread swallows init failures, which would report an empty run (or hang with {@code -s}).
   */
  public static final String EXIT_ON_INIT_FAILURE_PROPERTY = "pancake.ycsb.exit.on.init.failure";
  private static final int MAX_DISTINCT_REPORTS = 32;

  /** Guards {@link #CLIENTS}: one shared client per binding class. */
  private static final Object LOCK = new Object();
  private static final Map<Class<?>, Shared> CLIENTS = new HashMap<>();
  private static final Set<String> REPORTED = ConcurrentHashMap.newKeySet();

  private static final class Shared {
    final KvClient client;
    final String statsFile;
    final LongAdder operations = new LongAdder();
    int references;

    Shared(KvClient client, String statsFile) {
      this.client = client;
      this.statsFile = statsFile;
    }
  }

  private KvClient client;
  private LongAdder operations;

  /** The binding's name on the command line and in default data paths, e.g. {@code encrypted}. */
  protected abstract String name();

  /** Opens this binding's client from the effective properties. */
  protected abstract KvClient openClient(Properties props);

  /**
   * The properties the client is opened with: YCSB's, plus per-binding data locations and, in the
   * run phase, {@code pancake.state.create=false}.
   */
  Properties effectiveProperties(Properties ycsb) {
    Properties p = new Properties();
    p.putAll(ycsb);
    if (isBlank(p.getProperty(Stores.ROCKSDB_DIR_PROPERTY))) {
      p.setProperty(Stores.ROCKSDB_DIR_PROPERTY, "data/" + name() + "/rocksdb");
    }
    if (isBlank(p.getProperty(PancakeConfig.STATE_DIR_PROPERTY))) {
      p.setProperty(PancakeConfig.STATE_DIR_PROPERTY, "data/" + name() + "/state");
    }
    if ("true".equalsIgnoreCase(p.getProperty(DO_TRANSACTIONS_PROPERTY, "").trim())) {
      p.setProperty(PancakeConfig.CREATE_PROPERTY, "false");
    }
    return p;
  }

  private static boolean isBlank(String s) {
    return s == null || s.isBlank();
  }

  @Override
  public void init() throws DBException {
    synchronized (LOCK) {
      Shared shared = CLIENTS.get(getClass());
      if (shared == null) {
        Properties props = effectiveProperties(getProperties());
        try {
          shared = new Shared(openClient(props), props.getProperty(Stores.STATS_FILE_PROPERTY));
        } catch (RuntimeException e) {
          String message = "[" + name() + "] cannot open the client: " + describe(e);
          System.err.println(message);
          if (!"false".equalsIgnoreCase(props.getProperty(EXIT_ON_INIT_FAILURE_PROPERTY, "true").trim())) {
            System.err.flush();
            System.exit(1);
          }
          DBException failure = new DBException(message);
          failure.setStackTrace(new StackTraceElement[0]);
          throw failure;
        }
        CLIENTS.put(getClass(), shared);
      }
      shared.references++;
      client = shared.client;
      operations = shared.operations;
    }
  }

  @Override
  public void cleanup() throws DBException {
    synchronized (LOCK) {
      if (client == null) {
        return;
      }
      client = null;
      Shared shared = CLIENTS.get(getClass());
      if (shared != null && --shared.references == 0) {
        CLIENTS.remove(getClass());
        try {
          beforeClose(shared.client);
          shared.client.close();
        } catch (RuntimeException e) {
          String message = "[" + name() + "] closing the client failed: " + describe(e);
          System.err.println(message);
          DBException failure = new DBException(message);
          failure.setStackTrace(new StackTraceElement[0]);
          throw failure;
        }
        appendOperationCount(shared);
      }
    }
  }

  /** Called once, by the last {@link #cleanup()}, before the shared client closes (a summary line). */
  protected void beforeClose(KvClient client) {
  }

  private void appendOperationCount(Shared shared) {
    if (isBlank(shared.statsFile)) {
      return;
    }
    Path file = Path.of(shared.statsFile.trim());
    try {
      Files.writeString(file, "ycsbOperations=" + shared.operations.sum() + "\n", StandardCharsets.UTF_8,
          StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    } catch (IOException e) {
      System.err.println("[" + name() + "] cannot append to stats file " + file + ": " + e.getMessage());
    }
  }

  /** The shared client; only between {@link #init()} and {@link #cleanup()}. */
  KvClient client() {
    if (client == null) {
      throw new IllegalStateException(name() + " binding used before init() or after cleanup()");
    }
    operations.increment();
    return client;
  }

  private static byte[] key(String key) {
    return KvClient.utf8(key);
  }

  @Override
  public Status read(String table, String key, Set<String> fields, Map<String, ByteIterator> result) {
    try {
      Optional<byte[]> value = client().get(key(key));
      if (value.isEmpty()) {
        return Status.NOT_FOUND;
      }
      RecordCodec.decodeInto(value.get(), fields, result);
      return Status.OK;
    } catch (RuntimeException e) {
      return failure("read", e);
    }
  }

  @Override
  public Status insert(String table, String key, Map<String, ByteIterator> values) {
    try {
      client().put(key(key), RecordCodec.encode(values));
      return Status.OK;
    } catch (RuntimeException e) {
      return failure("insert", e);
    }
  }

  @Override
  public Status update(String table, String key, Map<String, ByteIterator> values) {
    try {
      Map<String, byte[]> fields = RecordCodec.toBytes(values);
      boolean present = client().update(key(key), stored -> RecordCodec.merge(stored, fields));
      return present ? Status.OK : Status.NOT_FOUND;
    } catch (RuntimeException e) {
      return failure("update", e);
    }
  }

  @Override
  public Status delete(String table, String key) {
    try {
      return client().delete(key(key)) ? Status.OK : Status.NOT_FOUND;
    } catch (RuntimeException e) {
      return failure("delete", e);
    }
  }

  /** Range scans would reveal key order; no scheme here supports them. */
  @Override
  public Status scan(String table, String startkey, int recordcount, Set<String> fields,
      Vector<HashMap<String, ByteIterator>> result) {
    return Status.NOT_IMPLEMENTED;
  }

  /** Maps an exception to a status, reporting each distinct failure once. */
  Status failure(String operation, RuntimeException e) {
    Status status;
    String advice = "";
    if (e instanceof ValueTooLargeException || e instanceof IllegalArgumentException) {
      status = Status.BAD_REQUEST;
      if (e instanceof ValueTooLargeException) {
        advice = " (records are stored whole: fieldcount x fieldlength plus ~"
            + "8 bytes per field must fit in " + PancakeConfig.VALUE_SIZE_PROPERTY + ")";
      }
    } else if (e instanceof StoreException) {
      status = Status.SERVICE_UNAVAILABLE;
    } else {
      status = Status.ERROR;
    }
    String text = describe(e);
    if (REPORTED.size() < MAX_DISTINCT_REPORTS && REPORTED.add(status.getName() + text)) {
      System.err.println("[" + name() + "] " + operation + " failed with " + status.getName() + ": "
          + text + advice + (REPORTED.size() == MAX_DISTINCT_REPORTS ? " (further distinct failures not shown)" : ""));
    }
    return status;
  }

  /** The exception's message and every cause's, on one line, without stack traces. */
  static String describe(Throwable e) {
    StringBuilder sb = new StringBuilder();
    int depth = 0;
    for (Throwable t = e; t != null && depth < 8; t = t.getCause(), depth++) {
      if (depth > 0) {
        sb.append("; caused by ");
      }
      String simple = t.getClass().getSimpleName();
      sb.append(t.getMessage() == null ? simple : simple + ": " + t.getMessage());
      if (t.getCause() == t) {
        break;
      }
    }
    return sb.toString().replace('\n', ' ');
  }
}
