package io.pancakej.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.reflect.InvocationTargetException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import java.util.function.Function;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.pancakej.KvClient;
import io.pancakej.PancakeClient;
import io.pancakej.PancakeConfig;
import io.pancakej.testing.RedisServerFixture;

/**
 * rocksdbjni and jedis are optional dependencies of pancake-core: an application without them
 * runs on the stores it has, and selecting a store whose library is missing says which artifact
 * to add. The application's classpath is simulated by a class loader that hides a library's
 * packages and loads the project's own classes itself (so they link against what it hides).
 */
class MissingBackendLibraryTest {
  @TempDir
  Path dir;

  /** Loads {@code io.pancakej.*} itself; hides the given package prefixes; delegates the rest. */
  static final class HidingLoader extends ClassLoader {
    private final List<String> hidden;

    HidingLoader(List<String> hidden) {
      super(MissingBackendLibraryTest.class.getClassLoader());
      this.hidden = hidden;
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
      synchronized (getClassLoadingLock(name)) {
        for (String prefix : hidden) {
          if (name.startsWith(prefix)) {
            throw new ClassNotFoundException(name + " (hidden: not on this application's classpath)");
          }
        }
        if (!name.startsWith("io.pancakej.")) {
          return super.loadClass(name, resolve);
        }
        Class<?> c = findLoadedClass(name);
        if (c == null) {
          try (InputStream in = getParent().getResourceAsStream(name.replace('.', '/') + ".class")) {
            if (in == null) {
              throw new ClassNotFoundException(name);
            }
            byte[] bytes = in.readAllBytes();
            c = defineClass(name, bytes, 0, bytes.length);
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        }
        if (resolve) {
          resolveClass(c);
        }
        return c;
      }
    }
  }

  /** Runs {@code Stores.open(props)} with the given libraries hidden; returns what it threw, or null. */
  private static Throwable openStore(List<String> hidden, Properties props) throws Exception {
    Class<?> stores = Class.forName(Stores.class.getName(), true, new HidingLoader(hidden));
    try {
      AutoCloseable store = (AutoCloseable) stores.getMethod("open", Properties.class).invoke(null, props);
      store.close();
      return null;
    } catch (InvocationTargetException e) {
      return e.getCause();
    }
  }

  private static Properties store(String name) {
    Properties p = new Properties();
    p.setProperty(Stores.STORE_PROPERTY, name);
    return p;
  }

  @Test
  void rocksdbSelected_withoutRocksdbjni_failsWithAConfigException_namingTheArtifactToAdd() throws Exception {
    Properties p = store("rocksdb");
    p.setProperty(Stores.ROCKSDB_DIR_PROPERTY, dir.resolve("rocksdb").toString());
    Throwable e = openStore(List.of("org.rocksdb."), p);
    assertEquals("io.pancakej.ConfigException", e.getClass().getName(), String.valueOf(e));
    assertTrue(e.getMessage().startsWith("pancake.store=rocksdb needs org.rocksdb:rocksdbjni on the classpath;"
        + " add the dependency org.rocksdb:rocksdbjni:"), e.getMessage());
    assertFalse(e.getMessage().contains("${"), "the version is filtered in at build time: " + e.getMessage());
    assertTrue(e.getCause() instanceof ClassNotFoundException, "the cause is kept: " + e.getCause());
  }

  @Test
  void redisSelected_withoutJedis_failsWithAConfigException_namingTheArtifactToAdd() throws Exception {
    for (String name : List.of("redis", "redis-cluster")) {
      Throwable e = openStore(List.of("redis.clients."), store(name));
      assertEquals("io.pancakej.ConfigException", e.getClass().getName(), String.valueOf(e));
      assertTrue(e.getMessage().startsWith("pancake.store=" + name + " needs redis.clients:jedis on the classpath;"),
          e.getMessage());
    }
  }

  @Test
  void theOtherStores_openWithoutTheHiddenLibrary() throws Exception {
    assertEquals(null, openStore(List.of("org.rocksdb.", "redis.clients."), store("memory")));
    Properties p = store("rocksdb");
    p.setProperty(Stores.ROCKSDB_DIR_PROPERTY, dir.resolve("rocksdb").toString());
    assertEquals(null, openStore(List.of("redis.clients."), p), "RocksDB needs no jedis");
  }

  /** A whole PANCAKE round trip, configured from properties; run inside a hiding loader. */
  public static final class App implements Function<Properties, String> {
    @Override
    public String apply(Properties props) {
      try (PancakeClient client = PancakeClient.open(PancakeConfig.fromProperties(props))) {
        client.put(KvClient.utf8("k"), KvClient.utf8("v"));
        return new String(client.get(KvClient.utf8("k")).orElseThrow(), StandardCharsets.UTF_8);
      }
    }
  }

  /** Runs {@link App} in a loader that hides {@code hidden}, checking first that it does hide them. */
  @SuppressWarnings("unchecked")
  private static String runApp(List<String> hidden, Properties props) throws Exception {
    ClassLoader loader = new HidingLoader(hidden);
    for (String prefix : hidden) {
      String probe = prefix.startsWith("org.rocksdb") ? "org.rocksdb.RocksDB" : "redis.clients.jedis.Jedis";
      assertThrows(ClassNotFoundException.class, () -> Class.forName(probe, false, loader), probe);
    }
    Class<?> app = Class.forName(App.class.getName(), true, loader);
    return ((Function<Properties, String>) app.getConstructor().newInstance()).apply(props);
  }

  private Properties pancake(Properties store) {
    Properties p = new Properties();
    p.putAll(store);
    p.setProperty(PancakeConfig.STATE_DIR_PROPERTY, dir.resolve("state").toString());
    p.setProperty(PancakeConfig.CAPACITY_PROPERTY, "16");
    p.setProperty(PancakeConfig.VALUE_SIZE_PROPERTY, "16");
    p.setProperty(PancakeConfig.KEY_SIZE_PROPERTY, "16");
    return p;
  }

  @Test
  void aPancakeClient_runsWithNeitherBackendLibrary_onTheMemoryStore() throws Exception {
    assertEquals("v", runApp(List.of("org.rocksdb.", "redis.clients."), pancake(store("memory"))));
  }

  @Test
  void aRedisOnlyApplication_runsWithoutRocksdbjni() throws Exception {
    try (RedisServerFixture redis = new RedisServerFixture()) {
      Properties p = pancake(redis.properties());
      p.setProperty(Stores.STORE_PROPERTY, "redis");
      assertEquals("v", runApp(List.of("org.rocksdb."), p));
    }
  }
}
