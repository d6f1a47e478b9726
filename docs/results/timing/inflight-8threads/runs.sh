#!/usr/bin/env bash
# 8 YCSB threads against one private Redis (10^5 records): insecure, pancake with synchronous
# threads, and pancake with each thread keeping D = 2 and 3 requests in flight (-inflight D, the
# asynchronous API), in turns, ROUNDS times, on workloads C and A. Status lines every 5 s (warm.py
# reads them). Usage: runs.sh <scratch dir> [rounds (default 3)] [operations per run (default 1200000)]
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../../.." && pwd)"
cd "$ROOT"
d="$(mkdir -p "$1" && cd "$1" && pwd)"; rounds="${2:-3}"; ops="${3:-1200000}"
read -r PORT PID < <(bin/redis-local start)
trap 'bin/redis-local stop $PID' EXIT
y() { bin/ycsb "$@" -p recordcount=100000 -p pancake.store=redis -p redis.port="$PORT"; }
# the states: pancake C in db 0, pancake A in db 2 (each loaded, then one run that settles the
# estimate), insecure in db 1
y load pancake -P workloads/workloadc -p pancake.state.dir="$d/stateC" -threads 4 -inflight 16 > "$d/loadC.out" 2> "$d/loadC.err"
y run pancake -P workloads/workloadc -p pancake.state.dir="$d/stateC" -p operationcount=200000 -threads 8 -inflight 4 > "$d/settleC.out" 2> "$d/settleC.err"
y load pancake -P workloads/workloada -p redis.db=2 -p pancake.state.dir="$d/stateA" -threads 4 -inflight 16 > "$d/loadA.out" 2> "$d/loadA.err"
y run pancake -P workloads/workloada -p redis.db=2 -p pancake.state.dir="$d/stateA" -p operationcount=200000 -threads 8 -inflight 4 > "$d/settleA.out" 2> "$d/settleA.err"
y load insecure -P workloads/workloadc -p redis.db=1 -threads 8 > "$d/loadI.out" 2> "$d/loadI.err"
run() { # name scheme workload db state [extra YCSB args]
  local n=$1 scheme=$2 w=$3 db=$4 st=$5; shift 5
  timeout 600 bin/ycsb run "$scheme" -P "workloads/workload$w" -p recordcount=100000 -p pancake.store=redis \
    -p redis.port="$PORT" -p redis.db="$db" -p pancake.state.dir="$d/$st" -p operationcount="$ops" \
    -threads 8 -s -p status.interval=5 "$@" > "$d/$n.out" 2> "$d/$n.err" || echo "$n failed" >&2
}
for r in $(seq 1 "$rounds"); do
  for w in c a; do
    if [ "$w" = c ]; then db=0; st=stateC; else db=2; st=stateA; fi
    run "$w-ins-r$r" insecure "$w" 1 stateI
    run "$w-sync-r$r" pancake "$w" "$db" "$st"
    run "$w-if2-r$r" pancake "$w" "$db" "$st" -inflight 2
    run "$w-if3-r$r" pancake "$w" "$db" "$st" -inflight 3
  done
done
python3 "$ROOT/docs/results/timing/inflight-8threads/warm.py" "$d"/[ca]-*.err
