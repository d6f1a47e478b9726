public class T9 {
  public static void main(String[] a) {
    for (int i = 0; i < 3; i++) {
      long s = System.nanoTime();
      java.nio.ByteBuffer b = java.nio.ByteBuffer.allocateDirect(168 << 20);
      System.out.printf("168 MB direct buffer (zeroed, every page faulted in): %.0f ms%n", (System.nanoTime() - s) / 1e6);
    }
  }
}
