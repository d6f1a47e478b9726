/**
 * Cryptographic primitives with stated guarantees: the {@link io.pancakej.crypto.MasterKey}
 * (key file, HKDF subkeys), the label {@link io.pancakej.crypto.Prf} (HMAC-SHA256) and value
 * {@link io.pancakej.crypto.Aead} (AES-256-GCM, fresh nonce per encryption).
 */
package io.pancakej.crypto;
