/**
 * Internal, not part of the API: what every scheme's configuration shares -- typed property
 * readers ({@link io.pancakej.config.PropertyReader}), one set of key and value size limits
 * ({@link io.pancakej.config.Limits}) and the builder base that reads the common properties
 * ({@link io.pancakej.config.SchemeBuilder}) -- so that PANCAKE, Path ORAM, DetWoORAM and the
 * baselines accept the same values and refuse a bad one with the same message.
 */
package io.pancakej.config;
