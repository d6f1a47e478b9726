#!/usr/bin/env bash
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"; cd "$HERE/../../../.."
d=${S35:-/tmp/s35}; mkdir -p "$d"
read -r PORT PID < <(bin/redis-local start)
echo "$PORT $PID" > $d/redis
y() { bin/ycsb "$@" -p recordcount=100000 -p pancake.store=redis -p redis.port="$PORT"; }
y load pancake -P workloads/workloada -p redis.db=2 -p pancake.state.dir="$d/stateA" -threads 4 -inflight 16 > "$d/loadA.out" 2> "$d/loadA.err"
y run pancake -P workloads/workloada -p redis.db=2 -p pancake.state.dir="$d/stateA" -p operationcount=200000 -threads 8 -inflight 4 > "$d/settleA.out" 2> "$d/settleA.err"
y load insecure -P workloads/workloada -p redis.db=1 -threads 8 > "$d/loadI.out" 2> "$d/loadI.err"
echo setup done
