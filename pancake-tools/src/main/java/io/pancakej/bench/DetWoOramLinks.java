package io.pancakej.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The store's own linking attack on a DetWoORAM transcript: no ground truth, only the public
 * write schedule. A logical write is an R call of its k refresh sources (preceded, for an update,
 * by the block's current position) followed by a W call of [holding slot, k refreshed main
 * blocks]. A refresh links its source to the refreshed main position (the block's home); an
 * update links the holding slot it seals to the position it read. Every read (a get, an update's
 * read of the current copy) is credited to its linked history, and each history to its home.
 * Per-label counts blur a hot key whose copies keep moving through holding slots; these do not.
 */
final class DetWoOramLinks {
  private DetWoOramLinks() {}

  /** One store call: R or W and its labels (the lines of one call share their time stamp). */
  private record Call(char kind, List<String> labels) {}

  /** Reads per home (main-position label), for every main label the transcript writes. */
  static Map<String, Long> readsPerHome(Path trace) throws IOException {
    List<Call> calls = calls(trace);
    Histories h = new Histories();
    Set<String> homes = new HashSet<>();
    for (int c = 0; c < calls.size(); c++) {
      Call call = calls.get(c);
      Call next = c + 1 < calls.size() ? calls.get(c + 1) : null;
      if (call.kind() != 'R') {
        continue;
      }
      if (next == null || next.kind() != 'W') { // a get: one read of the key's position
        call.labels().forEach(h::read);
        continue;
      }
      List<String> written = next.labels();
      int k = written.size() - 1;
      boolean update = call.labels().size() == k + 1;
      String current = update ? call.labels().get(0) : null;
      if (update) {
        h.read(current);
      }
      for (int j = 0; j < k; j++) {
        String source = call.labels().get(call.labels().size() - k + j);
        homes.add(written.get(1 + j));
        h.link(h.node(source), h.node(written.get(1 + j)));
      }
      int sealed = h.seal(written.get(0));
      if (update) {
        h.link(sealed, h.node(current));
      }
      c++;
    }
    Map<String, Long> out = new HashMap<>();
    for (String home : homes) {
      out.put(home, h.readsOf(home));
    }
    return out;
  }

  private static List<Call> calls(Path trace) throws IOException {
    List<Call> calls = new ArrayList<>();
    String lastStamp = null;
    for (String line : Files.readAllLines(trace, StandardCharsets.US_ASCII)) {
      String[] f = line.split(" ");
      if (f.length < 4) {
        continue;
      }
      String stamp = f[0] + f[3];
      if (!stamp.equals(lastStamp)) {
        calls.add(new Call(f[0].charAt(0), new ArrayList<>()));
        lastStamp = stamp;
      }
      calls.get(calls.size() - 1).labels().add(f[1]);
    }
    return calls;
  }

  /** Union-find over label tenures (a holding slot starts a new tenure each time it is sealed). */
  private static final class Histories {
    private final Map<String, Integer> nodeOf = new HashMap<>();
    private final List<Integer> parent = new ArrayList<>();
    private final List<Long> reads = new ArrayList<>();

    private int fresh() {
      parent.add(parent.size());
      reads.add(0L);
      return parent.size() - 1;
    }

    int node(String label) {
      return nodeOf.computeIfAbsent(label, l -> fresh());
    }

    int seal(String label) {
      int n = fresh();
      nodeOf.put(label, n);
      return n;
    }

    private int root(int x) {
      while (parent.get(x) != x) {
        parent.set(x, parent.get(parent.get(x)));
        x = parent.get(x);
      }
      return x;
    }

    void read(String label) {
      int r = root(node(label));
      reads.set(r, reads.get(r) + 1);
    }

    void link(int a, int b) {
      int ra = root(a);
      int rb = root(b);
      if (ra != rb) {
        parent.set(ra, rb);
        reads.set(rb, reads.get(rb) + reads.get(ra));
      }
    }

    long readsOf(String label) {
      return reads.get(root(node(label)));
    }
  }
}
