#!/bin/bash
# auditx.sh <dir>: bin/audit on each run <dir>/r* (ground truth from its state), one line of the timing
# scores' ground-truth z a run: T|lag = top tenth of the silence, R|lag = its rank; lag 0 = before the call
cd "$(dirname "$0")/../../../.."
for d in $1/r*; do
  [ -f $d/run.trace ] || continue
  [ -f $d/audit.txt ] || bin/audit --scheme pancake --transcript $d/run.trace --distribution $1/dist-c.tsv --state-dir $d/state > $d/audit.txt 2>&1
  echo "$(basename $1)/$(basename $d) $(grep Throughput $d/run.out | cut -d, -f3 | cut -c1-8) ops/s | $(grep -E '^             (top|rank)' $d/audit.txt | sed -E 's/.*(top tenth|rank) of the silence (before a call|after a call|[0-9] call\(s\) later).*ground truth\) [-0-9.]+ \(z = ([-0-9.]+).*/\1|\2:\3/' | sed 's/top tenth/T/;s/rank/R/;s/before a call/0/;s/after a call/1/;s/1 call(s) later/2/;s/2 call(s) later/3/' | tr '\n' ' ') | $(grep -E '^timing +(LEAKS|no timing)' $d/audit.txt | cut -c14-40)"
done
