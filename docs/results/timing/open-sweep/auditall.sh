#!/bin/bash
# auditall.sh <dir> <dist> : bin/audit + timing_audit.py on each run dir r*
for d in $1/r*; do
  [ -f $d/run.trace ] || continue
  [ -f $d/audit.txt ] && continue
  bin/audit --scheme pancake --transcript $d/run.trace --distribution $2 --state-dir $d/state > $d/audit.txt 2>&1
  python3 docs/results/timing/timing_audit.py $d/run.trace 0.05 > $d/timing.txt 2>&1
  echo "$(basename $d): $(grep Throughput $d/run.out | cut -d, -f3) | $(grep -m1 -iE 'leak' $d/audit.txt) | $(grep -m1 'chi-square' $d/audit.txt | head -c 150) | $(grep -m1 'persistence' $d/audit.txt | head -c 120)"
done
