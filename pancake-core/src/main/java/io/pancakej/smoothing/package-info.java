/**
 * The PANCAKE engine: replica plans and fake distributions, the query queue, ticks of batches sent
 * on the clock (emitter, emission levels, tick runner), the write-ahead log writer and the
 * UpdateCache; the {@code Proxy} that ties them together, with its jobs in classes of their own
 * (opening, recovery, requests, transitions, checkpoints, labels). Only {@link
 * io.pancakej.smoothing.Engine} is public, and only so that {@link io.pancakej.PancakeClient} can
 * reach the proxy.
 */
package io.pancakej.smoothing;
