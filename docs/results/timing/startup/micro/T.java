import java.nio.file.*;
public class T {
  public static void main(String[] a) throws Exception {
    long t0 = System.nanoTime();
    org.rocksdb.RocksDB.loadLibrary();
    long t1 = System.nanoTime();
    System.out.printf("loadLibrary %.1f ms%n", (t1-t0)/1e6);
    for (int i = 0; i < 3; i++) {
      long s = System.nanoTime();
      var st = io.pancakej.store.RocksDbStore.open(Path.of(a[0]));
      long m = System.nanoTime();
      st.close();
      long e = System.nanoTime();
      System.out.printf("open %.1f ms close %.1f ms%n", (m-s)/1e6, (e-m)/1e6);
    }
  }
}
