#!/bin/bash
# Scratch A/B of JVM options on the instrumented checkout (README.md):
# PORT=<port> SCRATCH=<checkout with scratch.patch> scratch-ab.sh <outdir> "label|jvm options" ...
out=$1; shift; mkdir -p $out
for spec in "$@"; do
  lab=${spec%%|*}; opts=${spec#*|}
  (cd ${SCRATCH:?} && JDK_JAVA_OPTIONS="$opts" bin/ycsb run pancake -P workloads/workloadc -p pancake.store=redis -p redis.host=127.0.0.1 -p redis.port=${PORT:?} -p redis.db=3 -p recordcount=50000 -p pancake.state.dir=/tmp/prof-c/state -p operationcount=500000 -threads 8 -p status.interval=5 -s > $out/$lab.out 2> $out/$lab.err)
  echo "$lab $(grep Throughput $out/$lab.out | awk -F', ' '{printf "%d", $3}') | $(grep 'current ops' $out/$lab.err | sed 's/.*operations; \([0-9.]*\) current.*/\1/' | awk '{printf "%d ", $1}') | $(grep -o '[0-9.]* requests per batch' $out/$lab.err) | $(grep 'timestamps\] n' $out/$lab.err | cut -c14-)"
done
