# Ticks a second and labels read a tick, per second of a transcript (pancake.trace.file: kind, label, size, call time in ns).
import collections, sys
calls = collections.defaultdict(lambda: [0, 0])
for line in open(sys.argv[1]):
    p = line.split()
    if len(p) >= 4:
        calls[int(p[3])][0 if p[0] == 'R' else 1] += 1
t0 = min(calls)
sec = collections.defaultdict(lambda: [0, 0])
for t, (reads, _) in calls.items():
    s = sec[int((t - t0) / 1e9)]
    s[0] += 1
    s[1] += reads
print("second ticks reads/tick")
for s in sorted(sec):
    print(s, sec[s][0], round(sec[s][1] / sec[s][0], 2))
