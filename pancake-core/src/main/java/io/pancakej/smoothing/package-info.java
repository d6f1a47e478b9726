/**
 * The PANCAKE engine: replica plans and fake distributions, the query queue, ticks of batches sent
 * on the clock (emitter, emission levels, tick runner), the write-ahead log writer and the
 * UpdateCache. Only {@link
 * io.pancakej.smoothing.Proxy} is public, and only so that {@link io.pancakej.PancakeClient} can
 * reach it.
 */
package io.pancakej.smoothing;
