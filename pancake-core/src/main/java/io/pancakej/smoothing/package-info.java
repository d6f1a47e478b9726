/**
 * The PANCAKE engine: replica plans and fake distributions, the query queue and batches, the
 * UpdateCache, and the pacer that keeps closed-loop callers live. Only {@link
 * io.pancakej.smoothing.Proxy} is public, and only so that {@link io.pancakej.PancakeClient} can
 * reach it.
 */
package io.pancakej.smoothing;
