package io.pancakej.ycsb;
import java.io.*;
import io.pancakej.*;

import java.util.*;
public class Op {
  public static void main(String[] a) throws Exception {
    long t0 = System.nanoTime();
    Properties p = new Properties();
    try (var in = new FileInputStream("/work/main/workloads/workloada")) { p.load(in); }
    p.setProperty("recordcount", "100000"); p.setProperty("pancake.store", "redis"); p.setProperty("redis.host", "127.0.0.1");
    p.setProperty("redis.port", a[0]); p.setProperty("redis.db", "3"); p.setProperty("pancake.state.dir", "/tmp/s29/a1/state");
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
