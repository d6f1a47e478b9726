#!/bin/bash
# The pinned-levels grid (README.md): PORT=<bin/redis-local start's port> SCRATCH=<checkout with scratch.patch>
# MAIN=<checkout without it> pin.sh <outdir> <ticks,batches>...; the state (/tmp/prof-c/state, Redis db 3) is
# loaded and swapped to the workload's estimate beforehand (README.md).
P=${PORT:?}; out=$1; shift
mkdir -p $out
run() { # dir label opts
  local dir=$1 lab=$2; shift 2
  (cd $dir && JDK_JAVA_OPTIONS="$*" bin/ycsb run pancake -P workloads/workloadc -p pancake.store=redis -p redis.host=127.0.0.1 -p redis.port=$P -p redis.db=3 \
    -p recordcount=50000 -p pancake.state.dir=/tmp/prof-c/state -p operationcount=400000 -threads 8 -p status.interval=5 -s > $out/$lab.out 2> $out/$lab.err)
  w=$(grep 'current ops' $out/$lab.err | sed 's/.*operations; \([0-9.]*\) current.*/\1/' | awk '{printf "%d ", $1}')
  echo "$lab $(grep Throughput $out/$lab.out | awk -F', ' '{printf "%d", $3}') | $w | $(grep -o '[0-9.]* requests per batch), [0-9]* ticks ([0-9]* late)' $out/$lab.err)"
}
run ${MAIN:?} base1
for tb in "$@"; do run ${SCRATCH:?} pin-$tb -Dscratch.pin=$tb; done
run ${MAIN:?} base2
