#!/bin/bash
# The default path (YCSB C, RocksDB, 2 000 records) in turns per variant, with the scratch per-tick log
# (scratch.patch applied in the worktree <dir>): ticks.txt per run, summarized by lag.py.
# usage: runs.sh <out> <threads> <ops> <rounds> 'name|<worktree>|<JVM options>|<timer slack ns>|<nice|batch|pin|pinemit>'...
# (slack: written to /proc/self/timerslack_ns of the shell that starts the run; nice/batch: prio.sh; pin/pinemit: pin.sh)
here=$(cd "$(dirname "$0")" && pwd); root=$(cd "$here/../../../../.." && pwd)
out=$(realpath -m $1); th=$2; ops=$3; rounds=$4; shift 4; mkdir -p $out
[ -f $out/classes/Owners.class ] || (mkdir -p $out/classes && javac -cp "$(cat $root/pancake-tools/target/tools.classpath):$root/pancake-core/target/classes" -d $out/classes $root/docs/results/timing/default-path-repeats/Owners.java)
for r in $(seq 1 $rounds); do for b in "$@"; do
  IFS='|' read -r name dir opts slack prio <<< "$b"; d=$out/$name/r$r; rm -rf $d; mkdir -p $d
  ( cd $dir; [ -z "$slack" ] || echo "$slack" > /proc/self/timerslack_ns
    bin/ycsb load pancake -P workloads/workloadc -p recordcount=2000 -p rocksdb.dir=$d/db -p pancake.state.dir=$d/state > $d/load.out 2>&1
    pp=""; [ -n "$prio" ] && { if [ "$prio" = pin ]; then $here/pin.sh & pp=$!; elif [ "$prio" = pinemit ]; then $here/pin.sh '^pancake-emitter$' & pp=$!; else $here/prio.sh $prio & fi; }
    JAVA_TOOL_OPTIONS="$opts -Dscratch.log=$d/ticks.txt" bin/ycsb run pancake -P workloads/workloadc -p recordcount=2000 -p operationcount=$ops -threads $th -p rocksdb.dir=$d/db -p pancake.state.dir=$d/state -p pancake.trace.file=$d/run.trace > $d/run.out 2> $d/run.err
    [ -n "$pp" ] && kill $pp
    rm -rf $d/db; java -cp $(cat $root/pancake-tools/target/tools.classpath):$root/pancake-core/target/classes:$out/classes Owners $d/state > $d/owners-end.txt )
  echo "$name r$r $(grep Throughput $d/run.out | cut -d, -f3) | $(python3 $here/lag.py $d/ticks.txt | cut -d'|' -f2-)"
done; done
