import javax.crypto.*;
import javax.crypto.spec.*;
import java.nio.file.*;
import java.io.*;
public class T13 {
  public static void main(String[] a) throws Exception {
    int chunk = Integer.parseInt(a[1]);
    SecretKeySpec k = new SecretKeySpec(new byte[32], "AES");
    int n = 38 << 20;
    int pieces = (n + chunk - 1) / chunk;
    Path f = Path.of("/tmp/s32/ct-" + chunk + ".bin");
    if (a[0].equals("make")) {
      Cipher c = Cipher.getInstance("AES/GCM/NoPadding");
      byte[] zero = new byte[chunk];
      try (DataOutputStream o = new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(f)))) {
        for (int i = 0; i < pieces; i++) {
          c.init(Cipher.ENCRYPT_MODE, k, new GCMParameterSpec(128, iv(i)));
          byte[] ct = c.doFinal(zero, 0, Math.min(chunk, n - i * chunk));
          o.writeInt(ct.length); o.write(ct);
        }
      }
      return;
    }
    byte[] all = Files.readAllBytes(f);
    byte[] out = new byte[n];
    long s = System.nanoTime();
    Cipher d = Cipher.getInstance("AES/GCM/NoPadding");
    int off = 0, pos = 0;
    for (int i = 0; i < pieces; i++) {
      int len = ((all[pos] & 0xff) << 24) | ((all[pos + 1] & 0xff) << 16) | ((all[pos + 2] & 0xff) << 8) | (all[pos + 3] & 0xff);
      pos += 4;
      d.init(Cipher.DECRYPT_MODE, k, new GCMParameterSpec(128, iv(i)));
      off += d.doFinal(all, pos, len, out, off);
      pos += len;
    }
    System.out.printf("chunk %d: 38 MB decrypted cold in %.0f ms%n", chunk, (System.nanoTime() - s) / 1e6);
  }
  static byte[] iv(int i) { byte[] iv = new byte[12]; iv[0] = (byte) i; iv[1] = (byte) (i >> 8); iv[2] = (byte) (i >> 16); return iv; }
}
