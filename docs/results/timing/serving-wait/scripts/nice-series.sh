#!/usr/bin/env bash
# The default-path series (ten runs of 10^5 operations, one thread, ground-truth audit) while renice_threads.py puts
# the named threads of every YCSB JVM at nice 19 (a scratch placement from outside; the engine is unchanged).
# usage: docs/results/timing/serving-wait/scripts/nice-series.sh <out> <comma-separated thread name prefixes>
#   e.g. "C1 ,C2 ,G1 ,GC ,pancake-checkpo,pancake-estimat,pancake-log,VM Thread,Sweeper thread" (logs/nice-all)
here=$(cd "$(dirname "$0")" && pwd); cd "$here/../../../../.."
O=$(realpath -m "$1"); mkdir -p $O
[ -f $O/dist-c.tsv ] || bin/distribution -P workloads/workloadc -p recordcount=2000 -o $O/dist-c.tsv > /dev/null
python3 "$here/renice_threads.py" "$2" & rl=$!
docs/results/timing/wake-contention/runs.sh $O c 1 100000 1 10 > $O/runs.log 2>&1
kill $rl
docs/results/timing/serving-parks/auditx.sh $O > $O/auditx.log 2>&1
