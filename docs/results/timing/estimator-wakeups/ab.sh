#!/bin/bash
# estimator park 5 ms (base) vs 50 ms, default path, one thread, 10 runs each, interleaved in halves
cd /work/main
for O in /tmp/est/p5 /tmp/est/p50; do mkdir -p $O; [ -f $O/dist-c.tsv ] || bin/distribution -P workloads/workloadc -p recordcount=2000 -o $O/dist-c.tsv > /dev/null; done
R=docs/results/timing/wake-contention/runs.sh
$R /tmp/est/p5 c 1 100000 1 5 >> /tmp/est/p5/runs.log 2>&1
$R /tmp/est/p50 c 1 100000 1 5 -jvm-args "-Dscratch.estimatorParkMs=50" >> /tmp/est/p50/runs.log 2>&1
$R /tmp/est/p5 c 1 100000 6 10 >> /tmp/est/p5/runs.log 2>&1
$R /tmp/est/p50 c 1 100000 6 10 -jvm-args "-Dscratch.estimatorParkMs=50" >> /tmp/est/p50/runs.log 2>&1
for O in /tmp/est/p5 /tmp/est/p50; do docs/results/timing/serving-parks/auditx.sh $O > $O/auditx.log 2>&1; done
echo done
