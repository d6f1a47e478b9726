/**
 * Sealed state files that outlive a process: magic, AES-GCM seal, atomic and durable replace.
 * Internal, shared by the PANCAKE proxy (whose state directory and write-ahead log are its own, in
 * {@code io.pancakej.smoothing}), Path ORAM and DetWoORAM.
 */
package io.pancakej.state;
