/**
 * Public API of PANCAKE-J: {@link io.pancakej.PancakeClient} (get, put, delete, atomic update),
 * its {@link io.pancakej.PancakeConfig} builder, and the {@link io.pancakej.PancakeException}
 * family. Everything the client does to hide access frequencies lives in the engine packages.
 */
package io.pancakej;
