#!/bin/bash
# The default path (one thread, YCSB C, RocksDB, 2 000 records, 6*10^4 operations) in turns: the default against
# pancake.emitter.cpu=1, each run attacked by bin/audit with the ground truth (serving-parks/auditx.sh).
# The runs of logs/ were made when the default was no CPU; since 4fa45df it is auto, so "base" passes none.
# usage: docs/results/timing/emitter-cpu/one-ab.sh <out> <rounds>
here=$(cd "$(dirname "$0")" && pwd); root=$(cd "$here/../../../.." && pwd)
out=$(realpath -m $1); rounds=$2
cd $root; mkdir -p $out/base $out/E
[ -f $out/dist-c.tsv ] || bin/distribution -P workloads/workloadc -p recordcount=2000 -o $out/dist-c.tsv >/dev/null 2>&1
cp -n $out/dist-c.tsv $out/base/; cp -n $out/dist-c.tsv $out/E/
for r in $(seq 1 $rounds); do
  docs/results/timing/wake-contention/runs.sh $out/base c 1 60000 $r $r -p pancake.emitter.cpu=none | cut -c1-40 | sed 's/^/base /'
  docs/results/timing/wake-contention/runs.sh $out/E c 1 60000 $r $r -p pancake.emitter.cpu=1 | cut -c1-40 | sed 's/^/E /'
done
$root/docs/results/timing/serving-parks/auditx.sh $out/base; $root/docs/results/timing/serving-parks/auditx.sh $out/E
