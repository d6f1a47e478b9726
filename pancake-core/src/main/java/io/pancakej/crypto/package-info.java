/**
 * Cryptographic primitives with stated guarantees: the {@link io.pancakej.crypto.MasterKey}
 * (key file, HKDF subkeys), the label {@link io.pancakej.crypto.Prf} (HMAC-SHA256) and value
 * {@link io.pancakej.crypto.Aead} (AES-256-GCM, fresh nonce per encryption), and
 * {@link io.pancakej.crypto.EpochAead}, the replicas' AES-256-GCM whose key changes after a
 * counted number of encryptions (key epochs).
 */
package io.pancakej.crypto;
