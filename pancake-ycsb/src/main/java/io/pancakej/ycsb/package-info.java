/**
 * YCSB bindings ({@link site.ycsb.DB}) for every PANCAKE-J scheme: {@link
 * io.pancakej.ycsb.PancakeBinding}, {@link io.pancakej.ycsb.EncryptedBinding} and {@link
 * io.pancakej.ycsb.InsecureBinding}, sharing one client per JVM through {@link
 * io.pancakej.ycsb.KvClientBinding}, and the {@link io.pancakej.ycsb.RecordCodec} that turns a
 * YCSB record into one value. {@link io.pancakej.ycsb.Bindings} maps scheme names to binding classes.
 */
package io.pancakej.ycsb;
