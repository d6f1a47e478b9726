/**
 * Internal, not part of the API: what every scheme with a state directory shares. The builder
 * base ({@link io.pancakej.scheme.SchemeBuilder}) holds the common settings (state directory,
 * capacity, key and value sizes, key file, store) with their checks and their reading from
 * properties; {@link io.pancakej.scheme.SchemeSettings} checks them against the state a scheme
 * opens or creates. PANCAKE, Path ORAM and DetWoORAM builders extend it.
 */
package io.pancakej.scheme;
