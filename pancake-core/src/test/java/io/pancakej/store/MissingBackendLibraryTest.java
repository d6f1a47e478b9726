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
import java.util.concurrent.Callable;
import java.util.function.Function;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.pancakej.KvClient;
import io.pancakej.PancakeClient;
import io.pancakej.PancakeConfig;

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

  /** A whole PANCAKE round trip on the memory store, run inside the hiding loader. */
  public static final class MemoryOnlyApp implements Function<Path, String> {
    @Override
    public String apply(Path stateDir) {
      Properties props = new Properties();
      props.setProperty(Stores.STORE_PROPERTY, "memory");
      PancakeConfig config = PancakeConfig.builder().stateDir(stateDir).capacity(16).valueSize(16).keySize(16)
          .storeProperties(props).build();
      try (PancakeClient client = PancakeClient.open(config)) {
        client.put(KvClient.utf8("k"), KvClient.utf8("v"));
        return new String(client.get(KvClient.utf8("k")).orElseThrow(), StandardCharsets.UTF_8);
      }
    }
  }

  @Test
  void aPancakeClient_runsWithNeitherBackendLibrary_onTheMemoryStore() throws Exception {
    Class<?> app = Class.forName(MemoryOnlyApp.class.getName(), true,
        new HidingLoader(List.of("org.rocksdb.", "redis.clients.")));
    @SuppressWarnings("unchecked")
    Function<Path, String> run = (Function<Path, String>) app.getConstructor().newInstance();
    assertEquals("v", run.apply(dir.resolve("state")));
    assertThrows(ClassNotFoundException.class, () -> Class.forName("org.rocksdb.RocksDB", false,
        app.getClassLoader()), "the loader does hide the library");
  }
}
