#!/usr/bin/env bash
# One thread, the default path (RocksDB, YCSB C, 2 000 records, 10^5 operations), on the scratch build
# (../scratch.patch applied, mvn install): answers given mid-serving (base, the engine's order) against after the
# write-back is sealed (-Dscratch.afterSeal=true), in turns, each run with its tick log; then bin/audit's
# ground-truth timing scores (serving-parks/auditx.sh).
# usage: docs/results/timing/serving-wait/scripts/seal-ab.sh <out> <first> <last>   (from the project root)
set -e
O=$(realpath -m "$1"); A=$2; B=$3
mkdir -p $O/base $O/seal
for v in base seal; do
  [ -f $O/$v/dist-c.tsv ] || bin/distribution -P workloads/workloadc -p recordcount=2000 -o $O/$v/dist-c.tsv > /dev/null
done
for i in $(seq $A $B); do
  for v in base seal; do
    J="-Dscratch.ticklog=$O/$v/ticks-$i.txt"; [ $v = seal ] && J="$J -Dscratch.afterSeal=true"
    docs/results/timing/wake-contention/runs.sh $O/$v c 1 100000 $i $i -jvm-args "$J" >> $O/$v/runs.log 2>&1
  done
done
for v in base seal; do docs/results/timing/serving-parks/auditx.sh $O/$v > $O/$v/auditx.log 2>&1; done
