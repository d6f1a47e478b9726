package io.pancakej.store;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.pancakej.StoreException;

class TracingStoreTest {
  @TempDir
  Path tmp;

  @Test
  void trace_recordsReadsWritesAndDeletes_asDocumentedLines() throws IOException {
    Path file = tmp.resolve("trace/ops.log");
    try (TracingStore store = new TracingStore(new MemoryStore(), file)) {
      store.multiPut(List.of(new byte[] {0x00, (byte) 0xab}, new byte[] {0x10}), List.of(new byte[5], new byte[0]));
      store.multiGet(List.of(new byte[] {0x00, (byte) 0xab}, new byte[] {0x7f}, new byte[] {0x10}));
      store.multiDelete(List.of(new byte[] {0x10}));
      store.get(new byte[] {0x10});
    }
    List<String> lines = Files.readAllLines(file, StandardCharsets.US_ASCII);
    assertEquals(List.of(
        "W 00ab 5",
        "W 10 0",
        "R 00ab 5",
        "R 7f -1",
        "R 10 0",
        "D 10 0",
        "R 10 -1"), lines.stream().map(l -> l.substring(0, l.lastIndexOf(' '))).toList());
    // the fourth column: when the call was issued, the same on every line of one call, in order
    long[] at = lines.stream().mapToLong(l -> Long.parseLong(l.substring(l.lastIndexOf(' ') + 1))).toArray();
    assertEquals(at[0], at[1], "one multi-put, one time");
    assertEquals(at[2], at[3]);
    assertEquals(at[3], at[4], "one multi-get, one time");
    for (int i = 1; i < at.length; i++) {
      assertTrue(at[i] >= at[i - 1] && at[i] >= 0, "monotonic: " + java.util.Arrays.toString(at));
    }
  }

  @Test
  void trace_aPipelinedPutAndGet_isOneCallWithOneTime() throws IOException, InterruptedException {
    Path file = tmp.resolve("pipelined.log");
    try (TracingStore store = new TracingStore(new MemoryStore(), file)) {
      Thread.sleep(2);
      store.multiPutGet(List.of(new byte[] {1}), List.of(new byte[] {2}), List.of(new byte[] {3}, new byte[] {1}));
    }
    List<String> lines = Files.readAllLines(file, StandardCharsets.US_ASCII);
    assertEquals(3, lines.size());
    long at = Long.parseLong(lines.get(0).split(" ")[3]);
    assertTrue(at >= 2_000_000, "nanoseconds since the trace opened: " + at);
    for (String l : lines) {
      assertEquals(at, Long.parseLong(l.split(" ")[3]), l);
    }
  }

  @Test
  void trace_aCallSentAhead_isStampedWithWhenItWasSent_andTracedOnceItsReplyIsRead() throws Exception {
    Path file = tmp.resolve("sent.log");
    MemoryStore memory = new MemoryStore();
    // a store whose replies are computed when awaited, as a pipelined one's are read then
    KvStore deferring = new ForwardingStore(memory) {
      @Override
      public PendingReply sendPutGet(List<byte[]> putKeys, List<byte[]> putValues, List<byte[]> getKeys) {
        return () -> memory.multiPutGet(putKeys, putValues, getKeys);
      }
    };
    try (TracingStore store = new TracingStore(deferring, file)) {
      KvStore.PendingReply first = store.sendPutGet(List.of(new byte[] {1}), List.of(new byte[] {2, 2}),
          List.of(new byte[] {1}));
      Thread.sleep(30);
      KvStore.PendingReply second = store.sendPutGet(List.of(), List.of(), List.of(new byte[] {1}));
      Thread.sleep(30);
      first.await();
      second.await();
      first.await(); // traced once
    }
    List<String> lines = Files.readAllLines(file, StandardCharsets.US_ASCII);
    assertEquals(List.of("W 01 2", "R 01 2", "R 01 2"),
        lines.stream().map(l -> l.substring(0, l.lastIndexOf(' '))).toList());
    long[] at = lines.stream().mapToLong(l -> Long.parseLong(l.substring(l.lastIndexOf(' ') + 1))).toArray();
    assertEquals(at[0], at[1], "one call, one time");
    long apart = at[2] - at[1];
    // stamped when sent (30 ms apart), not when read (both read together, 30 ms after the second)
    assertTrue(apart >= 25_000_000, "calls sent 30 ms apart, stamped " + apart + " ns apart");
  }

  @Test
  void trace_appendsToAnExistingFile() throws IOException {
    Path file = tmp.resolve("ops.log");
    Files.writeString(file, "W ff 1\n", UTF_8);
    try (TracingStore store = new TracingStore(new MemoryStore(), file)) {
      store.put(new byte[] {1}, new byte[] {2, 3});
    }
    List<String> lines = Files.readAllLines(file, UTF_8);
    assertEquals("W ff 1", lines.get(0));
    assertTrue(lines.get(1).startsWith("W 01 2 "), lines.get(1));
  }

  @Test
  void failedOperation_isNotTraced() throws IOException {
    Path file = tmp.resolve("ops.log");
    TracingStore store = new TracingStore(new MemoryStore(), file);
    store.close();
    store.close();
    assertThrows(StoreException.class, () -> store.get(new byte[] {1}));
    assertEquals(0, Files.size(file));
  }

  @Test
  void stores_wrapsInATracer_whenTheTraceFilePropertyIsSet() {
    Properties p = new Properties();
    p.setProperty(Stores.STORE_PROPERTY, "memory");
    p.setProperty(Stores.TRACE_FILE_PROPERTY, tmp.resolve("t.log").toString());
    try (KvStore store = Stores.open(p)) {
      assertTrue(store instanceof TracingStore, store.getClass().getName());
    }
  }
}
