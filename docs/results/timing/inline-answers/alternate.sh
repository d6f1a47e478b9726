#!/bin/bash
# Default-path runs in turns (README.md, section 5): a checkout of 298f915 at /tmp/wt-before, one of
# 7c63013 at /tmp/wt-after (git worktree add); usage: alternate.sh <pairs>; then bin/audit and
# default-path-repeats/repeats.py on /tmp/alt/b/r* and /tmp/alt/a/r*
for i in $(seq 1 $1); do
  (cd /tmp/wt-before && docs/results/timing/default-path-repeats/runs.sh /tmp/alt/b $i $i)
  (cd /tmp/wt-after && docs/results/timing/default-path-repeats/runs.sh /tmp/alt/a $i $i)
done
