#!/bin/bash
# Does the gap between store calls tell reads from writes? One thread, RocksDB, 2 000 records,
# 3*10^4 operations of only reads (R) or only updates (W), from each checkout in turns; the
# transcript's gaps compared (mix-gaps.py). usage: mix-gaps.sh <out dir> <rounds> <name>=<checkout> ...
set -e
out=$1; n=$2; shift 2
mkdir -p "$out"
for i in $(seq 1 "$n"); do
  for spec in "$@"; do
    name=${spec%%=*}; co=${spec#*=}
    for mix in R W; do
      if [ $mix = R ]; then p="-p readproportion=1 -p updateproportion=0"; else p="-p readproportion=0 -p updateproportion=1"; fi
      d=$out/$name$mix$i; rm -rf "$d"; mkdir -p "$d"
      # shellcheck disable=SC2086
      (cd "$co" && bin/ycsb load pancake -P workloads/workloada -p recordcount=2000 -p rocksdb.dir="$d/db" \
          -p pancake.state.dir="$d/state" > "$d/load.out" 2> "$d/load.err" \
        && bin/ycsb run pancake -P workloads/workloada $p -p recordcount=2000 -p operationcount=30000 -threads 1 \
          -p rocksdb.dir="$d/db" -p pancake.state.dir="$d/state" -p pancake.trace.file="$d/run.trace" \
          > "$d/run.out" 2> "$d/run.err")
      rm -rf "$d/db" "$d/state"
      echo "$name$mix$i: $(grep Throughput "$d/run.out" | cut -d, -f3) ops/s"
    done
  done
done
