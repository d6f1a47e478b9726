public class T5 {
  public static void main(String[] a) throws Exception {
    long s = System.nanoTime();
    Class.forName(a[0]);
    long t = System.nanoTime();
    System.out.printf("%s %.1f ms%n", a[0], (t-s)/1e6);
  }
}
