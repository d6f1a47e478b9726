#!/bin/bash
# In turns, the default path (YCSB C, RocksDB, 2 000 records) with <threads> threads, per variant, each run
# attacked by bin/audit with the label owners as ground truth (serving-parks/auditx.sh).
# usage: docs/results/timing/timer-slack/runs-ab.sh <out> <threads> <ops> <rounds> '<name>|<project dir>|<JVM options>|<timer slack ns>'...
# An empty slack leaves the inherited one (50 000 ns, Linux's default); a number is written to
# /proc/self/timerslack_ns of the shell that starts the runs, which every process and thread it starts inherits.
here=$(cd "$(dirname "$0")" && pwd); root=$(cd "$here/../../../.." && pwd)
out=$1; th=$2; ops=$3; rounds=$4; shift 4
mkdir -p $out
[ -f $out/dist-c.tsv ] || (cd $root && bin/distribution -P workloads/workloadc -p recordcount=2000 -o $out/dist-c.tsv >/dev/null 2>&1)
for r in $(seq 1 $rounds); do
  for b in "$@"; do
    IFS='|' read -r name dir opts slack <<< "$b"
    mkdir -p $out/$name; cp -n $out/dist-c.tsv $out/$name/
    (cd $root && { [ -z "$slack" ] || echo "$slack" > /proc/self/timerslack_ns; } && \
      JAVA_TOOL_OPTIONS="$opts" PANCAKE_DIR=$dir docs/results/timing/wake-contention/runs.sh $out/$name c $th $ops $r $r) 2>&1 \
      | grep -v "Picked up" | sed "s/^/$name /" | cut -c1-60
  done
done
for b in "$@"; do IFS='|' read -r name dir opts slack <<< "$b"; $here/../serving-parks/auditx.sh $out/$name; done
