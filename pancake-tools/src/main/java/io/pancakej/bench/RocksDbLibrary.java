package io.pancakej.bench;

import java.io.IOException;
import java.io.InputStream;
import java.net.JarURLConnection;
import java.net.URL;
import java.net.URLConnection;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
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
   * {@code -Djava.library.path=<dir>} for a JVM started from the project at {@code root}, with the
   * library extracted there if it was not yet (or its size differs); empty if {@code jvmArgs}
   * already set a library path or the library cannot be provided.
   */
  public static List<String> jvmOptions(Path root, List<String> jvmArgs) {
    if (root == null || jvmArgs.stream().anyMatch(a -> a.startsWith("-Djava.library.path="))) {
      return List.of();
    }
    return extract(root.resolve("pancake-tools/target/native")).map(dir -> List.of("-Djava.library.path=" + dir))
        .orElse(List.of());
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
      connection.setUseCaches(false); // a cached JarFile would stay open after this
      long size = connection.getContentLengthLong();
      // one directory per rocksdbjni jar (its file name carries the version)
      String jar = connection instanceof JarURLConnection j ? Path.of(j.getJarFileURL().getPath()).getFileName().toString()
          : "classpath";
      Path dir = base.resolve(jar.replaceAll("\\.jar$", ""));
      Path lib = dir.resolve(name);
      if (Files.isRegularFile(lib) && Files.size(lib) == size) {
        connection.getInputStream().close();
        return Optional.of(dir.toAbsolutePath());
      }
      Files.createDirectories(dir);
      Path tmp = Files.createTempFile(dir, name, ".tmp");
      try (InputStream in = connection.getInputStream()) {
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
      return Optional.of(dir.toAbsolutePath());
    } catch (IOException | RuntimeException e) {
      return Optional.empty(); // RocksDB extracts it itself, as without this
    }
  }
}
