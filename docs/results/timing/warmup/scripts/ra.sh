#!/bin/bash
# ra.sh <out> <W a|c> <name>[:JAVA_OPTS[:EXTRA]] ... runs 8-thread YCSB on 5e4-record RocksDB state /tmp/s33/<W>-pristine in turns
out=$1; W=$2; shift 2; mkdir -p $out
for spec in "$@"; do
  IFS="|" read -r name opts extra <<<"$spec"
  rm -rf /tmp/s33/$W; cp -a /tmp/s33/$W-pristine /tmp/s33/$W
  (cd ${DIR:-/work/main} && JAVA_OPTS="$opts" timeout 600 bin/ycsb run pancake -P workloads/workload$W -p recordcount=50000 -p operationcount=${OPS:-300000} -p pancake.value.size=1224 -p pancake.state.dir=/tmp/s33/$W/state -p rocksdb.dir=/tmp/s33/$W/rocksdb -threads 8 -s $extra > $out/$name.out 2>&1)
  echo "== $name: $(grep Throughput $out/$name.out | cut -d, -f3 | cut -d. -f1) ops/s; $(grep -o '[0-9]* sec: [0-9]* operations' $out/$name.out | tr '\n' ' ')"
done
