package io.pancakej.distribution;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.pancakej.ConfigException;

/**
 * Reads and writes the warm-start distribution file: UTF-8 text, one key per line as
 * {@code weight<TAB>key} (the key is the rest of the line and may contain spaces), blank lines
 * and lines starting with {@code #} ignored. Weights are non-negative numbers in any scale
 * (probabilities or access counts).
 */
public final class DistributionFile {
  public static final String HEADER = "# pancake-j distribution v1: weight<TAB>key";

  private DistributionFile() {}

  /** The keys and weights of {@code file}, in file order; errors name the file and line. */
  public static Map<String, Double> read(Path file) {
    Map<String, Double> out = new LinkedHashMap<>();
    try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      String line;
      int lineNo = 0;
      while ((line = in.readLine()) != null) {
        lineNo++;
        if (line.isBlank() || line.startsWith("#")) {
          continue;
        }
        int tab = line.indexOf('\t');
        if (tab <= 0 || tab == line.length() - 1) {
          throw new ConfigException("distribution file " + file + " line " + lineNo
              + ": expected 'weight<TAB>key'");
        }
        double w;
        try {
          w = Double.parseDouble(line.substring(0, tab).trim());
        } catch (NumberFormatException e) {
          throw new ConfigException("distribution file " + file + " line " + lineNo + ": weight '"
              + line.substring(0, tab) + "' is not a number", e);
        }
        if (!(w >= 0) || Double.isInfinite(w)) {
          throw new ConfigException("distribution file " + file + " line " + lineNo
              + ": weight must be finite and non-negative");
        }
        String key = line.substring(tab + 1);
        if (out.put(key, w) != null) {
          throw new ConfigException("distribution file " + file + " line " + lineNo + ": key listed twice");
        }
      }
    } catch (NoSuchFileException e) {
      throw new ConfigException("distribution file " + file + " does not exist", e);
    } catch (IOException e) {
      throw new ConfigException("cannot read distribution file " + file + ": " + e.getMessage(), e);
    }
    if (out.isEmpty()) {
      throw new ConfigException("distribution file " + file + " lists no keys");
    }
    return out;
  }

  /** Writes {@code weights} in the format {@link #read} accepts. */
  public static void write(Path file, Map<String, Double> weights) throws IOException {
    Set<String> bad = new HashSet<>();
    for (String k : weights.keySet()) {
      if (k.isEmpty() || k.indexOf('\n') >= 0 || k.indexOf('\r') >= 0) {
        bad.add(k);
      }
    }
    if (!bad.isEmpty()) {
      throw new IllegalArgumentException(bad.size() + " keys are empty or contain a line break");
    }
    try (BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      out.write(HEADER);
      out.write('\n');
      for (Map.Entry<String, Double> e : weights.entrySet()) {
        out.write(Double.toString(e.getValue()));
        out.write('\t');
        out.write(e.getKey());
        out.write('\n');
      }
    }
  }

  /**
   * The estimate over {@code capacity} key slots when the file lists {@code weights.size()} keys:
   * listed keys share {@code m/n} of the mass in proportion to their weights (so their relative
   * skew is kept), and every one of the {@code n - m} free slots gets {@code 1/n}. Returns the
   * listed keys' probabilities in file order followed by the free slots'.
   */
  public static double[] estimate(List<Double> listedWeights, int capacity) {
    int m = listedWeights.size();
    if (m > capacity) {
      throw new ConfigException("the distribution file lists " + m + " keys but the capacity is only "
          + capacity + "; raise pancake.capacity");
    }
    double sum = 0;
    for (double w : listedWeights) {
      sum += w;
    }
    if (!(sum > 0)) {
      throw new ConfigException("the distribution file's weights are all zero");
    }
    // the listed keys are all the application requests: slots beyond them carry no real accesses
    // (their one replica each is then accessed like a dummy), whatever the spare capacity
    double[] p = new double[capacity];
    for (int i = 0; i < m; i++) {
      p[i] = listedWeights.get(i) / sum;
    }
    return p;
  }

  /** Convenience for callers holding the map from {@link #read}. */
  public static List<Double> weightsInOrder(Map<String, Double> weights) {
    return new ArrayList<>(weights.values());
  }
}
