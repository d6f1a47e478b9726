/**
 * The PANCAKE engine: replica plans and fake distributions, the query queue, ticks of batches sent
 * on the clock (emitter, emission levels, tick runner), the UpdateCache, and durability -- the
 * state directory ({@code StateDirectory}, {@code ProxyState}), the write-ahead log
 * ({@code WriteAheadLog}) and its typed records ({@code LogRecord}, the one place their bytes are
 * laid out), its writer and checkpoints; the {@code Proxy} that ties them together, with its jobs
 * in classes of their own (opening, recovery, requests, transitions, checkpoints, labels). Only
 * {@link io.pancakej.smoothing.Engine} is public, and only so that {@link io.pancakej.PancakeClient}
 * and {@link io.pancakej.PancakeConfig} can reach the engine.
 */
package io.pancakej.smoothing;
