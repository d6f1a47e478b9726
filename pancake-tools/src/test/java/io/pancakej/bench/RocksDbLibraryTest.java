package io.pancakej.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.RocksDB;
import org.rocksdb.util.Environment;

class RocksDbLibraryTest {
  private static final String NAME = Environment.getJniLibraryFileName("rocksdb");

  @TempDir
  Path tmp;

  @Test
  void extractsOnce_andReusesTheFileAfter() throws IOException {
    Path dir = RocksDbLibrary.extract(tmp).orElseThrow();
    Path lib = dir.resolve(NAME);
    long size = Files.size(lib);
    assertTrue(size > 1_000_000, "the JNI library, not a stub: " + size + " bytes");
    assertTrue(dir.getFileName().toString().startsWith("rocksdbjni-"), "one directory per jar: " + dir);
    FileTime before = FileTime.fromMillis(1_000_000_000L);
    Files.setLastModifiedTime(lib, before);
    assertEquals(Optional.of(dir), RocksDbLibrary.extract(tmp));
    assertEquals(before, Files.getLastModifiedTime(lib), "a complete file is not written again");
    try (var files = Files.list(dir)) {
      assertEquals(List.of(lib), files.toList(), "no temporary file left behind");
    }
  }

  @Test
  void aTruncatedLibrary_isReplaced() throws IOException {
    Path dir = RocksDbLibrary.extract(tmp).orElseThrow();
    long size = Files.size(dir.resolve(NAME));
    Files.write(dir.resolve(NAME), new byte[100]);
    assertEquals(Optional.of(dir), RocksDbLibrary.extract(tmp));
    assertEquals(size, Files.size(dir.resolve(NAME)));
  }

  @Test
  void aLibraryPathTheUserGave_orNoProjectRoot_addsNothing() {
    assertEquals(List.of(), RocksDbLibrary.jvmOptions(tmp, List.of("-Xmx1g", "-Djava.library.path=/opt/lib")));
    assertEquals(List.of(), RocksDbLibrary.jvmOptions(null, List.of()));
    List<String> options = RocksDbLibrary.jvmOptions(tmp, List.of("-Xmx1g"));
    assertEquals(1, options.size());
    assertTrue(options.get(0).startsWith("-Djava.library.path=" + tmp.resolve("pancake-tools/target/native")), options.get(0));
    assertTrue(options.get(0).endsWith(java.io.File.pathSeparator + System.getProperty("java.library.path")),
        "the directories the child would search anyway stay on its path: " + options.get(0));
  }

  /**
   * A JVM given the option loads the library in place; one without it copies the library into its
   * temporary directory first (what the option saves), so the probe can tell the two apart.
   */
  @Test
  void aJvmGivenTheOption_loadsTheLibraryWithoutCopyingIt() throws Exception {
    List<String> with = RocksDbLibrary.jvmOptions(tmp, List.of());
    assertEquals("0", probe(with, tmp.resolve("t1")), "copies made with the option");
    assertEquals("1", probe(List.of(), tmp.resolve("t2")), "copies made without it");
  }

  /** Runs {@link Probe} in a JVM with {@code options} and its own temporary directory; returns what it prints. */
  private static String probe(List<String> options, Path tmpDir) throws Exception {
    Files.createDirectories(tmpDir);
    List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
    cmd.addAll(options);
    cmd.addAll(List.of("-Djava.io.tmpdir=" + tmpDir, "-cp", System.getProperty("java.class.path"), Probe.class.getName()));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
    assertEquals(0, p.waitFor(), out);
    return out;
  }

  /** Loads RocksDB, then prints how many copies of its library the JVM's temporary directory holds. */
  public static final class Probe {
    public static void main(String[] args) throws IOException {
      RocksDB.loadLibrary();
      try (var files = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
        System.out.println(files.filter(f -> f.getFileName().toString().startsWith("librocksdbjni")).count());
      }
    }
  }
}
