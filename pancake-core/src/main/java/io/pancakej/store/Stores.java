package io.pancakej.store;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;

import io.pancakej.ConfigException;
import io.pancakej.StateException;
import io.pancakej.config.PropertyReader;

/**
 * The store factory: opens a {@link KvStore} by name from properties, for every scheme (the
 * clients call it; a configuration only names the store). Property names follow YCSB's stock bindings
 * where one exists ({@code redis.host}, {@code rocksdb.dir}); the project's own start with
 * {@code pancake.}.
 */
public final class Stores {
  /** Which backend: {@code rocksdb} (default), {@code redis}, {@code redis-cluster}, {@code memory}. */
  public static final String STORE_PROPERTY = "pancake.store";
  public static final String DEFAULT_STORE = "rocksdb";
  /** RocksDB data directory. */
  public static final String ROCKSDB_DIR_PROPERTY = "rocksdb.dir";
  public static final String DEFAULT_ROCKSDB_DIR = "data/rocksdb";
  public static final String REDIS_HOST_PROPERTY = "redis.host";
  public static final String REDIS_PORT_PROPERTY = "redis.port";
  public static final String REDIS_PASSWORD_PROPERTY = "redis.password";
  /** Redis logical database number (standalone only). */
  public static final String REDIS_DB_PROPERTY = "redis.db";
  /** Socket and connect timeout in milliseconds. */
  public static final String REDIS_TIMEOUT_PROPERTY = "redis.timeout";
  /** Comma-separated {@code host:port} seed nodes of a Redis Cluster. */
  public static final String REDIS_CLUSTER_NODES_PROPERTY = "redis.cluster.nodes";
  /** When set, every server-visible operation is appended to this file (see {@link TracingStore}). */
  public static final String TRACE_FILE_PROPERTY = "pancake.trace.file";
  /**
   * When set, the store counts server operations and bytes and, when closed, writes them and its
   * storage to this properties file (see {@link StatsFileStore}).
   */
  public static final String STATS_FILE_PROPERTY = "pancake.stats.file";

  /** The backend names {@link #open} accepts. */
  public static final List<String> NAMES = List.of("rocksdb", "redis", "redis-cluster", "memory");

  private Stores() {}

  /**
   * Opens the store named by {@value #STORE_PROPERTY}, wrapped in a tracer
   * ({@value #TRACE_FILE_PROPERTY}) and a counter ({@value #STATS_FILE_PROPERTY}) if asked for.
   */
  public static KvStore open(Properties props) {
    KvStore store = openRaw(props);
    Path trace = PropertyReader.path(props, TRACE_FILE_PROPERTY, null);
    if (trace != null) {
      store = new TracingStore(store, trace);
    }
    Path stats = PropertyReader.path(props, STATS_FILE_PROPERTY, null);
    if (stats != null) {
      store = new StatsFileStore(store, stats);
    }
    return store;
  }

  /**
   * Opens the store for a scheme whose state lives in {@code stateDir}, as {@link #open(Properties)}
   * does, after refusing a {@code memory} store under a state an earlier process left there: that
   * store is new and empty in every process (its data lives in this JVM only) while a state
   * directory outlives the process, so the second run of a program would find its state but not
   * its data.
   *
   * @param stateExists whether {@code stateDir} holds a saved state (as the scheme defines one)
   * @throws StateException if the store is {@code memory} and the state exists
   */
  public static KvStore open(Properties props, Path stateDir, boolean stateExists) {
    if (stateExists && "memory".equals(storeName(props))) {
      throw new StateException(STORE_PROPERTY + "=memory keeps its data in this process only (it is for tests and"
          + " single-process runs), but state directory " + stateDir.toAbsolutePath() + " already holds a state"
          + " from an earlier process, whose data went with that process: the state cannot be reopened over a"
          + " new, empty memory store. Use a store that outlives the process (" + STORE_PROPERTY + "=rocksdb,"
          + " the default, or redis), or give each run a new state directory (delete " + stateDir.toAbsolutePath()
          + " to start over)");
    }
    return open(props);
  }

  /** The backend {@value #STORE_PROPERTY} names, normalized (not checked). */
  private static String storeName(Properties props) {
    return props.getProperty(STORE_PROPERTY, DEFAULT_STORE).trim().toLowerCase(Locale.ROOT);
  }

