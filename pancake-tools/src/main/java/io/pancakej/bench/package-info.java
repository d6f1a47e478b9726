/**
 * The evaluation tools behind {@code bin/bench}, {@code bin/audit} and {@code bin/distribution}:
 * side-by-side YCSB runs with tables and charts, the transcript audit (uniformity and a
 * frequency-analysis attack) and YCSB key distributions.
 */
package io.pancakej.bench;
