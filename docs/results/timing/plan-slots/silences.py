"""Silences in transcripts: every gap between two store calls at least 3 ms longer than the median of
the 50 gaps before it (the grid's period at the time: at idle it is 10 ms), with its start's phase
on a 1-s schedule (the slots run every second from the proxy's construction; the trace's clock
starts at its open, so the phase is the same for every slot of a run, whatever it is). A silence is
at a slot if the slot's time falls between the call before it and a period (+2 ms) after that call.
The silences at a slot 20 ms or more past the period (the checkpoint budget's) are split by the slot's number
modulo the checkpoint interval (10 slots by default, or CHECKPOINT_SLOTS=<n>): those at the
residue most of them share are the checkpoint slots, the rest fell at plan slots.
usage: python3 silences.py <run dir>... (each with a run.trace; 4th column: ns from the trace's start)"""
import os
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'write-back-lag'))
from calls import call_times  # noqa: E402

MS = 1_000_000
for d in sys.argv[1:]:
    ts = call_times(d)
    gaps = []
    for i in range(51, len(ts)):
        g = ts[i] - ts[i - 1]
        period = statistics.median(ts[j] - ts[j - 1] for j in range(i - 50, i))
        if g - period >= 3 * MS:
            gaps.append((ts[i - 1], g, g - period))
    late = [x for x in gaps if x[0] >= 1_000 * MS]  # after the first second (the JIT's)

    def at_slot(x, phase):
        # the slot's time falls between the last call before the silence and one period after it
        ahead = (phase * MS - x[0]) % (1_000 * MS)
        return ahead <= x[1] - x[2] + 2 * MS

    # the run's slot phase (ms on the 1-s schedule): the one the most silences fall at
    phase = max(range(1000), key=lambda ph: sum(1 for x in late if at_slot(x, ph))) if late else 0
    on = [x for x in late if at_slot(x, phase)]
    off = [x for x in late if x not in on]
    lengths = sorted(round(g / MS, 1) for _, g, _ in on)
    print(f"{os.path.basename(d.rstrip('/'))}: {len(ts)} calls, {ts[-1] / 1e9:.1f} s; {len(late)} silences"
          f" 3 ms past the period after 1 s: {len(on)} at a slot of phase {phase} ms (lengths"
          f" {lengths[:3]}..{lengths[-3:]}), {len(off)} elsewhere: "
          + " ".join(f"{g / MS:.1f}ms@{s / 1e9:.3f}s" for s, g, _ in off[:10]))
    # every silence of 20 ms or more (the checkpoint budget's, and the plan budget's at the idle period)
    print("  20 ms or more: " + " ".join(f"{(ts[i] - ts[i - 1]) / MS:.1f}ms@{ts[i - 1] / 1e9:.3f}s{'*' if at_slot((ts[i - 1], ts[i] - ts[i - 1], 0), phase) else ''}"
                                       for i in range(51, len(ts)) if ts[i] - ts[i - 1] >= 20 * MS)
          + "  (* at a slot)")
    # the silences at slots 20 ms or more past the period (the checkpoint budget's): on the
    # checkpoint schedule, or at plan slots
    every = int(os.environ.get('CHECKPOINT_SLOTS', '10'))
    long_at = [(t, g) for t, g, excess in on if excess >= 20 * MS]
    index = [round((t + 1 * MS - phase * MS) / (1_000 * MS)) for t, _ in long_at]
    if index:
        residue = max(range(every), key=lambda r: sum(1 for k in index if k % every == r))
        plan = [x for x, k in zip(long_at, index) if k % every != residue]
        print(f"  20 ms or more past the period at a slot: {len(long_at) - len(plan)} at checkpoint slots,"
              f" {len(plan)} at plan slots" + (": " + " ".join(f"{g / MS:.1f}ms@{t / 1e9:.3f}s" for t, g in plan) if plan else ""))
