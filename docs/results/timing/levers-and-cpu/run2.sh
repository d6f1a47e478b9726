#!/usr/bin/env bash
# run2.sh <name> <scheme> <extra...>: an A run with a per-thread CPU timeline and a GC log
set -uo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"; cd "$HERE/../../../.."
d=${S35:-/tmp/s35}; read -r PORT PID < $d/redis
n=$1; scheme=$2; shift 2
db=2; [ "$scheme" = insecure ] && db=1
JAVA_OPTS="${JAVA_OPTS:-} -Xlog:gc:file=$d/$n.gc" timeout 600 bin/ycsb run "$scheme" -P workloads/workloada -p recordcount=100000 -p pancake.store=redis \
  -p redis.port="$PORT" -p redis.db="$db" -p pancake.state.dir="$d/stateA" -p operationcount="${OPS:-1200000}" \
  -threads 8 -s -p status.interval=2 "$@" > "$d/$n.out" 2> "$d/$n.err" &
sleep 1.5
jp=$(pgrep java | grep -v "^$(cut -d" " -f2 $d/redis)$" | tr "\n" " ")
rp=$(pgrep -x redis-server | head -1)
python3 "$HERE/tl.py" 2 $jp $rp > $d/$n.tl
wait
grep -h "Throughput" $d/$n.out
