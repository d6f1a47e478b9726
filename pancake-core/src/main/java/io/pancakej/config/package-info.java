/**
 * Internal, not part of the API: the typed property readers ({@link io.pancakej.config.PropertyReader})
 * and the one set of key and value size limits ({@link io.pancakej.config.Limits}) that every
 * scheme and store uses, so that PANCAKE, Path ORAM, DetWoORAM and the baselines accept the same
 * values and refuse a bad one with a message naming the property. Depends on nothing but the
 * exception family.
 */
package io.pancakej.config;
