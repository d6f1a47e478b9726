package io.pancakej.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code bin/pancake store-bound}: both patterns measured on one store, their ratio printed. */
class StoreBoundTest {
  @Test
  void rocksdb_measuresBothPatterns_andPrintsTheirRatio(@TempDir Path dir) {
    Cli.Run r = Cli.run("store-bound", "--records", "200", "--requests", "400", "--threads", "2",
        "--work", dir.toString());
    assertEquals(0, r.exitCode(), r.toString());
    Matcher insecure = Pattern.compile("insecure pattern \\(1 get\\): +(\\d+) requests/s").matcher(r.out());
    Matcher pancake = Pattern.compile("PANCAKE pattern \\(3 gets \\+ 3 puts\\): +(\\d+) requests/s").matcher(r.out());
    Matcher ratio = Pattern.compile("ratio of the two \\(store work only\\): (\\d+\\.\\d{3})").matcher(r.out());
    assertTrue(insecure.find() && pancake.find() && ratio.find(), r.toString());
    double expected = Double.parseDouble(pancake.group(1)) / Double.parseDouble(insecure.group(1));
    assertEquals(expected, Double.parseDouble(ratio.group(1)), 0.002, r.toString());
    assertTrue(Files.isDirectory(dir.resolve("insecure")) && Files.isDirectory(dir.resolve("pancake")));
    assertTrue(r.err().contains("store-bound: pancake pattern, 400 keys, 2 threads..."), "progress\n" + r);
  }

  @Test
  void badArguments_exitTwo() {
    assertEquals(2, Cli.run("store-bound", "--store", "cassandra").exitCode());
    assertEquals(2, Cli.run("store-bound", "--records", "0").exitCode());
  }
}
