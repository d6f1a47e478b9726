package io.pancakej.smoothing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.BitSet;
import java.util.concurrent.TimeUnit;

import io.pancakej.PancakeConfig;
import io.pancakej.ConfigException;

/**
 * Gives one thread a CPU to itself, on Linux, without native code: {@code taskset} moves every
 * thread of this process off the CPU, then moves the one thread onto it; threads started later
 * inherit their creator's CPUs, so they stay off it. Why: a thread that shares its CPUs with the
 * threads a tick wakes is late by however many it woke, and that is what the store times
 * (docs/security.md, "The callers a tick wakes").
 */
final class CorePinning {
  private static final Path STATUS = Path.of("/proc/self/status");
  private static final Path THREAD_SELF = Path.of("/proc/thread-self");

  private CorePinning() {}

  /** This thread's Linux thread id. */
  static long currentThreadId() {
    try {
      String link = Files.readSymbolicLink(THREAD_SELF).toString(); // "<pid>/task/<tid>"
      return Long.parseLong(link.substring(link.lastIndexOf('/') + 1));
    } catch (IOException | RuntimeException e) {
      throw failure("this system has no /proc/thread-self (Linux only): " + e.getMessage());
    }
  }

  /** The CPUs this process may run on, as Linux lists them ("0-3,6"). */
  static String allowedCpus() {
    return allowedCpus(STATUS);
  }

  /** The CPUs thread {@code tid} of this process may run on. */
  static String allowedCpus(long tid) {
    return allowedCpus(Path.of("/proc/self/task/" + tid + "/status"));
  }

  private static String allowedCpus(Path status) {
    try {
      for (String line : Files.readAllLines(status, StandardCharsets.US_ASCII)) {
        if (line.startsWith("Cpus_allowed_list:")) {
          return line.substring("Cpus_allowed_list:".length()).trim();
        }
      }
    } catch (IOException e) {
      throw failure("cannot read " + status + ": " + e.getMessage());
    }
    throw failure(status + " has no Cpus_allowed_list");
  }

  /**
   * Moves every thread of this process off {@code cpu} and thread {@code tid} onto it; returns the
   * CPUs the process had, for {@link #release}.
   */
  static String reserve(int cpu, long tid) {
    String before = allowedCpus();
    BitSet cpus = parse(before);
    if (!cpus.get(cpu)) {
      throw failure("CPU " + cpu + " is not one this process may run on (" + before + ")");
    }
    if (cpus.cardinality() < 2) {
      throw failure("the process may run on CPU " + before + " only: the emitter needs a CPU of its own and one for"
          + " the rest");
    }
    BitSet rest = (BitSet) cpus.clone();
    rest.clear(cpu);
    long pid = ProcessHandle.current().pid();
    taskset("-a", "-p", "-c", format(rest), Long.toString(pid));
    taskset("-p", "-c", Integer.toString(cpu), Long.toString(tid));
    String now = allowedCpus(tid);
    if (!parse(now).equals(single(cpu))) {
      throw failure("thread " + tid + " may still run on CPUs " + now);
    }
    return before;
  }

  /** Lets every thread of this process run on {@code cpus} again. */
  static void release(String cpus) {
    taskset("-a", "-p", "-c", cpus, Long.toString(ProcessHandle.current().pid()));
  }

  /** A Linux CPU list ("0-3,6") as a set. */
  static BitSet parse(String list) {
    BitSet cpus = new BitSet();
    for (String part : list.split(",")) {
      String p = part.trim();
      if (p.isEmpty()) {
        continue;
      }
      int dash = p.indexOf('-');
      int from = Integer.parseInt(dash < 0 ? p : p.substring(0, dash));
      int to = dash < 0 ? from : Integer.parseInt(p.substring(dash + 1));
      cpus.set(from, to + 1);
    }
    return cpus;
  }

  private static BitSet single(int cpu) {
    BitSet one = new BitSet();
    one.set(cpu);
    return one;
  }

  private static String format(BitSet cpus) {
    StringBuilder sb = new StringBuilder();
    cpus.stream().forEach(c -> sb.append(sb.length() == 0 ? "" : ",").append(c));
    return sb.toString();
  }

  private static void taskset(String... args) {
    String[] command = new String[args.length + 1];
    command[0] = "taskset";
    System.arraycopy(args, 0, command, 1, args.length);
    Process p;
    try {
      p = new ProcessBuilder(command).redirectErrorStream(true).start();
    } catch (IOException e) {
      throw failure("cannot run taskset (Linux's util-linux): " + e.getMessage());
    }
    try {
      byte[] out = p.getInputStream().readAllBytes();
      if (!p.waitFor(10, TimeUnit.SECONDS) || p.exitValue() != 0) {
        throw failure(String.join(" ", command) + " failed: " + new String(out, StandardCharsets.UTF_8).trim());
      }
    } catch (IOException e) {
      throw failure(String.join(" ", command) + " failed: " + e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      p.destroy();
      throw failure(String.join(" ", command) + " interrupted");
    }
  }

  private static ConfigException failure(String why) {
    return new ConfigException(PancakeConfig.EMITTER_CPU_PROPERTY + ": " + why);
  }
}
