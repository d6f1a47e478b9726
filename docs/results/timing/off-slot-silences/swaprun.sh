#!/bin/bash
# A swap during the run (../swap-save), stopped after 16 s, with sampler.py on CPU 0 alongside;
# each run's silences (../plan-slots/silences.py) on one line. PERF=1: also perf's scheduler
# events with call chains (perf.data, the JVM with -XX:+PreserveFramePointer); otherwise the
# JVM logs its safepoints and collections (sp.log), or takes JVM=<options>.
# usage (from the project root): UNIFORM=<uniform distribution file> swaprun.sh <out> <first> <last>
# (PANCAKE_DIR=<worktree> runs another build)
here=$(cd "$(dirname "$0")" && pwd)
out=$(realpath -m "$1"); a=$2; b=$3; shift 3
cd "${PANCAKE_DIR:-.}"
for i in $(seq "$a" "$b"); do
  d=$out/r$i; rm -rf "$d"; mkdir -p "$d"
  args="-p pancake.distribution.file=${UNIFORM:?a uniform distribution file, see ../swap-save} -p pancake.window.size=20000"
  bin/ycsb load pancake -P workloads/workloadc -p recordcount=2000 -p rocksdb.dir="$d/db" -p pancake.state.dir="$d/state" $args > "$d/load.out" 2> "$d/load.err"
  jvm="${JVM:--Xlog:safepoint=info,gc=info:file=$d/sp.log:time,uptimenanos}"
  if [ "${PERF:-0}" = 1 ]; then
    perf record -q -a -e sched:sched_switch -e sched:sched_wakeup -g -o "$d/perf.data" > "$d/perf.log" 2>&1 &
    pp=$!
    jvm="-XX:+PreserveFramePointer"
  fi
  taskset -c 0 python3 "$here/sampler.py" "$d/sched.txt" &
  sp=$!
  JAVA_OPTS="$jvm" bin/ycsb run pancake -P workloads/workloadc -p recordcount=2000 -p operationcount=100000 -threads 1 -p rocksdb.dir="$d/db" \
      -p pancake.state.dir="$d/state" -p pancake.trace.file="$d/run.trace" $args -p maxexecutiontime=16 "$@" > "$d/run.out" 2> "$d/run.err"
  if [ "${PERF:-0}" = 1 ]; then kill -INT $pp; wait $pp; fi
  wait $sp
  rm -rf "$d/db"
  echo "r$i $(grep Throughput "$d/run.out" | cut -d, -f3 | cut -c1-8) ops/s | $(python3 "$here/../plan-slots/silences.py" "$d" | sed -n 2p)"
done
