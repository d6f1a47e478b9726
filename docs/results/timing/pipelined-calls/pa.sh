#!/bin/bash
# pa.sh <out> <ops> name=T:K:extra-java-opts ...   (from /tmp/wt-a)
read PORT PID < /tmp/redis.pp
out=$1; ops=$2; shift 2; mkdir -p $out
for spec in "$@"; do
  name=${spec%%=*}; r=${spec#*=}; T=${r%%:*}; r=${r#*:}; K=${r%%:*}; X=${r#*:}; [ "$X" = "$r" ] && X=""
  jo="$X"; [ "$T" != 0 ] && jo="$jo -Dpin.ticks=$T -Dpin.batches=$K"
  (cd /tmp/wt-a && JAVA_OPTS="$jo" bin/ycsb run pancake -P workloads/workloada -p pancake.store=redis -p redis.host=127.0.0.1 -p redis.port=$PORT -p redis.db=3 -p recordcount=100000 -p pancake.state.dir=/tmp/s29/a1/state -p operationcount=$ops -threads 8 -p status.interval=1 -s > $out/$name.out 2> $out/$name.err)
  w=$(grep -o "[0-9]* sec: [0-9]* operations; [0-9.]* current" $out/$name.err | awk '$1>=15 {print $5}' | sort -n | awk '{a[NR]=$1} END {printf "%d-%d median %d", a[1], a[NR], a[int((NR+1)/2)]}')
  echo "$name [$jo]: $(grep Throughput $out/$name.out | cut -d, -f3 | cut -d. -f1) ops/s | warm $w | $(grep -o '[0-9]* batches ([0-9.]* requests per batch), [0-9]* ticks ([0-9]* late)' $out/$name.err) | read $(grep 'READ\], AverageLatency' $out/$name.out | cut -d, -f3 | cut -d. -f1)"
done
