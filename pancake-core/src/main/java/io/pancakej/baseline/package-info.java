/**
 * The two comparison schemes that sit on the same store SPI as PANCAKE: {@link
 * io.pancakej.baseline.InsecureClient} (plaintext keys and values) and {@link
 * io.pancakej.baseline.EncryptedClient} (PRF labels and AEAD-sealed padded values, one store
 * access per request, no frequency smoothing). They bound PANCAKE's cost from below.
 */
package io.pancakej.baseline;
