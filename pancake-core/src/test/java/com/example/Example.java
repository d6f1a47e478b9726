package com.example;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Properties;

import io.pancakej.KvClient;
import io.pancakej.PancakeClient;
import io.pancakej.PancakeConfig;

/** Counts its own runs, kept in a store that sees only smoothed accesses: java com.example.Example [dir]. */
public final class Example {
  public static void main(String[] args) {
    Path dir = Path.of(args.length > 0 ? args[0] : "example-data");
    Properties props = new Properties();
    props.setProperty("pancake.store", "rocksdb");      // the default; or redis, redis-cluster, memory
    props.setProperty("rocksdb.dir", dir.resolve("rocksdb").toString());
    props.setProperty("pancake.state.dir", dir.resolve("state").toString()); // master key + proxy state
    props.setProperty("pancake.capacity", "1000");      // key slots n; the store holds 2n replicas
    try (PancakeClient client = PancakeClient.open(PancakeConfig.fromProperties(props))) {
      byte[] key = KvClient.utf8("runs");
      if (!client.update(key, Example::increment)) {   // atomic read-modify-write of a present key
        client.put(key, KvClient.utf8("1"));           // absent: this is the first run
      }
      byte[] runs = client.get(key).orElseThrow();
      System.out.println("runs: " + new String(runs, StandardCharsets.UTF_8));
    }
  }

  private static byte[] increment(byte[] counter) {
    int n = Integer.parseInt(new String(counter, StandardCharsets.UTF_8));
    return KvClient.utf8(Integer.toString(n + 1));
  }
}
