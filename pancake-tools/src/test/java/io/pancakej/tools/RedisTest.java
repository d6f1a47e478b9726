package io.pancakej.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import io.pancakej.testing.RedisServerFixture;
import picocli.CommandLine;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.exceptions.JedisConnectionException;

/** {@code bin/pancake redis}: the tests' Redis fixture as a command, and {@code redis flush}. */
class RedisTest {
  @Test
  void redis_printsItsAddress_servesUntilInterrupted_thenStops() throws Exception {
    StringWriter out = new StringWriter();
    CommandLine cl = Pancake.commandLine();
    cl.setOut(new PrintWriter(out, true));
    cl.setErr(new PrintWriter(new StringWriter(), true));
    AtomicInteger exit = new AtomicInteger(-1);
    Thread t = new Thread(() -> exit.set(cl.execute("redis")), "pancake-redis");
    t.start();
    long deadline = System.currentTimeMillis() + 30_000;
    while (!out.toString().contains("\n") && System.currentTimeMillis() < deadline) {
      Thread.sleep(20);
    }
    String address = out.toString().trim();
    assertTrue(address.matches("127\\.0\\.0\\.1:\\d+"), address);
    int port = Integer.parseInt(address.substring(address.indexOf(':') + 1));
    assertTrue(port != 6379);
    try (Jedis j = new Jedis("127.0.0.1", port)) {
      assertEquals("PONG", j.ping());
    }
    t.interrupt();
    t.join(15_000);
    assertFalse(t.isAlive());
    assertEquals(0, exit.get());
    assertThrows(JedisConnectionException.class, () -> {
      try (Jedis j = new Jedis("127.0.0.1", port)) {
        j.ping();
      }
    }, "the server is gone");
  }

  @Test
  void flush_emptiesOneDatabase_orAll() {
    try (RedisServerFixture redis = new RedisServerFixture(); Jedis j = redis.jedis()) {
      j.set("a", "0");
      j.select(3);
      j.set("b", "3");
      String port = Integer.toString(redis.port());
      Cli.Run one = Cli.run("redis", "flush", "--redis-port", port, "--redis-db", "3");
      assertEquals(0, one.exitCode(), one.toString());
      assertEquals(0, j.dbSize(), "db 3 emptied");
      j.select(0);
      assertEquals(1, j.dbSize(), "db 0 kept");
      Cli.Run all = Cli.run("redis", "flush", "--redis-host", redis.host(), "--redis-port", port);
      assertEquals(0, all.exitCode(), all.toString());
      assertTrue(all.out().contains("OK"), all.toString());
      assertEquals(0, j.dbSize());
    }
  }

  @Test
  void flush_ofNoServer_exitsOne_sayingWhy() {
    Cli.Run r = Cli.run("redis", "flush", "--redis-port", "1");
    assertEquals(1, r.exitCode(), r.toString());
    assertTrue(r.err().startsWith("pancake redis flush: "), r.toString());
  }
}
