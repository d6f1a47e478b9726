import io.pancakej.PancakeClient;
import io.pancakej.crypto.MasterKey;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * What a YCSB load's transcript tells the store (docs/security.md, "Correlated queries", the load).
 * Scores two attacks with the ground truth of the state: labels never read during the load (are
 * they all dummies?), and linking key i of YCSB's insert order (hashed, one loading thread) to the
 * labels read near call i * calls / records.
 *
 * <pre>
 * bin/ycsb load pancake -P workloads/workloada -p recordcount=N -p rocksdb.dir=$d/db \
 *     -p pancake.state.dir=$d/state -p pancake.trace.file=$d/load.trace
 * CP=$(cat pancake-tools/target/tools.classpath):pancake-core/target/classes
 * javac -cp $CP -d $d docs/results/load/LoadLinkage.java && java -cp $CP:$d LoadLinkage $d/state $d/load.trace N
 * </pre>
 */
public class LoadLinkage {
  public static void main(String[] args) throws Exception {
    Path state = Path.of(args[0]);
    Path trace = Path.of(args[1]);
    int records = Integer.parseInt(args[2]);
    PancakeClient.LabelOwners owners = PancakeClient.labelOwners(state, MasterKey.load(state.resolve("master.key")));
    Map<String, String> ownerOf = new HashMap<>();
    Map<String, List<String>> labelsOf = new HashMap<>();
    for (int i = 0; i < owners.labels().size(); i++) {
      byte[] key = owners.keys().get(i);
      String label = HexFormat.of().formatHex(owners.labels().get(i)); // as the trace writes labels
      ownerOf.put(label, key == null ? null : new String(key, StandardCharsets.UTF_8));
      if (key != null) {
        labelsOf.computeIfAbsent(new String(key, StandardCharsets.UTF_8), k -> new ArrayList<>()).add(label);
      }
    }
    Map<String, List<Integer>> callsOf = new HashMap<>(); // the calls (in order) that read each label
    int call = -1;
    String lastStamp = null;
    for (String line : Files.readAllLines(trace)) {
      String[] f = line.split(" ");
      if (!f[0].equals("R")) {
        continue;
      }
      if (!f[3].equals(lastStamp)) {
        call++;
        lastStamp = f[3];
      }
      callsOf.computeIfAbsent(f[1], k -> new ArrayList<>()).add(call);
    }
    int calls = call + 1;
    int unreadDummies = 0;
    int unreadKeyLabels = 0;
    for (Map.Entry<String, String> e : ownerOf.entrySet()) {
      if (!callsOf.containsKey(e.getKey())) {
        if (e.getValue() == null) {
          unreadDummies++;
        } else {
          unreadKeyLabels++;
        }
      }
    }
    System.out.printf("%d labels (%d owned by keys); never read during the load: %d dummies or unbound slots, %d key labels%n",
        ownerOf.size(), labelsOf.values().stream().mapToInt(List::size).sum(), unreadDummies, unreadKeyLabels);
    List<String> all = new ArrayList<>(ownerOf.keySet());
    Random random = new Random(1);
    for (int window : new int[] {50, 200, 1000}) {
      int linked = 0;
      int keys = 0;
      int keyChance = 0;
      for (int i = 0; i < records; i++) {
        List<String> labels = labelsOf.get("user" + site.ycsb.Utils.hash(i)); // YCSB's hashed insert order
        if (labels == null) {
          continue;
        }
        keys++;
        double expected = (i + 0.5) * calls / records;
        boolean near = false;
        boolean nearRandom = false;
        double elsewhere = random.nextDouble() * calls;
        for (String l : labels) {
          near |= readNear(callsOf.get(l), expected, window);
          nearRandom |= readNear(callsOf.get(l), elsewhere, window);
        }
        linked += near ? 1 : 0;
        keyChance += nearRandom ? 1 : 0;
      }
      int chance = 0;
      int samples = 20000;
      for (int s = 0; s < samples; s++) {
        chance += readNear(callsOf.get(all.get(random.nextInt(all.size()))), random.nextDouble() * calls, window) ? 1 : 0;
      }
      // a key with several replicas has several labels to be read near its point: the fair chance is
      // the same keys' labels near a random point (with one label a key, both chances agree)
      System.out.printf("key i's label read within %d calls of call i*%d/%d: %d of %d keys (%.3f; a random label"
          + " near a random point: %.3f; the same keys' labels near random points: %.3f)%n", window, calls, records,
          linked, keys, (double) linked / keys, (double) chance / samples, (double) keyChance / keys);
    }
  }

  private static boolean readNear(List<Integer> calls, double point, int window) {
    if (calls != null) {
      for (int c : calls) {
        if (Math.abs(c - point) <= window) {
          return true;
        }
      }
    }
    return false;
  }
}
