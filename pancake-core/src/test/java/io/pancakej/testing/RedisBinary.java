package io.pancakej.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;

/**
 * The {@code redis-server} executable shipped inside the {@code embedded-redis} test jar,
 * extracted once per JVM to a temporary file.
 */
final class RedisBinary {
  private static Path binary;

  private RedisBinary() {}

  /** The extracted executable (extracting it on first use). */
  static synchronized Path path() {
    if (binary == null) {
      binary = extract(resourceName());
    }
    return binary;
  }

  private static String resourceName() {
    String os = System.getProperty("os.name").toLowerCase(Locale.ROOT);
    String arch = System.getProperty("os.arch").toLowerCase(Locale.ROOT);
    boolean x64 = arch.equals("amd64") || arch.equals("x86_64");
    boolean arm64 = arch.equals("aarch64") || arch.equals("arm64");
    if (os.contains("linux") && x64) {
      return "redis-server-6.2.6-v5-linux-amd64";
    }
    if (os.contains("linux") && arm64) {
      return "redis-server-6.2.7-linux-arm64";
    }
    if (os.contains("mac") && x64) {
      return "redis-server-6.2.6-v5-darwin-amd64";
    }
    if (os.contains("mac") && arm64) {
      return "redis-server-6.2.6-v5-darwin-arm64";
    }
    throw new IllegalStateException("no bundled redis-server for " + os + "/" + arch);
  }

  private static Path extract(String resource) {
    try (InputStream in = RedisBinary.class.getClassLoader().getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException(resource + " is not on the classpath; add the test dependency"
            + " com.github.codemonstur:embedded-redis:1.4.3");
      }
      Path dir = Files.createTempDirectory("pancake-redis-bin");
      Path exe = dir.resolve("redis-server");
      Files.copy(in, exe, StandardCopyOption.REPLACE_EXISTING);
      if (!exe.toFile().setExecutable(true, true)) {
        throw new IOException("cannot make " + exe + " executable");
      }
      dir.toFile().deleteOnExit(); // deleteOnExit runs in reverse order: the file goes first
      exe.toFile().deleteOnExit();
      return exe;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot extract " + resource, e);
    }
  }
}
