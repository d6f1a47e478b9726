package io.pancakej.ycsb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import io.pancakej.testing.RedisClusterFixture;
import io.pancakej.testing.RedisServerFixture;
import redis.clients.jedis.Jedis;

/**
 * Every binding through stock YCSB, as users run it: {@code load} and then {@code run} of
 * workloads A and C, each a separate JVM, on embedded RocksDB, on a real Redis and on a real
 * three-master Redis Cluster, with YCSB's
 * data-integrity check on. Every operation must return OK and every read must verify.
 */
class YcsbEndToEndTest {
  /**
   * The bindings under test, by name: every scheme the launcher knows.
   */
  static final Map<String, String> BINDINGS = new LinkedHashMap<>();

  static {
    BINDINGS.put("insecure", InsecureBinding.class.getName());
    BINDINGS.put("encrypted", EncryptedBinding.class.getName());
    BINDINGS.put("pancake", PancakeBinding.class.getName());
    BINDINGS.put("pathoram", PathOramBinding.class.getName());
    BINDINGS.put("detworam", DetWoOramBinding.class.getName());
  }

  static final String[] STORES = {"rocksdb", "redis", "redis-cluster"};
  static final int RECORDS = 500;
  static final int OPERATIONS = 2000;
  static final int THREADS = 4;
  /** Smaller counts on the cluster: Jedis's cluster pipeline starts threads on every multi-node sync. */
  static final int CLUSTER_RECORDS = 150;
  static final int CLUSTER_OPERATIONS = 400;

  private static int records(String store) {
    return store.equals("redis-cluster") ? CLUSTER_RECORDS : RECORDS;
  }

  private static int operations(String store) {
    return store.equals("redis-cluster") ? CLUSTER_OPERATIONS : OPERATIONS;
  }

  private static RedisServerFixture redis;
  private static RedisClusterFixture cluster;

  @BeforeAll
  static void startRedis() {
    redis = new RedisServerFixture();
    cluster = new RedisClusterFixture();
  }

  @AfterAll
  static void stopRedis() {
    if (redis != null) {
      redis.close();
    }
    if (cluster != null) {
      cluster.close();
    }
  }

  static Stream<Arguments> bindingsAndStores() {
    return BINDINGS.keySet().stream().flatMap(b -> Stream.of(STORES).map(s -> Arguments.of(b, s)));
  }

  private static Map<String, String> props(String store) {
    Map<String, String> p = new LinkedHashMap<>();
    p.put("recordcount", Integer.toString(records(store)));
    p.put("operationcount", Integer.toString(operations(store)));
    p.put("dataintegrity", "true");
    p.put("fieldlengthdistribution", "constant");
    p.put("pancake.store", store);
    if (store.equals("redis")) {
      p.put("redis.host", redis.host());
      p.put("redis.port", Integer.toString(redis.port()));
    }
    if (store.equals("redis-cluster")) {
      p.put("redis.cluster.nodes", cluster.seeds());
    }
    return p;
  }

  private static void assertAllOk(YcsbProcess.Result r, String phase) {
    assertEquals(0, r.exitCode(), phase + " exit status\n" + r);
    Map<String, Long> returns = r.returns();
    assertTrue(returns.keySet().stream().allMatch(k -> k.endsWith("=OK")), phase + " returned " + returns + "\n" + r);
    assertTrue(!r.stdout().contains("Return=ERROR") && !r.stdout().contains("Return=NOT_FOUND"), r.toString());
  }

  @ParameterizedTest(name = "{0} on {1}")
  @MethodSource("bindingsAndStores")
  void loadThenRun_workloadsAandC_everyOperationOkAndVerified(String binding, String store, @TempDir Path dir)
      throws Exception {
    String db = BINDINGS.get(binding);
    if (store.equals("redis")) {
      try (Jedis jedis = new Jedis(redis.host(), redis.port())) {
        jedis.flushAll();
      }
    }
    if (store.equals("redis-cluster")) {
      cluster.flushAll();
    }
    Map<String, String> props = props(store);

    YcsbProcess.Result load = YcsbProcess.run(dir, "load", db, "workloada", THREADS, props);
    assertAllOk(load, "load");
    assertEquals(records(store), load.returns().get("INSERT=OK"), load.toString());
    if (store.equals("rocksdb")) {
      assertTrue(Files.isDirectory(dir.resolve("data").resolve(binding).resolve("rocksdb")), "per-binding default rocksdb.dir");
    }

    YcsbProcess.Result a = YcsbProcess.run(dir, "run", db, "workloada", THREADS, props);
    assertAllOk(a, "run A");
    long readsA = a.returns().getOrDefault("READ=OK", 0L);
    long updatesA = a.returns().getOrDefault("UPDATE=OK", 0L);
    assertEquals(operations(store), readsA + updatesA, a.toString());
    assertTrue(readsA > 0 && updatesA > 0, a.toString());
    assertEquals(readsA, a.returns().get("VERIFY=OK"), "every read verified\n" + a);

    YcsbProcess.Result c = YcsbProcess.run(dir, "run", db, "workloadc", THREADS, props);
    assertAllOk(c, "run C");
    assertEquals(operations(store), c.returns().get("READ=OK"), c.toString());
    assertEquals(operations(store), c.returns().get("VERIFY=OK"), "every read verified\n" + c);
  }
}
