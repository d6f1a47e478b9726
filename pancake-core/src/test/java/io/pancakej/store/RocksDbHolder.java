package io.pancakej.store;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * A child process for {@link RocksDbLockTest}: opens the RocksDB directory {@code args[0]},
 * writes one key, prints {@code open}, holds the database until its standard input closes, then
 * closes it and exits.
 */
final class RocksDbHolder {
  private RocksDbHolder() {}

  public static void main(String[] args) throws Exception {
    try (RocksDbStore store = RocksDbStore.open(Path.of(args[0]), 8)) {
      store.put("held".getBytes(StandardCharsets.UTF_8), "by the child".getBytes(StandardCharsets.UTF_8));
      System.out.println("open");
      System.out.flush();
      while (System.in.read() >= 0) {
        // hold the lock until the parent closes our stdin
      }
    }
  }
}
