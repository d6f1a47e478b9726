#!/bin/bash
# one.sh <out> <name>[:JAVA_OPTS] ... : one-thread YCSB C on RocksDB 2000 records, each on a fresh copy of /tmp/s32/one-pristine, in turns
out=$1; shift; mkdir -p $out
for spec in "$@"; do
  name=${spec%%:*}; opts=""; [[ $spec == *:* ]] && opts=${spec#*:}
  rm -rf /tmp/s32/one; cp -a /tmp/s32/one-pristine /tmp/s32/one
  (cd /tmp/wt-x && JAVA_OPTS="-Dscratch.levels=true $opts" timeout 300 bin/ycsb run pancake -P workloads/workloadc -p recordcount=2000 -p operationcount=${OPS:-30000} -p pancake.state.dir=/tmp/s32/one/state -p rocksdb.dir=/tmp/s32/one/rocksdb -threads 1 ${EXTRA:-} > $out/$name.out 2>&1)
  echo "== $name: $(grep Throughput $out/$name.out | cut -d, -f3) ops/s, p99 $(grep 'READ], 99th' $out/$name.out | cut -d, -f3) us; $(grep 'requests per batch' $out/$name.out | cut -c1-120)"
done
