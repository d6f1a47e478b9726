#!/bin/bash
# ab.sh <out> <pairs> <ops>... : the one-thread bench (RocksDB C, 2 000 records) on the engine before
# (/tmp/wt-before, a worktree of 5d92ec5) and this checkout, in turns, <pairs> times for each <ops>.
# Sessions 32's passes: ab1 = "ab.sh <out> 3 30000", ab3 = "... 2 20000", ab4 = "... 2 20000 30000",
# ab5 = "... 3 20000" (their outputs in logs/ab*.txt).
out=$1; pairs=$2; shift 2
here=$(cd "$(dirname "$0")/../../../.." && pwd)
mkdir -p "$out"
for i in $(seq 1 "$pairs"); do
  for ops in "$@"; do
    for n in before:/tmp/wt-before after:$here; do
      name=${n%%:*}-$ops-$i; dir=${n#*:}
      (cd "$dir" && timeout 600 bin/pancake bench --store rocksdb --records 2000 --ops "$ops" --threads 1 \
          --schemes insecure,pancake --workloads c --out "$out/$name" --work "$out/work-$name" > "$out/$name.log" 2>&1)
      echo "$name: $(grep '^| pancake' "$out/$name"/*.md | head -1 | cut -d'|' -f4-8)  insecure $(grep '^| insecure' "$out/$name"/*.md | head -1 | cut -d'|' -f4-5)"
      rm -rf "$out/work-$name"
    done
  done
done
