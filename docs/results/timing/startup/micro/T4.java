public class T4 {
  public static void main(String[] a) throws Exception {
    long s = System.nanoTime();
    if (a.length > 1) Class.forName(a[1]);
    long t = System.nanoTime();
    var k = io.pancakej.crypto.MasterKey.load(java.nio.file.Path.of(a[0]));
    long u = System.nanoTime();
    System.out.printf("pre %.1f ms, MasterKey.load %.1f ms%n", (t-s)/1e6, (u-t)/1e6);
  }
}
