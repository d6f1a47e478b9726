package io.pancakej.store;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Properties;

import org.junit.jupiter.api.Test;

import io.pancakej.ConfigException;

class StoresTest {

  @Test
  void open_withUnknownStoreName_namesThePropertyAndTheValidNames() {
    Properties p = new Properties();
    p.setProperty(Stores.STORE_PROPERTY, "nosuch");
    ConfigException e = assertThrows(ConfigException.class, () -> Stores.open(p));
    String m = e.getMessage();
    assertTrue(m.contains("pancake.store"), m);
    assertTrue(m.contains("nosuch"), m);
    for (String name : Stores.NAMES) {
      assertTrue(m.contains(name), m);
    }
  }

  @Test
  void open_withNonNumericRedisPort_namesTheProperty() {
    Properties p = new Properties();
    p.setProperty(Stores.STORE_PROPERTY, "redis");
    p.setProperty(Stores.REDIS_PORT_PROPERTY, "sixty");
    ConfigException e = assertThrows(ConfigException.class, () -> Stores.open(p));
    assertTrue(e.getMessage().contains("redis.port"), e.getMessage());
  }

  @Test
  void open_withRedisPortOutOfRange_isAConfigExceptionNamingPropertyValueAndRange() {
    for (String port : new String[] {"0", "-1", "65536", "70000"}) {
      Properties p = new Properties();
      p.setProperty(Stores.STORE_PROPERTY, "redis");
      p.setProperty(Stores.REDIS_PORT_PROPERTY, port);
      ConfigException e = assertThrows(ConfigException.class, () -> Stores.open(p), port);
      String m = e.getMessage();
      assertTrue(m.contains("redis.port"), m);
      assertTrue(m.contains("'" + port + "'"), m);
      assertTrue(m.contains("1..65535"), m);
    }
  }

  @Test
  void open_withANegativeRedisTimeout_isAConfigExceptionNamingPropertyAndRange() {
    for (String store : new String[] {"redis", "redis-cluster"}) {
      Properties p = new Properties();
      p.setProperty(Stores.STORE_PROPERTY, store);
      p.setProperty(Stores.REDIS_CLUSTER_NODES_PROPERTY, "127.0.0.1:7000");
      p.setProperty(Stores.REDIS_TIMEOUT_PROPERTY, "-1");
      ConfigException e = assertThrows(ConfigException.class, () -> Stores.open(p), store);
      String m = e.getMessage();
      assertTrue(m.contains("redis.timeout") && m.contains("'-1'") && m.contains("0.."), m);
    }
  }

  @Test
  void open_redisClusterWithASeedPortOutOfRange_isAConfigExceptionNamingNodeAndRange() {
    Properties p = new Properties();
    p.setProperty(Stores.STORE_PROPERTY, "redis-cluster");
    p.setProperty(Stores.REDIS_CLUSTER_NODES_PROPERTY, "127.0.0.1:7000, 127.0.0.1:99999");
    ConfigException e = assertThrows(ConfigException.class, () -> Stores.open(p));
    String m = e.getMessage();
    assertTrue(m.contains("redis.cluster.nodes"), m);
    assertTrue(m.contains("127.0.0.1:99999"), m);
    assertTrue(m.contains("1..65535"), m);
  }

  @Test
  void open_redisClusterWithoutNodes_namesTheProperty() {
    Properties p = new Properties();
    p.setProperty(Stores.STORE_PROPERTY, "redis-cluster");
    ConfigException e = assertThrows(ConfigException.class, () -> Stores.open(p));
    assertTrue(e.getMessage().contains("redis.cluster.nodes"), e.getMessage());
  }

  @Test
  void open_memoryByName_ignoringCaseAndSpaces() {
    Properties p = new Properties();
    p.setProperty(Stores.STORE_PROPERTY, " Memory ");
    try (KvStore s = Stores.open(p)) {
      assertTrue(s instanceof MemoryStore);
    }
  }
}
