import java.io.*;
import java.net.*;
import java.util.*;
import redis.clients.jedis.*;

public class Rt {
  public static void main(String[] a) throws Exception {
    int port = Integer.parseInt(a[0]); int n = Integer.parseInt(a[1]); int iters = Integer.parseInt(a[2]);
    Random r = new Random(1);
    byte[][] keys = new byte[n][]; byte[][] vals = new byte[n][];
    for (int i = 0; i < n; i++) { keys[i] = new byte[16]; r.nextBytes(keys[i]); vals[i] = new byte[1200]; r.nextBytes(vals[i]); }
    Jedis j = new Jedis("127.0.0.1", port); j.select(9);
    byte[][] kv = new byte[2*n][]; for (int i=0;i<n;i++){kv[2*i]=keys[i];kv[2*i+1]=vals[i];}
    // raw
    Socket s = new Socket("127.0.0.1", port); s.setTcpNoDelay(true);
    OutputStream out = new BufferedOutputStream(s.getOutputStream(), 1<<16); InputStream in = new BufferedInputStream(s.getInputStream(), 1<<16);
    out.write("*2\r\n$6\r\nSELECT\r\n$1\r\n9\r\n".getBytes()); out.flush(); readLine(in);
    for (int round = 0; round < 4; round++) {
      long t0 = System.nanoTime();
      for (int it = 0; it < iters; it++) {
        Pipeline p = j.pipelined(); Response<String> w = p.mset(kv); Response<List<byte[]>> rd = p.mget(keys); p.sync(); w.get(); rd.get();
      }
      long t1 = System.nanoTime();
      byte[] buf = new byte[4096];
      for (int it = 0; it < iters; it++) {
        ByteArrayOutputStream b = new ByteArrayOutputStream(32000);
        hdr(b, '*', 1 + 2*n); bulk(b, "MSET".getBytes()); for (int i=0;i<n;i++){bulk(b,keys[i]);bulk(b,vals[i]);}
        hdr(b, '*', 1 + n); bulk(b, "MGET".getBytes()); for (int i=0;i<n;i++) bulk(b,keys[i]);
        b.writeTo(out); out.flush();
        readLine(in); // +OK
        String h = readLine(in); int cnt = Integer.parseInt(h.substring(1));
        for (int i=0;i<cnt;i++){ String l = readLine(in); int len = Integer.parseInt(l.substring(1)); byte[] v = new byte[len]; int off=0; while(off<len){int k=in.read(v,off,len-off); off+=k;} in.read(); in.read(); }
      }
      long t2 = System.nanoTime();
      System.out.printf("n=%d jedis %.1f us/call, raw %.1f us/call%n", n, (t1-t0)/1e3/iters, (t2-t1)/1e3/iters);
    }
  }
  static void hdr(ByteArrayOutputStream b, char c, int v) { b.write(c); b.writeBytes(Integer.toString(v).getBytes()); b.write('\r'); b.write('\n'); }
  static void bulk(ByteArrayOutputStream b, byte[] x) { hdr(b,'$',x.length); b.writeBytes(x); b.write('\r'); b.write('\n'); }
  static String readLine(InputStream in) throws IOException { StringBuilder sb = new StringBuilder(); int c; while ((c = in.read()) != '\r') sb.append((char)c); in.read(); return sb.toString(); }
}
