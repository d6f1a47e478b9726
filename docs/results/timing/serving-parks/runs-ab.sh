#!/bin/bash
# Builds side by side, in turns: the default path (YCSB C, RocksDB, 2 000 records) with <threads> threads,
# each run attacked by bin/audit (of the project this script is in) with the label owners as ground truth.
# usage: docs/results/timing/serving-parks/runs-ab.sh <out> <threads> <ops> <rounds> '<name>|<project dir>|<JVM options>'...
# e.g. runs-ab.sh /tmp/v1 1 60000 3 "base|/tmp/wt-var|" "P|/tmp/wt-var|-Dscratch.servingparks=true"
# (/tmp/wt-var: a worktree with scratch.patch applied; the options go in through JAVA_TOOL_OPTIONS)
here=$(cd "$(dirname "$0")" && pwd); root=$(cd "$here/../../../.." && pwd)
out=$1; th=$2; ops=$3; rounds=$4; shift 4
mkdir -p $out
[ -f $out/dist-c.tsv ] || (cd $root && bin/distribution -P workloads/workloadc -p recordcount=2000 -o $out/dist-c.tsv >/dev/null 2>&1)
for r in $(seq 1 $rounds); do
  for b in "$@"; do
    IFS='|' read -r name dir opts <<< "$b"
    mkdir -p $out/$name; cp -n $out/dist-c.tsv $out/$name/
    (cd $root && JAVA_TOOL_OPTIONS="$opts" PANCAKE_DIR=$dir docs/results/timing/wake-contention/runs.sh $out/$name c $th $ops $r $r) 2>&1 | grep -v "Picked up" | sed "s/^/$name /" | cut -c1-60
  done
done
for b in "$@"; do IFS='|' read -r name dir opts <<< "$b"; $here/auditx.sh $out/$name; done
