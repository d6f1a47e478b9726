package io.pancakej;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.example.Example;

/**
 * The README's Java example is {@code src/test/java/com/example/Example.java} character for
 * character, so it compiles as written (with this module's tests, against the public API only: it
 * lives outside {@code io.pancakej}); it runs; and the README's Maven coordinates are the poms'.
 */
class ReadmeExampleTest {
  @TempDir
  Path dir;

  /** pancake-core's directory (Surefire sets {@code basedir}; the working directory otherwise). */
  private static Path module() {
    return Path.of(System.getProperty("basedir", ".")).toAbsolutePath().normalize();
  }

  private static String readme() throws IOException {
    return Files.readString(module().resolve("../README.md").normalize(), StandardCharsets.UTF_8);
  }

  /** The README's fenced blocks of the given language, in order. */
  private static List<String> blocks(String markdown, String language) {
    List<String> out = new ArrayList<>();
    Matcher m = Pattern.compile("(?m)^```" + language + "\\n(.*?)^```$", Pattern.DOTALL).matcher(markdown);
    while (m.find()) {
      out.add(m.group(1));
    }
    return out;
  }

  @Test
  void theReadmesJavaExample_isTheExampleThisModuleCompiles() throws IOException {
    String example = Files.readString(module().resolve("src/test/java/com/example/Example.java"),
        StandardCharsets.UTF_8);
    List<String> java = blocks(readme(), "java");
    assertEquals(1, java.size(), "one Java example in the README");
    assertEquals(example, java.get(0), "README.md's example differs from src/test/java/com/example/Example.java");
  }

  @Test
  void theExample_runsTwice_overTheSameRocksDbAndState_countingItsRuns() {
    assertEquals("runs: 1", runExample(dir));
    assertEquals("runs: 2", runExample(dir), "the second run reads what the first one wrote");
    assertTrue(Files.isDirectory(dir.resolve("rocksdb")) && Files.isDirectory(dir.resolve("state")));
  }

  private static String runExample(Path dir) {
    PrintStream saved = System.out;
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
    try {
      Example.main(new String[] {dir.toString()});
    } finally {
      System.setOut(saved);
    }
    return out.toString(StandardCharsets.UTF_8).strip();
  }

  /** The text of the first {@code <tag>} of the parent pom after {@code after}. */
  private static String pomValue(String pom, String after, String tag) {
    int from = pom.indexOf(after);
    assertTrue(from >= 0, after + " in pom.xml");
    Matcher m = Pattern.compile("<" + tag + ">([^<]*)</" + tag + ">").matcher(pom);
    assertTrue(m.find(from), "<" + tag + "> after " + after + " in pom.xml");
    return m.group(1).trim();
  }

  @Test
  void theReadmesDependencies_carryThePomsCoordinates() throws IOException {
    String pom = Files.readString(module().resolve("../pom.xml").normalize(), StandardCharsets.UTF_8);
    String version = pomValue(pom, "<artifactId>pancake-parent</artifactId>", "version");
    String groupId = pomValue(pom, "<modelVersion>", "groupId");
    String xml = String.join("\n", blocks(readme(), "xml"));
    assertTrue(xml.contains(dependency(groupId, "pancake-core", version)), xml);
    assertTrue(xml.contains(dependency("org.rocksdb", "rocksdbjni", pomValue(pom, "<properties>", "rocksdb.version"))),
        xml);
    assertTrue(xml.contains(dependency("redis.clients", "jedis", pomValue(pom, "<properties>", "jedis.version"))), xml);
  }

  private static String dependency(String groupId, String artifactId, String version) {
    return "  <groupId>" + groupId + "</groupId>\n  <artifactId>" + artifactId + "</artifactId>\n  <version>"
        + version + "</version>\n";
  }
}
