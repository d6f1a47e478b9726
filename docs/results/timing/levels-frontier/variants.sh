#!/usr/bin/env bash
# variants.sh <worktree with scratch.patch, built> <out> <rounds> <variant>...: 8 threads, 5*10^4
# records, 3*10^5 operations, pancake only, workloads A and C, on RocksDB then Redis, the variants
# in turns; each run's levels (LEVELS lines on stderr) kept in <out>/<store>-<variant>-<round>/err.
# Variants: base, mf (minfill 0.87), tight (TIGHT 1.0), both (mf + tight), stall (no ROOMY term in
# a window with more than a tenth of its points missed), stight (stall + tight), swide (stall +
# WIDE 1.0), swt (stall + WIDE 1.0 + TIGHT 1.0).
# Session 45's rounds: v1 = 3 rounds of "base mf tight both", v2 = 3 of "base stall stight",
# v3 = 2 of "stall swide swt", v4 = 3 of "base tight"; then 10^6 operations
# (OPS=1000000 variants.sh <wt> <out> 2 base) and RocksDB at 10^5 records
# (STORES=rocksdb RECORDS=100000 variants.sh <wt> <out> 2 base tight). RECORDS, OPS and STORES
# default to 50000, 300000 and "rocksdb redis".
set -eu
[ $# -ge 4 ] || { echo "usage: variants.sh <worktree> <out> <rounds> <variant>..." >&2; exit 2; }
wt=$1; O=$(realpath -m "$2"); rounds=$3; shift 3
records=${RECORDS:-50000}; ops=${OPS:-300000}; stores=${STORES:-rocksdb redis}
for v in "$@"; do
  case $v in base|mf|tight|both|stall|stight|swide|swt) ;; *) echo "unknown variant $v" >&2; exit 2;; esac
done
cd "$wt" || exit 1
mkdir -p "$O"
for r in $(seq 1 "$rounds"); do
 for st in $stores; do
  for v in "$@"; do
   case $v in
     base) J="";; mf) J="-Dscratch.minfill=0.87";; tight) J="-Dscratch.tight=1.0";;
     both) J="-Dscratch.minfill=0.87 -Dscratch.tight=1.0";; stall) J="-Dscratch.stall=true";;
     stight) J="-Dscratch.stall=true -Dscratch.tight=1.0";; swide) J="-Dscratch.stall=true -Dscratch.wide=1.0";;
     swt) J="-Dscratch.stall=true -Dscratch.wide=1.0 -Dscratch.tight=1.0";; *) echo "unknown variant $v"; exit 2;;
   esac
   timeout 900 bin/pancake bench --store $st --records "$records" --ops "$ops" --threads 8 --schemes pancake --workloads a,c \
     "--jvm-args=-Dscratch.trace=true $J" --out "$O/$st-$v-$r" --work "$O/work" > "$O/$st-$v-$r.log" 2>&1 || true
   mkdir -p "$O/$st-$v-$r/err"; for w in "$O"/work/*/; do cp "$w/run.err" "$O/$st-$v-$r/err/$(basename "$w").err" 2>/dev/null || true; done
   rm -rf "${O:?}/work"
  done
 done
done
