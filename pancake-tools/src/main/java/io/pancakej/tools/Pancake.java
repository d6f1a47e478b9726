package io.pancakej.tools;

import java.io.PrintWriter;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.util.concurrent.Callable;

import io.pancakej.bench.Audit;
import io.pancakej.bench.Bench;
import io.pancakej.bench.Compare;
import io.pancakej.bench.Dynamic;
import io.pancakej.bench.YcsbDistribution;
import io.pancakej.ycsb.Bindings;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code bin/pancake}: one command for every tool, each a subcommand. Shared conventions: lists
 * are comma-separated ({@code --schemes insecure,pancake}), a store is {@code --store}, an
 * existing Redis {@code --redis-host}/{@code --redis-port}, output {@code -o}/{@code --out} (a
 * scratch directory unless given), extra properties {@code -p name=value}; a count of operations
 * is {@code --ops} and the kinds of store operations an audit counts {@code --kinds}. {@code --help} exits 0, a usage
 * error 2, a failure 1 (or the failing child's status); long work prints progress on stderr.
 */
@Command(name = "pancake", sortOptions = false,
    description = "PANCAKE-J's tools: YCSB against the bindings, the evaluation, the transcript audit, a private Redis.",
    subcommands = {Ycsb.class, Bench.class, Compare.class, Dynamic.class, Audit.class, YcsbDistribution.class,
        StoreBound.class, Redis.class, Profile.class, Profile.Summary.class, BenchProxy.class,
        CommandLine.HelpCommand.class},
    footer = {"", "Every subcommand takes --help. bin/ycsb, bin/bench, bin/compare, ... are aliases of the subcommands."})
public final class Pancake implements Callable<Integer> {
  @Option(names = {"-h", "--help"}, usageHelp = true, description = "show this help and exit")
  boolean help;

  @Spec
  CommandSpec spec;

  public static void main(String[] args) {
    System.exit(commandLine().execute(args));
  }

  /** The configured command: usage errors exit 2, failures 1 with a one-line message. */
  public static CommandLine commandLine() {
    CommandLine cl = new CommandLine(new Pancake());
    cl.setExpandAtFiles(false);
    String version = Pancake.class.getPackage().getImplementationVersion();
    setVersion(cl, "PANCAKE-J tools " + (version != null ? version : "(development build)"));
    cl.getSubcommands().get("ycsb").getCommandSpec().usageMessage().footer(Ycsb.footer(Bindings.names()));
    for (String passThrough : new String[] {"ycsb", "profile", "bench-proxy"}) {
      // their arguments are another program's (YCSB's, JMH's): parsed by the subcommand itself
      cl.getSubcommands().get(passThrough).getCommandSpec().parser().unmatchedOptionsArePositionalParams(true);
    }
    cl.setExecutionExceptionHandler((e, cmd, parsed) -> {
      PrintWriter err = cmd.getErr();
      err.println(cmd.getCommandSpec().qualifiedName() + ": " + describe(e));
      if (System.getenv("PANCAKE_DEBUG") != null) {
        e.printStackTrace(err);
      }
      err.flush();
      return cmd.getCommandSpec().exitCodeOnExecutionException();
    });
    return cl;
  }

  private static void setVersion(CommandLine cl, String version) {
    cl.getCommandSpec().version(version);
    cl.getSubcommands().values().forEach(sub -> setVersion(sub, version));
  }

  /** An exception's message and its causes', on one line. */
  static String describe(Throwable e) {
    StringBuilder sb = new StringBuilder();
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (sb.length() > 0) {
        sb.append(": ");
      }
      if (t instanceof NoSuchFileException) {
        sb.append("no such file: ").append(t.getMessage());
      } else if (t instanceof AccessDeniedException) {
        sb.append("permission denied: ").append(t.getMessage());
      } else {
        sb.append(t.getMessage() != null ? t.getMessage() : t.getClass().getSimpleName());
      }
      if (t.getCause() == t) {
        break;
      }
    }
    return sb.toString();
  }

  @Override
  public Integer call() {
    throw new CommandLine.ParameterException(spec.commandLine(), "missing subcommand");
  }
}
