#!/bin/bash
# second round: estimator park 5 / 50 / 200 ms, default path, one thread, 10 runs each, interleaved in halves
cd /work/main
for v in 5 50 200; do O=/tmp/est/q$v; mkdir -p $O; [ -f $O/dist-c.tsv ] || bin/distribution -P workloads/workloadc -p recordcount=2000 -o $O/dist-c.tsv > /dev/null; done
R=docs/results/timing/wake-contention/runs.sh
for half in "1 5" "6 10"; do
  for v in 5 50 200; do
    $R /tmp/est/q$v c 1 100000 $half -jvm-args "-Dscratch.estimatorParkMs=$v" >> /tmp/est/q$v/runs.log 2>&1
  done
done
for v in 5 50 200; do docs/results/timing/serving-parks/auditx.sh /tmp/est/q$v > /tmp/est/q$v/auditx.log 2>&1; done
echo done
