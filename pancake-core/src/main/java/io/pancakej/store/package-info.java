/**
 * The key-value store SPI ({@link io.pancakej.store.KvStore}) and its backends: in-memory,
 * RocksDB embedded (the default), Redis and Redis Cluster through Jedis, chosen by name with
 * {@link io.pancakej.store.Stores#open}; plus decorators, all on
 * {@link io.pancakej.store.ForwardingStore}, that count or record every server-visible operation
 * for bandwidth figures and security audits, or group concurrent calls into one round trip.
 */
package io.pancakej.store;