  private static KvStore openRaw(Properties props) {
    String name = storeName(props);
    switch (name) {
      case "rocksdb":
        requireLibrary(name, "org.rocksdb.RocksDB", "org.rocksdb:rocksdbjni");
        return RocksDbStore.open(PropertyReader.path(props, ROCKSDB_DIR_PROPERTY, Path.of(DEFAULT_ROCKSDB_DIR)),
            new RocksDbStore.Tuning(
                PropertyReader.intValue(props, RocksDbStore.CACHE_MB_PROPERTY, RocksDbStore.DEFAULT_CACHE_MB),
                PropertyReader.intValue(props, RocksDbStore.MEMTABLE_MB_PROPERTY, RocksDbStore.DEFAULT_MEMTABLE_MB),
                PropertyReader.bool(props, RocksDbStore.IN_PLACE_PROPERTY, true),
                PropertyReader.intValue(props, RocksDbStore.FLUSH_AFTER_MB_PROPERTY,
                    RocksDbStore.DEFAULT_FLUSH_AFTER_MB)));
      case "redis":
        requireLibrary(name, "redis.clients.jedis.Jedis", "redis.clients:jedis");
        return RedisStore.open(props);
      case "redis-cluster":
        requireLibrary(name, "redis.clients.jedis.JedisCluster", "redis.clients:jedis");
        return RedisClusterStore.open(props);
      case "memory":
        return new MemoryStore();
      default:
        throw new ConfigException("unknown store '" + name + "' in property " + STORE_PROPERTY
            + "; expected one of " + NAMES);
    }
  }

  /**
   * Fails with a {@link ConfigException} naming the artifact to add when the library a backend
   * runs on is not on the classpath: rocksdbjni and jedis are optional dependencies of
   * pancake-core, which an application declares for the store it uses. Checked before the
   * backend's class is first used, which would otherwise fail with a bare
   * {@link NoClassDefFoundError}.
   */
  static void requireLibrary(String store, String className, String artifact) {
    try {
      Class.forName(className, false, Stores.class.getClassLoader());
    } catch (ClassNotFoundException | LinkageError e) {
      String version = backendVersions().getProperty(artifact, "");
      String coordinates = artifact + (version.isEmpty() || version.startsWith("$") ? "" : ":" + version);
      throw new ConfigException(STORE_PROPERTY + "=" + store + " needs " + artifact + " on the classpath; add the"
          + " dependency " + coordinates + " to the application (pancake-core declares it optional, so that an"
          + " application does not pull the libraries of stores it does not use), or choose another store in "
          + STORE_PROPERTY + ": " + NAMES, e);
    }
  }

  /** The versions of the optional backend libraries this build was made with (empty if unknown). */
  private static Properties backendVersions() {
    Properties versions = new Properties();
    try (var in = Stores.class.getResourceAsStream("backends.properties")) {
      if (in != null) {
        versions.load(in);
      }
    } catch (java.io.IOException e) {
      // only the version is missing from the message then
    }
    return versions;
  }

  /**
   * How to empty the store a {@link KvStore#describe()} names, for a user to do explicitly (the
   * schemes never wipe a store themselves): for error messages that refuse a store holding data.
   */
  public static String howToEmpty(String description) {
    int colon = description.indexOf(':');
    String kind = colon < 0 ? "" : description.substring(0, colon);
    String where = colon < 0 ? description : description.substring(colon + 1);
    switch (kind) {
      case "rocksdb":
        return "delete the RocksDB directory " + where + " (with no process using it)";
      case "redis": {
        int slash = where.lastIndexOf('/');
        String db = slash < 0 ? "0" : where.substring(slash + 1);
        String address = slash < 0 ? where : where.substring(0, slash);
        int port = address.lastIndexOf(':');
        String cli = port < 0 ? "" : " (redis-cli -h " + address.substring(0, port) + " -p "
            + address.substring(port + 1) + " -n " + db + " FLUSHDB)";
        return "wipe the store explicitly with FLUSHDB on Redis database " + db + " of " + address + cli;
      }
      case "redis-cluster":
        return "wipe the store explicitly with FLUSHALL on every master of the Redis Cluster " + where;
      default:
        return "delete every key of store " + description;
    }
  }

  /** The valid range of a TCP port, as in {@code redis.port} and {@code redis.cluster.nodes}. */
  public static final int MIN_PORT = 1;
  public static final int MAX_PORT = 65535;

  static void checkSameSize(List<byte[]> keys, List<byte[]> values) {
    if (keys.size() != values.size()) {
      throw new IllegalArgumentException(
          "multiPut needs as many values as keys: " + keys.size() + " keys, " + values.size() + " values");
    }
  }

  /**
   * For {@link KvStore#multiPutGet} implementations: when one side is empty the call is a plain
   * {@code multiGet} or {@code multiPut}, made here; returns its result, or null if both sides
   * have keys and the caller must send both.
   */
  static List<byte[]> oneSided(KvStore store, List<byte[]> putKeys, List<byte[]> putValues, List<byte[]> getKeys) {
    if (putKeys.isEmpty()) {
      return store.multiGet(getKeys);
    }
    if (getKeys.isEmpty()) {
      store.multiPut(putKeys, putValues);
      return new ArrayList<>(0);
    }
    return null;
  }
}
