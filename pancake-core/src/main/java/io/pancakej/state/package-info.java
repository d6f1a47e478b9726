/**
 * Proxy state that outlives a process: the sealed, atomically replaced state file and the
 * directory lock that keeps two processes from driving one state.
 */
package io.pancakej.state;
