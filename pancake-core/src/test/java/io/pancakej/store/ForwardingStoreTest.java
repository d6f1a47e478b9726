package io.pancakej.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;

class ForwardingStoreTest {

  /** The SPI's instance methods: what a decorator must forward. */
  private static List<Method> spiMethods() {
    List<Method> methods = new ArrayList<>();
    for (Method m : KvStore.class.getMethods()) {
      if (!Modifier.isStatic(m.getModifiers())) {
        methods.add(m);
      }
    }
    return methods;
  }

  @Test
  void forwardingStore_declaresEverySpiMethod_defaultsIncluded() {
    for (Method m : spiMethods()) {
      Method declared = declaredInForwardingStore(m);
      assertEquals(ForwardingStore.class, declared.getDeclaringClass(), m.getName());
    }
  }

  private static Method declaredInForwardingStore(Method m) {
    try {
      return ForwardingStore.class.getDeclaredMethod(m.getName(), m.getParameterTypes());
    } catch (NoSuchMethodException e) {
      throw new AssertionError("ForwardingStore does not forward " + m + "; a decorator would silently fall back"
          + " to the interface's default", e);
    }
  }

  @Test
  void everySpiCall_reachesTheDelegate_withItsArguments_andReturnsTheDelegatesResult() throws Exception {
    List<Object[]> seen = new ArrayList<>();
    Object[] results = new Object[1];
    KvStore delegate = (KvStore) java.lang.reflect.Proxy.newProxyInstance(KvStore.class.getClassLoader(),
        new Class<?>[] {KvStore.class}, (proxy, method, args) -> {
          seen.add(new Object[] {method, args});
          return results[0];
        });
    KvStore forwarding = new ForwardingStore(delegate) {};
    for (Method m : spiMethods()) {
      Object[] args = new Object[m.getParameterCount()];
      for (int i = 0; i < args.length; i++) {
        args[i] = sample(m.getParameterTypes()[i]);
      }
      results[0] = sampleResult(m.getReturnType());
      seen.clear();
      Object returned = m.invoke(forwarding, args);
      assertEquals(1, seen.size(), m.getName() + " made " + seen.size() + " delegate calls");
      assertEquals(m, seen.get(0)[0], "forwarded as the same method");
      Object[] forwardedArgs = (Object[]) seen.get(0)[1];
      for (int i = 0; i < args.length; i++) {
        assertSame(args[i], forwardedArgs[i], m.getName() + " argument " + i);
      }
      if (m.getReturnType() != void.class) {
        assertEquals(results[0], returned, m.getName() + " result");
      }
    }
  }

  private static Object sample(Class<?> type) {
    if (type == List.class) {
      return new ArrayList<>(List.of(new byte[] {1}));
    }
    if (type == byte[].class) {
      return new byte[] {2};
    }
    throw new AssertionError("no sample argument for " + type + ": extend this test for the new SPI method");
  }

  private static Object sampleResult(Class<?> type) {
    if (type == void.class) {
      return null;
    }
    if (type == List.class) {
      return new ArrayList<>(List.of(new byte[] {3}));
    }
    if (type == byte[].class) {
      return new byte[] {4};
    }
    if (type == boolean.class) {
      return true;
    }
    if (type == String.class) {
      return "delegate";
    }
    if (type == Optional.class) {
      return Optional.of(new KvStore.Storage(5, 6));
    }
    if (type == KvStore.PendingReply.class) {
      return (KvStore.PendingReply) () -> List.of(new byte[] {7});
    }
    throw new AssertionError("no sample result for " + type + ": extend this test for the new SPI method");
  }

  @Test
  void everyDecoratorOfTheLibrary_extendsForwardingStore() {
    for (Class<?> decorator : List.of(CountingStore.class, TracingStore.class, StatsFileStore.class)) {
      assertTrue(ForwardingStore.class.isAssignableFrom(decorator), decorator.getSimpleName());
    }
  }

  @Test
  void standardMethods_goThroughTheSubclasssMultiGetAndMultiPut() {
    List<String> calls = new ArrayList<>();
    MemoryStore memory = new MemoryStore();
    ForwardingStore observing = new ForwardingStore(memory) {
      @Override
      public List<byte[]> multiGet(List<byte[]> keys) {
        calls.add("multiGet " + keys.size());
        return super.multiGet(keys);
      }

      @Override
      public void multiPut(List<byte[]> keys, List<byte[]> values) {
        calls.add("multiPut " + keys.size());
        super.multiPut(keys, values);
      }

      @Override
      public List<byte[]> multiPutGet(List<byte[]> putKeys, List<byte[]> putValues, List<byte[]> getKeys) {
        return standardMultiPutGet(putKeys, putValues, getKeys);
      }

      @Override
      public byte[] get(byte[] key) {
        return standardGet(key);
      }

      @Override
      public void put(byte[] key, byte[] value) {
        standardPut(key, value);
      }
    };
    observing.put(new byte[] {1}, new byte[] {10});
    assertArrayEquals(new byte[] {10}, observing.get(new byte[] {1}));
    List<byte[]> read = observing.multiPutGet(List.of(new byte[] {2}), List.of(new byte[] {20}),
        List.of(new byte[] {1}, new byte[] {2}));
    assertArrayEquals(new byte[] {10}, read.get(0));
    assertArrayEquals(new byte[] {20}, read.get(1));
    assertEquals(List.of("multiPut 1", "multiGet 1", "multiPut 1", "multiGet 2"), calls);
  }

  @Test
  void close_closesTheDelegate_andANullDelegateIsRefused() {
    MemoryStore memory = new MemoryStore();
    new ForwardingStore(memory) {}.close();
    assertThrows(io.pancakej.StoreException.class, () -> memory.get(new byte[] {1}));
    NullPointerException e = assertThrows(NullPointerException.class, () -> new ForwardingStore(null) {});
    assertNotNull(e.getMessage());
    assertTrue(e.getMessage().contains("delegate"), e.getMessage());
  }

  @Test
  void aFailureOfTheDelegate_propagatesUnchanged() {
    MemoryStore memory = new MemoryStore();
    KvStore forwarding = new ForwardingStore(memory) {};
    memory.close();
    assertThrows(io.pancakej.StoreException.class, () -> forwarding.multiGet(List.of(new byte[] {1})));
  }
}
