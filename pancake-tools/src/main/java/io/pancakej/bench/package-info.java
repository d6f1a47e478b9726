/**
 * The evaluation behind the {@code bin/pancake} subcommands {@code bench}, {@code compare},
 * {@code bench-dynamic}, {@code audit}, {@code distribution} and {@code store-bound}: side-by-side
 * YCSB runs with tables and charts, the transcript audit (uniformity and a frequency-analysis
 * attack), YCSB key distributions and the store-only request loop.
 */
package io.pancakej.bench;
