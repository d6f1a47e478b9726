#!/usr/bin/env bash
# Alternating YCSB loads of two checkouts, side by side, each with a trace, then the attacks.
# Usage: BEFORE=<checkout> AFTER=<checkout> OUT=<scratch dir> docs/results/load/loadab.sh RECORDS THREADS ROUNDS
# (runs/ holds what 2026-11-25's runs printed: BEFORE = 845ae5c, AFTER = e2de6c3; RECORDS 20000, THREADS 1 x 3 rounds and 8 x 2)
set -euo pipefail
records=$1 threads=$2 rounds=$3
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
mkdir -p "$OUT"
"$AFTER/bin/distribution" -P "$AFTER/workloads/workloada" -p recordcount=$records -p requestdistribution=uniform -o "$OUT/uniform.dist" >/dev/null
cp="$(cat "$AFTER/pancake-tools/target/tools.classpath"):$AFTER/pancake-core/target/classes"
javac -cp "$cp" -d "$OUT" "$here/LoadLinkage.java"
for r in $(seq 1 "$rounds"); do
  for t in before after; do
    root=$AFTER; [ $t = before ] && root=$BEFORE
    d=$OUT/t$threads-$t.$r; rm -rf "$d"; mkdir -p "$d"
    (cd "$root" && bin/ycsb load pancake -P workloads/workloada -p recordcount=$records -threads $threads \
        -p rocksdb.dir=$d/db -p pancake.state.dir=$d/state -p pancake.trace.file=$d/load.trace > $d/out.txt 2>&1)
    { echo "# $(grep 'OVERALL], Throughput' $d/out.txt)"
      java -cp "$cp:$OUT" LoadLinkage $d/state $d/load.trace $records
      "$AFTER/bin/audit" --scheme pancake --transcript $d/load.trace --state-dir $d/state --distribution "$OUT/uniform.dist" | sed -n '1,5p'
    } > "$OUT/t$threads-$t.$r.txt"
    cat "$OUT/t$threads-$t.$r.txt"
  done
done
