package io.pancakej;

/**
 * How the write-ahead log reaches the disk before a write is acknowledged
 * ({@value PancakeConfig#WAL_SYNC_PROPERTY}, {@link PancakeConfig.Builder#walSync}).
 */
public enum WalSync {
  /** Nothing is logged: a crash loses the writes since the last checkpoint. */
  OFF,
  /**
   * The default: each record is handed to the operating system before the write is acknowledged
   * (copied into the log file's memory-mapped pages, which are the operating system's page cache),
   * so acknowledged writes survive the process being killed, but not a machine crash.
   */
  WRITE,
  /**
   * Each record is also forced to disk before the write is acknowledged (one fsync covers the
   * writes of concurrent requests), so acknowledged writes survive a machine crash.
   */
  FSYNC
}
