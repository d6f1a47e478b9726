#!/bin/bash
# ri.sh <out> <name>|<JAVA_OPTS> ... : insecure YCSB A, 8 threads, on /tmp/s33/ia-pristine
out=$1; shift; mkdir -p $out
for spec in "$@"; do
  IFS="|" read -r name opts extra <<<"$spec"
  rm -rf /tmp/s33/ia; cp -a /tmp/s33/i${W:-a}-pristine /tmp/s33/ia
  (cd ${DIR:-/work/main} && JAVA_OPTS="$opts" timeout 600 bin/ycsb run insecure -P workloads/workload${W:-a} -p recordcount=50000 -p operationcount=${OPS:-300000} -p rocksdb.dir=/tmp/s33/ia/rocksdb -threads 8 -s $extra > $out/$name.out 2>&1)
  echo "== $name: $(grep Throughput $out/$name.out | cut -d, -f3 | cut -d. -f1) ops/s; $(grep RunTime $out/$name.out | cut -d, -f3) ms"
done
