package io.pancakej.ycsb;
import java.io.*;
import io.pancakej.*;

import java.util.*;
/** Times the open of a state in a cold JVM: Op <redis port> <redis db> <state dir> <workload file> <recordcount>. */
public class Op {
  public static void main(String[] a) throws Exception {
    long t0 = System.nanoTime();
    Properties p = new Properties();
    try (var in = new FileInputStream(a[3])) { p.load(in); }
    p.setProperty("recordcount", a[4]); p.setProperty("pancake.store", "redis"); p.setProperty("redis.host", "127.0.0.1");
    p.setProperty("redis.port", a[0]); p.setProperty("redis.db", a[1]); p.setProperty("pancake.state.dir", a[2]);
    String[] why = {null};
    var d = WorkloadDistribution.declared(p, why);
    long t1 = System.nanoTime();
    var b = PancakeConfig.builderFromProperties(p);
    b.distribution(d.weights(), d.source());
    var c = PancakeClient.open(b.build());
    long t2 = System.nanoTime();
    c.close();
    long t3 = System.nanoTime();
    System.out.printf("declared %.0f ms, open %.0f ms, close %.0f ms%n", (t1-t0)/1e6, (t2-t1)/1e6, (t3-t2)/1e6);
  }
}
