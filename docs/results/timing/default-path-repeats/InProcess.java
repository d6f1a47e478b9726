import io.pancakej.PancakeClient;
import io.pancakej.PancakeConfig;
import io.pancakej.distribution.AliasSampler;
import io.pancakej.distribution.DistributionFile;
import io.pancakej.store.MemoryStore;
import io.pancakej.store.TracingStore;
import java.nio.charset.StandardCharsets;
import java.nio.file.*;
import java.util.*;

/**
 * The default path's steady phase in one process, on a MemoryStore (README.md): load 2 000 keys, then
 * 30 000 gets from one thread, traced; prints each run's steady-phase dispersion (chi-square per label).
 *
 * <pre>
 * CP=$(cat pancake-tools/target/tools.classpath):pancake-core/target/classes
 * javac -cp $CP -d /tmp/inproc docs/results/timing/default-path-repeats/InProcess.java
 * bin/distribution -P workloads/workloadc -p recordcount=2000 -o /tmp/inproc/dist.tsv
 * java -cp $CP:/tmp/inproc InProcess 100 /tmp/inproc/dist.tsv [uniform | ycsb | ycsb-swap]
 * </pre>
 * (none): requests drawn from the file's weights, the file declared at the load and at the run;
 * uniform: requests uniform, nothing declared; ycsb: requests from YCSB's own key chooser for
 * workload C (ScrambledZipfianGenerator over 2 001 items, hashed names); ycsb-swap: the same, loaded
 * with no declared estimate, so that the run swaps to the file's at open as the default path does.
 */
public class InProcess {
  public static void main(String[] a) throws Exception {
    int runs = Integer.parseInt(a[0]);
    Path dist = Path.of(a[1]);
    boolean uniformRequests = a.length > 2 && a[2].equals("uniform");
    boolean ycsbRequests = a.length > 2 && a[2].startsWith("ycsb");
    boolean swapAtOpen = a.length > 2 && a[2].equals("ycsb-swap"); // loaded under no declared estimate: the run swaps to it at open
    site.ycsb.generator.ScrambledZipfianGenerator ycsb = new site.ycsb.generator.ScrambledZipfianGenerator(0, 2000);
    Map<String, Double> w = DistributionFile.read(dist);
    List<String> keys = new ArrayList<>(w.keySet());
    double[] weights = new double[keys.size()];
    for (int i = 0; i < weights.length; i++) weights[i] = uniformRequests ? 1.0 : w.get(keys.get(i));
    AliasSampler requests = new AliasSampler(weights);
    SplittableRandom rnd = new SplittableRandom();
    double sum = 0, sumsq = 0;
    for (int r = 0; r < runs; r++) {
      Path dir = Files.createTempDirectory("sim");
      MemoryStore mem = new MemoryStore();
      PancakeConfig.Builder b = PancakeConfig.builder().stateDir(dir.resolve("state")).capacity(keys.size()).store(mem);
      if (!uniformRequests && !swapAtOpen) b.distributionFile(dist);
      try (PancakeClient c = PancakeClient.open(b.build())) {
        for (String k : keys) c.put(k.getBytes(StandardCharsets.UTF_8), new byte[100]);
      }
      Path trace = dir.resolve("run.trace");
      PancakeConfig.Builder b2 = PancakeConfig.builder().stateDir(dir.resolve("state")).capacity(keys.size()).store(new TracingStore(mem.reopen(), trace));
      if (!uniformRequests) b2.distributionFile(dist);
      try (PancakeClient c = PancakeClient.open(b2.build())) {
        for (int i = 0; i < 30000; i++) c.get((ycsbRequests ? "user" + site.ycsb.Utils.hash(ycsbKey(ycsb)) : keys.get(requests.sample(rnd))).getBytes(StandardCharsets.UTF_8));
      }
      Map<String, List<String>> calls = new LinkedHashMap<>();
      for (String line : Files.readAllLines(trace)) {
        String[] f = line.split(" ");
        if (f[0].equals("R")) calls.computeIfAbsent(f[3], x -> new ArrayList<>()).add(f[1]);
      }
      Map<String, Integer> count = new HashMap<>();
      int big = 0;
      for (List<String> l : calls.values()) {
        if (l.size() > 3) { big++; continue; }
        for (String s : l) count.merge(s, 1, Integer::sum);
      }
      int labels = 2 * keys.size();
      long n = 0; for (int v : count.values()) n += v;
      double e = (double) n / labels, st = 0;
      for (int v : count.values()) st += (v - e) * (v - e) / e;
      st += (labels - count.size()) * e; // labels never read
      st /= labels;
      sum += st; sumsq += st * st;
      double m = sum / (r + 1);
      System.out.printf("run %d reads %d big calls %d labels seen %d dispersion %.4f | mean %.4f se %.4f%n", r + 1, n, big, count.size(), st, m,
          r > 0 ? Math.sqrt((sumsq / (r + 1) - m * m) / (r + 1)) : 0);
      deleteTree(dir);
    }
  }
  /** As CoreWorkload.nextKeynum for workload C: the chooser spans recordcount + 1 items, and the last is drawn again. */
  static long ycsbKey(site.ycsb.generator.ScrambledZipfianGenerator g) {
    long k;
    do { k = g.nextValue(); } while (k > 1999);
    return k;
  }
  static void deleteTree(Path p) throws Exception {
    try (var s = Files.walk(p)) { s.sorted(Comparator.reverseOrder()).forEach(x -> x.toFile().delete()); }
  }
}
