/**
 * Test fixtures shared with the other modules through pancake-core's test jar: real Redis
 * servers and clusters ({@link io.pancakej.testing.RedisServerFixture},
 * {@link io.pancakej.testing.RedisClusterFixture}) and the store contract test every
 * {@link io.pancakej.store.KvStore} passes. Users of the test jar also need the test dependency
 * {@code com.github.codemonstur:embedded-redis}, which carries the redis-server binary.
 */
package io.pancakej.testing;
