package io.pancakej;

/**
 * A snapshot of a {@link PancakeClient}'s counters, for benchmarks, monitoring and tests
 * ({@link PancakeClient#stats()}). Counts are since the client was opened unless said otherwise.
 *
 * @param requests requests submitted (get, put, update, delete, sync or async)
 * @param batches batches sent to the store, B label accesses each
 * @param ticks clock ticks run (each sends one or more batches in one store call)
 * @param lateTicks ticks that started after their point on the clock's grid
 * @param batchesPerSecond the current emission level, in batches per second
 * @param updateCacheEntries keys whose latest value has not reached all of their replicas yet
 * @param updateCacheBytes bytes of values held for those keys
 * @param queued requests waiting for a real access
 * @param keys keys bound to a key slot
 * @param capacity key slots (n, fixed when the state was created)
 * @param realReplicas replica slots that belong to a key (the rest of the 2n are dummies)
 * @param transitions replica-plan transitions that swapped replicas
 * @param pendingSwaps replica swaps the transition under way still has to make (0 when steady)
 * @param swapsDone replica swaps made
 * @param swapCacheEntries values the transition under way holds until their new replicas are written
 * @param swapCacheBytes bytes of those values
 * @param lastChangeTestP p-value of the distribution-change detector's last test ({@code NaN}
 *     when the proxy does not adapt or has not tested yet)
 * @param estimateSamples requests the estimate in force was learned from (gets, updates and
 *     deletes: puts draw their access from it and are not counted); -1 for a declared
 *     distribution, 0 for the uniform estimate assumed without one
 * @param estimateSource where the estimate in force came from, in words
 */
public record PancakeStats(long requests, long batches, long ticks, long lateTicks, double batchesPerSecond,
    int updateCacheEntries, long updateCacheBytes, int queued, int keys, int capacity, int realReplicas,
    long transitions, int pendingSwaps, long swapsDone, int swapCacheEntries, long swapCacheBytes,
    double lastChangeTestP, long estimateSamples, String estimateSource) {}
