/**
 * The {@code bin/pancake} command and the subcommands that are not evaluation code of their own:
 * the stock-compatible YCSB launcher, a private Redis, the store bound, CPU profiles and the JMH
 * microbenchmarks. The evaluation itself ({@code bench}, {@code compare}, {@code audit}, ...)
 * lives in {@code io.pancakej.bench}.
 */
package io.pancakej.tools;
