/**
 * Non-recursive Path ORAM (Stefanov et al., CCS 2013) with Z = 4 blocks per bucket, on the same
 * {@link io.pancakej.store.KvStore} SPI as PANCAKE: the strong-security baseline. The public type
 * is {@link io.pancakej.pathoram.PathOramClient}; the tree layout, bucket encoding, client-side
 * position map and stash, and the sealed state file are package-private parts behind it.
 */
package io.pancakej.pathoram;
