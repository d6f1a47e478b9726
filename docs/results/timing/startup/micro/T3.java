public class T3 {
  public static void main(String[] a) throws Exception {
    long s = System.nanoTime();
    javax.crypto.Mac m = javax.crypto.Mac.getInstance("HmacSHA256");
    m.init(new javax.crypto.spec.SecretKeySpec(new byte[32], "HmacSHA256"));
    m.doFinal(new byte[10]);
    long t = System.nanoTime();
    var g = new org.bouncycastle.crypto.generators.HKDFBytesGenerator(new org.bouncycastle.crypto.digests.SHA256Digest());
    g.init(new org.bouncycastle.crypto.params.HKDFParameters(new byte[32], null, new byte[4]));
    byte[] out = new byte[32]; g.generateBytes(out, 0, 32);
    long u = System.nanoTime();
    javax.crypto.Cipher c = javax.crypto.Cipher.getInstance("AES/GCM/NoPadding");
    long v = System.nanoTime();
    System.out.printf("JDK HMAC first use %.1f ms, BC HKDF first use %.1f ms, GCM getInstance %.1f ms%n", (t-s)/1e6, (u-t)/1e6, (v-u)/1e6);
  }
}
