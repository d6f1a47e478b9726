/**
 * Distribution estimates over keys: O(1) alias-method sampling and the warm-start
 * distribution file format.
 */
package io.pancakej.distribution;
