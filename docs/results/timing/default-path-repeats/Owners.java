/** Prints "label owner" for every label of a closed PANCAKE state (owner "-" for a dummy): runs.sh uses it. */
import io.pancakej.PancakeClient;
import io.pancakej.crypto.MasterKey;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HexFormat;
public class Owners {
  public static void main(String[] a) throws Exception {
    Path s = Path.of(a[0]);
    PancakeClient.LabelOwners o = PancakeClient.labelOwners(s, MasterKey.load(s.resolve("master.key")));
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < o.labels().size(); i++) {
      byte[] k = o.keys().get(i);
      b.append(HexFormat.of().formatHex(o.labels().get(i))).append(' ').append(k == null ? "-" : new String(k, StandardCharsets.UTF_8)).append('\n');
    }
    System.out.print(b);
  }
}
