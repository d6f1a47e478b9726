#!/bin/bash
# abp.sh <out> <ops> name=<extra -p args, comma separated> ...   (main checkout)
read PORT PID < /tmp/redis.pp
W=${W:-a}; DB=${DB:-3}; STATE=${STATE:-/tmp/s31/a1/state}
out=$1; ops=$2; shift 2; mkdir -p $out
for spec in "$@"; do
  name=${spec%%=*}; r=${spec#*=}; extra=""; for kv in ${r//,/ }; do extra="$extra -p $kv"; done
  (cd /work/main && bin/ycsb run pancake -P workloads/workload$W -p pancake.store=redis -p redis.host=127.0.0.1 -p redis.port=$PORT -p redis.db=$DB -p recordcount=100000 -p pancake.state.dir=$STATE -p operationcount=$ops -threads 8 -p status.interval=1 $extra -s > $out/$name.out 2> $out/$name.err)
  w=$(grep -o "[0-9]* sec: [0-9]* operations; [0-9.]* current" $out/$name.err | awk '$1>=15 {print $5}' | sort -n | awk '{a[NR]=$1} END {printf "%d-%d median %d", a[1], a[NR], a[int((NR+1)/2)]}')
  echo "$name [$r]: $(grep Throughput $out/$name.out | cut -d, -f3 | cut -d. -f1) ops/s | warm $w | $(grep -o '[0-9]* batches ([0-9.]* requests per batch), [0-9]* ticks ([0-9]* late)' $out/$name.err) | read $(grep 'READ\], AverageLatency' $out/$name.out | cut -d, -f3 | cut -d. -f1) upd $(grep 'UPDATE\], AverageLatency' $out/$name.out | cut -d, -f3 | cut -d. -f1)"
done
