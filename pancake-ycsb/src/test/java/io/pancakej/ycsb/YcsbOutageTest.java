package io.pancakej.ycsb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.text.ParseException;
import java.text.SimpleDateFormat;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.pancakej.testing.RedisServerFixture;

/**
 * Redis stops for a window in the middle of a YCSB run of the pancake binding: failed operations
 * (YCSB's {@code -FAILED} measurements in the one-second status lines) fall in that window only,
 * the run goes on and finishes by itself, and a verifying workload-C run afterwards reads every
 * record back intact. The server restarts with its data (append-only file, fsync always).
 */
class YcsbOutageTest {
  private static final Pattern STATUS = Pattern.compile("^(\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d:\\d{3}) \\d+ sec: .*$",
      Pattern.MULTILINE);
  private static final Pattern FAILED = Pattern.compile("\\[\\w+-FAILED: Count=(\\d+)");
  private static final long RECOVERY_SLACK_MS = 2_000;
  private static RedisServerFixture redis;

  @BeforeAll
  static void startRedis() {
    redis = RedisServerFixture.withPersistence();
  }

  @AfterAll
  static void stopRedis() {
    if (redis != null) {
      redis.close();
    }
  }

  private static Map<String, String> props(int operations) {
    Map<String, String> p = new LinkedHashMap<>();
    p.put("recordcount", "200");
    p.put("operationcount", Integer.toString(operations));
    p.put("dataintegrity", "true");
    p.put("fieldlengthdistribution", "constant");
    p.put("pancake.store", "redis");
    p.put("redis.host", redis.host());
    p.put("redis.port", Integer.toString(redis.port()));
    p.put("redis.timeout", "300");
    p.put("status.interval", "1");
    return p;
  }

  @Test
  void redisStoppedMidRun_errorsOnlyInThatWindow_andDataIntactAfterwards(@TempDir Path dir) throws Exception {
    String db = PancakeBinding.class.getName();
    YcsbProcess.Result load = YcsbProcess.run(dir, "load", db, "workloada", 2, props(200));
    assertEquals(0, load.exitCode(), load.toString());
    assertEquals(200L, load.returns().get("INSERT=OK"), load.toString());

    ExecutorService pool = Executors.newSingleThreadExecutor();
    long stoppedAt;
    long restartedAt;
    YcsbProcess.Result run;
    try {
      // ~12 s at 250 ops/s; Redis is down from about 3 s to 5 s, leaving several clean seconds after recovery
      Future<YcsbProcess.Result> pending = pool.submit(() -> YcsbProcess.run(dir, "run", db, "workloada", 2,
          props(3000), List.of("-s", "-target", "250")));
      Thread.sleep(3_500); // JVM start, client open, a few clean status lines
      stoppedAt = System.currentTimeMillis();
      redis.stop();
      Thread.sleep(2_000);
      redis.start();
      restartedAt = System.currentTimeMillis();
      run = pending.get(120, TimeUnit.SECONDS);
    } finally {
      pool.shutdownNow();
    }
    assertEquals(0, run.exitCode(), run.toString());

    SimpleDateFormat format = new SimpleDateFormat("yyyy-MM-dd HH:mm:ss:SSS");
    long failedInWindow = 0;
    long okIntervalsAfter = 0;
    List<String> outside = new ArrayList<>();
    Matcher status = STATUS.matcher(run.stderr());
    while (status.find()) {
      long at = parse(format, status.group(1));
      long failed = 0;
      Matcher f = FAILED.matcher(status.group());
      while (f.find()) {
        failed += Long.parseLong(f.group(1));
      }
      // a status line covers the second before its time stamp
      boolean overlapsOutage = at >= stoppedAt && at - 1_000 <= restartedAt + RECOVERY_SLACK_MS;
      if (failed > 0 && overlapsOutage) {
        failedInWindow += failed;
      } else if (failed > 0) {
        outside.add(status.group());
      } else if (at - 1_000 > restartedAt + RECOVERY_SLACK_MS) {
        okIntervalsAfter++;
      }
    }
    assertTrue(outside.isEmpty(), "failures outside the outage window [" + stoppedAt + ", " + restartedAt
        + "]:\n" + String.join("\n", outside) + "\n" + run);
    assertTrue(failedInWindow > 0, "the outage was noticed\n" + run);
    assertTrue(okIntervalsAfter > 0, "the run went on after the outage\n" + run);
    Map<String, Long> returns = run.returns();
    assertTrue(returns.keySet().stream().allMatch(k -> k.endsWith("=OK") || k.endsWith("=SERVICE_UNAVAILABLE")
        || k.equals("VERIFY=ERROR")), "only OK and SERVICE_UNAVAILABLE: " + returns + "\n" + run);
    // YCSB counts the verification of a failed read as a VERIFY error
    assertEquals(returns.get("READ=SERVICE_UNAVAILABLE"), returns.get("VERIFY=ERROR"), returns.toString());
    assertTrue(run.stderr().contains("failed with SERVICE_UNAVAILABLE"), "a clear error is reported\n" + run);

    YcsbProcess.Result verify = YcsbProcess.run(dir, "run", db, "workloadc", 2, props(400));
    assertEquals(0, verify.exitCode(), verify.toString());
    assertEquals(400L, verify.returns().get("READ=OK"), verify.toString());
    assertEquals(400L, verify.returns().get("VERIFY=OK"), "every record intact after the outage\n" + verify);
  }

  private static long parse(SimpleDateFormat format, String stamp) {
    try {
      return format.parse(stamp).getTime();
    } catch (ParseException e) {
      throw new AssertionError("bad YCSB status time stamp " + stamp, e);
    }
  }
}
