#!/bin/bash
# A swap during the run (one thread, RocksDB, 2 000 records, 10^5 operations of workload C, a
# uniform distribution declared while the workload is zipfian, a 2*10^4-access window), rounds
# <first>..<last>, each running the build at <base worktree> then this one; each run's silences
# (../plan-slots/silences.py) and the binding's closing line on stdout.
# usage (from the project root): docs/results/timing/swap-save/swaps.sh <out> <base worktree> <first> <last>
out=$(realpath -m "$1"); base=$(realpath "$2"); a=$3; b=$4
here=$(pwd)
mkdir -p "$out"
[ -f "$out/uniform.tsv" ] || bin/distribution -P workloads/workloadc -p recordcount=2000 -p requestdistribution=uniform -o "$out/uniform.tsv" > /dev/null
for i in $(seq "$a" "$b"); do
  for build in base new; do
    dir=$here; [ "$build" = base ] && dir=$base
    PANCAKE_DIR=$dir "$here/docs/results/timing/plan-slots/runs.sh" "$out/$build" c 1 100000 "$i" "$i" \
        -p pancake.distribution.file="$out/uniform.tsv" -p pancake.window.size=20000 > "$out/$build-r$i.txt" 2>&1
    echo "== $build r$i: $(head -c 12 "$out/$build-r$i.txt") ops/s"
    python3 "$here/docs/results/timing/plan-slots/silences.py" "$out/$build/r$i"
    grep -h "replica swaps" "$out/$build/r$i/run.err"
  done
done
