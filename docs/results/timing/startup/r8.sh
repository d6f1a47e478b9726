#!/bin/bash
# r8.sh <out> <name>[:JAVA_OPTS] ... : 8-thread YCSB C on RocksDB 5e4 records from /tmp/s32/r8-pristine, in turns (wt-x unless DIR)
out=$1; shift; mkdir -p $out
for spec in "$@"; do
  name=${spec%%:*}; opts=""; [[ $spec == *:* ]] && opts=${spec#*:}
  rm -rf /tmp/s32/r8; cp -a /tmp/s32/r8-pristine /tmp/s32/r8
  (cd ${DIR:-/tmp/wt-x} && JAVA_OPTS="$opts" timeout 600 bin/ycsb run pancake -P workloads/workload${W:-c} -p recordcount=50000 -p operationcount=${OPS:-300000} -p pancake.state.dir=/tmp/s32/r8/state -p rocksdb.dir=/tmp/s32/r8/rocksdb -threads 8 ${EXTRA:-} > $out/$name.out 2>&1)
  echo "== $name: $(grep Throughput $out/$name.out | cut -d, -f3) ops/s; $(grep 'requests per batch' $out/$name.out | cut -c1-150)"
done
