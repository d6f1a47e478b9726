import io.pancakej.PancakeClient;
import io.pancakej.PancakeConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import java.util.SplittableRandom;

/**
 * Reads a key and then writes it back, with {@code put} or with {@code update} (docs/security.md,
 * "Correlated queries", read-modify-write): n keys under a declared uniform estimate on RocksDB,
 * loaded, then {@code pairs} pairs of get(k) and a write of k, k uniform, traced to dir/run.trace.
 *
 * <pre>
 * CP=$(cat pancake-tools/target/tools.classpath):pancake-core/target/classes
 * javac -cp $CP -d $d docs/results/load/ReadThenWrite.java
 * java -cp $CP:$d ReadThenWrite $d/put 2000 15000 put      # or: ... $d/update 2000 15000 update
 * bin/audit --scheme pancake --transcript $d/put/run.trace --state-dir $d/put/state --distribution $d/put/uniform.dist
 * </pre>
 */
public class ReadThenWrite {
  public static void main(String[] a) throws Exception {
    Path dir = Path.of(a[0]); int n = Integer.parseInt(a[1]); int pairs = Integer.parseInt(a[2]); boolean put = a[3].equals("put");
    Files.createDirectories(dir);
    StringBuilder dist = new StringBuilder();
    for (int i = 0; i < n; i++) dist.append(1.0 / n).append('\t').append("user").append(i).append('\n');
    Files.writeString(dir.resolve("uniform.dist"), dist);
    Properties p = new Properties();
    p.setProperty("pancake.state.dir", dir.resolve("state").toString());
    p.setProperty("rocksdb.dir", dir.resolve("db").toString());
    p.setProperty("pancake.capacity", Integer.toString(n));
    p.setProperty("pancake.distribution.file", dir.resolve("uniform.dist").toString());
    try (PancakeClient c = PancakeClient.open(PancakeConfig.fromProperties(p))) {
      for (int i = 0; i < n; i++) c.put(("user" + i).getBytes(), new byte[100]);
    }
    p.setProperty("pancake.trace.file", dir.resolve("run.trace").toString());
    SplittableRandom rnd = new SplittableRandom(3);
    try (PancakeClient c = PancakeClient.open(PancakeConfig.fromProperties(p))) {
      for (int i = 0; i < pairs; i++) {
        byte[] k = ("user" + rnd.nextInt(n)).getBytes();
        c.get(k);
        if (put) c.put(k, new byte[100]); else c.update(k, v -> v);
      }
    }
  }
}
