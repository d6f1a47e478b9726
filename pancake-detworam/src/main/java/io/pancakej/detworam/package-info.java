/**
 * DetWoORAM (Roche, Aviv, Choi, Mayberry, CCS 2017), a deterministic, stash-free write-only
 * ORAM, on the same {@link io.pancakej.store.KvStore} SPI as PANCAKE: the write-only baseline.
 * The public type is {@link io.pancakej.detworam.DetWoOramClient}; the write engine, the write
 * schedule, block encoding, client-side position map and the sealed state file are
 * package-private parts behind it.
 */
package io.pancakej.detworam;
