package io.pancakej.detworam;

/**
 * The public, deterministic write schedule: N main blocks, M holding slots and k = ceil(N/M)
 * refreshes per logical write. Logical write number {@code s} (s = 0, 1, ...) seals its block
 * into holding slot {@code s mod M} and refreshes main blocks {@code (s*k + j) mod N} for
 * j = 0..k-1. Nothing here depends on which logical block a write touches, on which blocks are
 * bound or free, or on anything but the write counter: this class is what the store sees.
 *
 * <p>Invariant (proof in docs/detworam.md): the M*k >= N refreshes of writes s..s+M-1 cover
 * every main block, so the block written into a holding slot at write s has been moved to the
 * main area (or superseded) before write s+M overwrites that slot.
 */
final class Schedule {
  /** Step of the blocks written when the store was initialized (before write 0). */
  static final long INIT = -1;

  final int mainBlocks;
  final int holdingSlots;
  final int refreshesPerWrite;

  Schedule(int mainBlocks, int holdingSlots) {
    if (mainBlocks < 1 || holdingSlots < 1) {
      throw new IllegalArgumentException("N and M must be positive, got N=" + mainBlocks + ", M=" + holdingSlots);
    }
    this.mainBlocks = mainBlocks;
    this.holdingSlots = holdingSlots;
    this.refreshesPerWrite = (int) ((mainBlocks + (long) holdingSlots - 1) / holdingSlots);
  }

  /** The holding slot logical write {@code step} seals its block into. */
  int holdingSlot(long step) {
    return (int) (step % holdingSlots);
  }

  /** The j-th main block (0 <= j < k) refreshed by logical write {@code step}. */
  int refreshed(long step, int j) {
    return (int) Math.floorMod(step * refreshesPerWrite + j, (long) mainBlocks);
  }

  /** The main blocks refreshed by logical write {@code step}, in order. */
  int[] refreshedBy(long step) {
    int[] out = new int[refreshesPerWrite];
    for (int j = 0; j < out.length; j++) {
      out[j] = refreshed(step, j);
    }
    return out;
  }

  /** The write that last sealed holding slot {@code h} once {@code steps} writes are done; INIT if none. */
  long lastHoldingWrite(int h, long steps) {
    if (steps <= h) {
      return INIT;
    }
    return (steps - 1) - Math.floorMod(steps - 1 - h, (long) holdingSlots);
  }

  /** The write that last refreshed main block {@code i} once {@code steps} writes are done; INIT if none. */
  long lastMainWrite(int i, long steps) {
    long lastRefresh = steps * refreshesPerWrite - 1;
    if (lastRefresh < i) {
      return INIT;
    }
    return (lastRefresh - Math.floorMod(lastRefresh - i, (long) mainBlocks)) / refreshesPerWrite;
  }

  @Override
  public String toString() {
    return "Schedule[N=" + mainBlocks + ", M=" + holdingSlots + ", k=" + refreshesPerWrite + "]";
  }
}
