package io.pancakej.smoothing;
import java.nio.file.*;
import java.util.Arrays;
public class T10 {
  public static void main(String[] a) throws Exception {
    Path dir = Path.of(a[0]);
    io.pancakej.crypto.MasterKey key = io.pancakej.crypto.MasterKey.load(dir.resolve("master.key"));
    for (int i = 0; i < 4; i++) {
      long s = System.nanoTime();
      byte[] data = Files.readAllBytes(dir.resolve("state.bin"));
      long t1 = System.nanoTime();
      int fp = data[8] & 0xff;
      int start = 8 + 1 + fp;
      byte[] sealed = Arrays.copyOfRange(data, start, data.length);
      long t2 = System.nanoTime();
      byte[] plain = new io.pancakej.crypto.Aead(key.derive(io.pancakej.crypto.KeyPurposes.STATE_SEAL)).decrypt(sealed, "pancake-j proxy state v1".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
      long t3 = System.nanoTime();
      ProxyState st = ProxyState.fromBytes(plain);
      long t4 = System.nanoTime();
      System.out.printf("read %.0f, copy %.0f, decrypt %.0f, parse %.0f ms%n", (t1-s)/1e6, (t2-t1)/1e6, (t3-t2)/1e6, (t4-t3)/1e6);
    }
  }
}
