#!/usr/bin/env bash
# run1.sh <name> <scheme> <extra...>: an A run with a thread CPU sample from 20 to 40 s
set -uo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"; cd "$HERE/../../../.."
d=${S35:-/tmp/s35}; read -r PORT PID < $d/redis
n=$1; scheme=$2; shift 2
db=2; [ "$scheme" = insecure ] && db=1
timeout 600 bin/ycsb run "$scheme" -P workloads/workloada -p recordcount=100000 -p pancake.store=redis \
  -p redis.port="$PORT" -p redis.db="$db" -p pancake.state.dir="$d/stateA" -p operationcount="${OPS:-1200000}" \
  -threads 8 -s -p status.interval=5 "$@" > "$d/$n.out" 2> "$d/$n.err" &
sleep 20
jp=$(pgrep java | grep -v "^$(cut -d" " -f2 $d/redis)$" | tr "\n" " ")
rp=$(pgrep -x redis-server | head -1)
vmstat 5 4 > $d/$n.vmstat &
python3 "$HERE/threads.py" 20 $jp $rp > $d/$n.threads
wait
grep -h "Throughput" $d/$n.out
