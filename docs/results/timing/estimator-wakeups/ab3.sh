#!/bin/bash
# third round: estimator park 5 / 200 ms, default path, one thread, 10 runs each, interleaved in halves, from a worktree
cd /work/main
for v in 5 200; do O=/tmp/est/s$v; mkdir -p $O; [ -f $O/dist-c.tsv ] || bin/distribution -P workloads/workloadc -p recordcount=2000 -o $O/dist-c.tsv > /dev/null; done
cd /tmp/est/wt && bin/pancake --help > /dev/null 2>&1   # builds the worktree once
cd /work/main
R=docs/results/timing/wake-contention/runs.sh
for half in "1 5" "6 10"; do
  for v in 5 200; do
    PANCAKE_DIR=/tmp/est/wt $R /tmp/est/s$v c 1 100000 $half -jvm-args "-Dscratch.estimatorParkMs=$v" >> /tmp/est/s$v/runs.log 2>&1
  done
done
echo runs-done
