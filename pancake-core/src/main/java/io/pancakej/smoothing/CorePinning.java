package io.pancakej.smoothing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.Map;
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

  /** This thread's Linux thread id, or -1 where there is none (not Linux). */
  static long currentThreadIdOrNone() {
    try {
      return currentThreadId();
    } catch (RuntimeException notLinux) {
      return -1;
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

  /** True on an emitter thread that holds a CPU (set by that thread once it holds it). */
  private static final ThreadLocal<Boolean> HOLDER = ThreadLocal.withInitial(() -> Boolean.FALSE);

  /** Marks the current thread as one that holds a CPU. */
  static void markHolder() {
    HOLDER.set(Boolean.TRUE);
  }

  /**
   * Whether the current thread holds a CPU: it hands no work to a thread pool, whose new threads
   * would inherit its CPU.
   */
  static boolean isHolder() {
    return HOLDER.get();
  }

  /** The CPUs the process had before its first reservation (null while none is held). */
  private static String original;
  /** The emitters holding a CPU: thread id to CPU. */
  private static final Map<Long, Integer> held = new LinkedHashMap<>();

  /**
   * Moves every thread of this process off {@code cpu} and thread {@code tid} onto it (a CPU no
   * other emitter of this process holds), keeping one CPU at least for the rest.
   */
  static void reserve(int cpu, long tid) {
    synchronized (held) {
      BitSet free = free();
      if (!free.get(cpu)) {
        throw failure("CPU " + cpu + " is not one this process may run on (" + allowed() + ")"
            + (held.containsValue(cpu) ? ": another proxy's emitter holds it" : ""));
      }
      if (free.cardinality() < 2) {
        throw failure("the process may run on CPUs " + allowed() + " only, "
            + (held.isEmpty() ? "" : held.size() + " of them held by other emitters, ")
            + "and the emitter needs a CPU of its own and one for the rest");
      }
      hold(cpu, tid);
    }
  }

  /**
   * {@link #reserve}s the highest CPU this process may use that no other emitter holds, if it may
   * then still use another; returns it, or -1 with the reason in {@code why[0]}.
   */
  static int reserveAny(long tid, String[] why) {
    synchronized (held) {
      try {
        BitSet free = free();
        if (free.cardinality() < 2) {
          why[0] = "the process may run on CPUs " + allowed() + (held.isEmpty() ? "" : ", " + held.size()
              + " of them held by other emitters");
          return -1;
        }
        int cpu = free.length() - 1;
        hold(cpu, tid);
        return cpu;
      } catch (ConfigException e) {
        why[0] = e.getMessage();
        return -1;
      }
    }
  }

  /** Gives thread {@code tid}'s CPU back to the rest of the process. */
  static void release(long tid) {
    synchronized (held) {
      if (held.remove(tid) == null) {
        return;
      }
      if (held.isEmpty()) {
        taskset("-a", "-p", "-c", original, Long.toString(ProcessHandle.current().pid()));
        original = null;
      } else {
        placeAll();
      }
    }
  }

  /** The CPUs this process may use that no emitter holds (tests). */
  static BitSet freeCpus() {
    synchronized (held) {
      return free();
    }
  }

  private static String allowed() {
    return original != null ? original : allowedCpus();
  }

  /** The CPUs the process may use that no emitter holds. */
  private static BitSet free() {
    BitSet free = parse(allowed());
    held.values().forEach(free::clear);
    return free;
  }

  private static void hold(int cpu, long tid) {
    String before = allowed();
    held.put(tid, cpu);
    try {
      if (original == null) {
        original = before;
      }
      placeAll();
      String now = allowedCpus(tid);
      if (!parse(now).equals(single(cpu))) {
        throw failure("thread " + tid + " may still run on CPUs " + now);
      }
    } catch (RuntimeException e) {
      held.remove(tid);
      try {
        if (held.isEmpty()) {
          taskset("-a", "-p", "-c", before, Long.toString(ProcessHandle.current().pid()));
          original = null;
        } else {
          placeAll();
        }
      } catch (RuntimeException suppressed) {
        e.addSuppressed(suppressed);
      }
      throw e;
    }
  }

  /**
   * Every thread of the process on the CPUs no emitter holds, then each emitter on its own; then
   * any thread started meanwhile by one not moved yet (it kept its creator's CPUs) is moved too,
   * pass after pass until a pass finds none (one started during a pass by such a thread is found
   * by the next), at most {@link #STRAGGLER_PASSES}.
   */
  private static void placeAll() {
    String rest = format(free());
    taskset("-a", "-p", "-c", rest, Long.toString(ProcessHandle.current().pid()));
    for (Map.Entry<Long, Integer> e : held.entrySet()) {
      taskset("-p", "-c", Integer.toString(e.getValue()), Long.toString(e.getKey()));
    }
    BitSet taken = new BitSet();
    held.values().forEach(taken::set);
    for (int pass = 1; moveStragglers(taken, rest) > 0; pass++) {
      if (pass == STRAGGLER_PASSES) {
        throw failure("threads kept starting on the reserved CPUs " + format(taken) + " after " + pass + " passes");
      }
    }
  }

  /** Passes over the threads started meanwhile before {@link #placeAll} gives up (a thread storm). */
  static final int STRAGGLER_PASSES = 10;

  /** Moves the threads (emitters aside) that may run on {@code taken} onto {@code rest}; returns how many. */
  private static int moveStragglers(BitSet taken, String rest) {
    int moved = 0;
    for (long tid : threadIds()) {
      if (!held.containsKey(tid)) {
        try {
          if (parse(allowedCpus(tid)).intersects(taken)) {
            taskset("-p", "-c", rest, Long.toString(tid));
            moved++;
          }
        } catch (ConfigException e) {
          if (Files.exists(Path.of("/proc/self/task/" + tid))) {
            throw e; // not a thread that ended meanwhile
          }
        }
      }
    }
    return moved;
  }

  private static long[] threadIds() {
    try (java.util.stream.Stream<Path> tasks = Files.list(Path.of("/proc/self/task"))) {
      return tasks.mapToLong(t -> Long.parseLong(t.getFileName().toString())).toArray();
    } catch (IOException e) {
      throw failure("cannot list this process's threads: " + e.getMessage());
    }
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

  /**
   * Runs {@code taskset args}; again, up to four times, if a thread ended while {@code -a} went
   * through the process's threads (it then fails with "No such process").
   */
  private static void taskset(String... args) {
    String[] command = new String[args.length + 1];
    command[0] = "taskset";
    System.arraycopy(args, 0, command, 1, args.length);
    for (int attempt = 1; ; attempt++) {
      String out = run(command);
      if (out == null) {
        return;
      }
      if (attempt == 5 || !out.contains("No such process")) {
        throw failure(String.join(" ", command) + " failed: " + out);
      }
    }
  }

  /**
   * Null if {@code command} succeeded, else what it printed; a {@link ConfigException} if it cannot
   * be run or is interrupted (also {@link LowPriority}'s runner).
   */
  static String run(String[] command) {
    Process p;
    try {
      // what it prints (two lines a thread with -a) is dropped: a full pipe would stop it
      p = new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    } catch (IOException e) {
      throw failure("cannot run " + command[0] + " (Linux's util-linux): " + e.getMessage());
    }
    try {
      if (!p.waitFor(10, TimeUnit.SECONDS)) { // its errors: a line or two
        p.destroy();
        return "no exit after 10 s";
      }
      byte[] out = p.getErrorStream().readAllBytes();
      return p.exitValue() == 0 ? null : new String(out, StandardCharsets.UTF_8).trim();
    } catch (IOException e) {
      return e.getMessage();
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
