#!/bin/bash
# Variants in turns on the 10^5-record Redis C state (README.md here). usage:
#   runs.sh <checkout> <operations> <rounds> "<name>|<JAVA_OPTS>" ...
# e.g. runs.sh /work/main 2000000 2 "D|" "S|-XX:CompileThresholdScaling=0.1"     (logs-jit.txt)
#      runs.sh <scratch checkout> 1200000 3 "D|" "V|-Dscratch.nosplit=true"      (logs-fewer-ticks-rule.txt)
# The state is /tmp/s25/c-state (db 3); /tmp/redis.pp holds "<port> <pid>" of bin/redis-local start.
R=$1; OPS=$2; N=$3; shift 3
read PORT PID < /tmp/redis.pp
cd "$R" || exit 1
for i in $(seq 1 "$N"); do
  for spec in "$@"; do
    IFS='|' read -r v JO <<< "$spec"
    o=/tmp/s25/runs-$v$i
    JAVA_OPTS="$JO" /usr/bin/time -f "%U %S" -o $o.time bin/ycsb run pancake -P workloads/workloadc -p pancake.store=redis \
      -p redis.host=127.0.0.1 -p redis.port=$PORT -p redis.db=3 -p recordcount=100000 -p pancake.state.dir=/tmp/s25/c-state \
      -p operationcount=$OPS -threads 8 -p status.interval=10 -s > $o.out 2> $o.err
    echo "$v$i $(grep Throughput $o.out | cut -d, -f3) read-avg $(grep 'READ], AverageLatency' $o.out | cut -d, -f3)" \
      "$(grep -o '([0-9.]* requests per batch)' $o.err) $(grep -o '[0-9]* ticks ([0-9]* late)' $o.err) cpu $(cat $o.time)" \
      "windows $(grep 'current ops' $o.err | awk '{print int($7)}' | tr '\n' ' ')"
  done
done
