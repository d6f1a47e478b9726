package io.pancakej.bench;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.JarURLConnection;
import java.net.URL;
import java.net.URLConnection;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.rocksdb.util.Environment;

/**
 * The RocksDB JNI library for the YCSB JVMs this project starts: extracted once, per rocksdbjni jar,
 * under the project's {@code pancake-tools/target/native/}, and named on their
 * {@code java.library.path}. RocksDB's loader tries that path before it copies the 15-MB library
 * out of the jar into a temporary file, which it does in every JVM otherwise: 185-265 ms of every
 * {@code bin/ycsb} run (measured on this project's 2-core machine; results/timing/startup). The
 * directory is the project's own, not a shared temporary one, so no other user can plant a library
 * there. Nothing is added when the library is not in the jar (another platform) or cannot be
 * written: RocksDB then extracts it as before.
 */
public final class RocksDbLibrary {
  private RocksDbLibrary() {}

  /**
   * The options for a YCSB JVM: {@link #jvmOptions(List)} first, then {@code jvmArgs} as given (where
   * stock bin/ycsb puts them: just before {@code -cp}).
   */
  public static List<String> withLibrary(List<String> jvmArgs) {
    List<String> all = new ArrayList<>(jvmOptions(jvmArgs));
    all.addAll(jvmArgs);
    return all;
  }

  /**
   * {@link #jvmOptions(Path, List)} for the project the bin/ scripts name ({@code pancake.root});
   * nothing when this JVM was not started by them, so no directory a tool merely runs in is written.
   */
  private static List<String> jvmOptions(List<String> jvmArgs) {
    String root = System.getProperty("pancake.root");
    return jvmOptions(root == null ? null : Path.of(root), jvmArgs);
  }

  /**
   * {@code -Djava.library.path=<dir>:<this JVM's library path>} for a JVM started from the project
   * at {@code root}, with the library extracted there if it was not yet (or its size differs): the
   * directories the child would have searched anyway stay on its path, after ours. Empty if
   * {@code root} is null, if {@code jvmArgs} or {@code JAVA_TOOL_OPTIONS} / {@code JDK_JAVA_OPTIONS}
   * set a library path (the user's wins), or if the library cannot be provided.
   */
  public static List<String> jvmOptions(Path root, List<String> jvmArgs) {
    if (root == null || setsLibraryPath(jvmArgs)
        || setsLibraryPath(ShellWords.split(orEmpty(System.getenv("JAVA_TOOL_OPTIONS"))))
        || setsLibraryPath(ShellWords.split(orEmpty(System.getenv("JDK_JAVA_OPTIONS"))))) {
      return List.of();
    }
    String inherited = System.getProperty("java.library.path", "");
    return extract(root.resolve("pancake-tools/target/native"))
        .map(dir -> List.of("-Djava.library.path=" + dir + (inherited.isEmpty() ? "" : File.pathSeparator + inherited)))
        .orElse(List.of());
  }

  private static boolean setsLibraryPath(List<String> options) {
    return options.stream().anyMatch(a -> a.startsWith("-Djava.library.path="));
  }

  private static String orEmpty(String s) {
    return s == null ? "" : s;
  }

  /** The directory under {@code base} that holds this classpath's RocksDB JNI library, extracted if needed. */
  static Optional<Path> extract(Path base) {
    String name = Environment.getJniLibraryFileName("rocksdb");
    URL url = RocksDbLibrary.class.getClassLoader().getResource(name);
    if (url == null) {
      return Optional.empty();
    }
    try {
      URLConnection connection = url.openConnection();
      connection.setUseCaches(false); // the jar is closed with the stream, not cached
      // the stream first, so every path below closes the jar it opened
      try (InputStream in = connection.getInputStream()) {
        long size = connection.getContentLengthLong();
        // one directory per rocksdbjni jar (its file name carries the version)
        String jar = connection instanceof JarURLConnection j
            ? Path.of(j.getJarFileURL().getPath()).getFileName().toString() : "classpath";
        Path dir = base.resolve(jar.replaceAll("\\.jar$", "")).toAbsolutePath();
        Path lib = dir.resolve(name);
        if (Files.isRegularFile(lib) && Files.size(lib) == size) {
          return Optional.of(dir);
        }
        Files.createDirectories(dir);
        Path tmp = Files.createTempFile(dir, name, ".tmp");
        try {
          Files.copy(in, tmp, StandardCopyOption.REPLACE_EXISTING);
          if (size >= 0 && Files.size(tmp) != size) {
            return Optional.empty();
          }
          try {
            Files.move(tmp, lib, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
          } catch (AtomicMoveNotSupportedException e) {
            Files.move(tmp, lib, StandardCopyOption.REPLACE_EXISTING);
          }
        } finally {
          Files.deleteIfExists(tmp);
        }
        return Optional.of(dir);
      }
    } catch (IOException | RuntimeException e) {
      return Optional.empty(); // RocksDB extracts it itself, as without this
    }
  }
}
