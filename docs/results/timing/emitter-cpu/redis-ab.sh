#!/bin/bash
# Redis, 8 threads, YCSB C, 10^4 records, 2*10^5 operations, bin/pancake bench --trace (its audit times the calls
# against the ground truth), in turns: the default against pancake.emitter.cpu=0 (the Redis server bench starts
# is not moved; with "E+R" it is pinned to CPU 1 while the run lasts). The runs of logs/ were made when the
# default was no CPU; since 4fa45df the default is auto, so "base" passes pancake.emitter.cpu=none.
# usage: docs/results/timing/emitter-cpu/redis-ab.sh <out> <rounds> <variant: base|E|E+R>...
here=$(cd "$(dirname "$0")" && pwd); root=$(cd "$here/../../../.." && pwd)
out=$1; rounds=$2; shift 2; mkdir -p $out
cd $root
for r in $(seq 1 $rounds); do for v in "$@"; do
  d=$out/$v-r$r; rm -rf $d $out/work; mkdir -p $d
  args=(-p pancake.emitter.cpu=none); [ $v != base ] && args=(-p pancake.emitter.cpu=0)
  pp=""; [ $v = E+R ] && { ( while true; do for p in $(pgrep redis-server); do taskset -a -p -c 1 $p >/dev/null 2>&1; done; sleep 0.5; done ) & pp=$!; }
  timeout 900 bin/pancake bench --store redis --records 10000 --ops 200000 --threads 8 --schemes pancake --workloads c --trace \
      "${args[@]}" -o $d/out --work $out/work > $d/log 2>&1
  [ -n "$pp" ] && kill $pp
  echo "$v r$r $(grep -o 'pancake: [0-9]* ops/s' $d/log | head -1) | R1 $(grep -A1 'rank of the silence after a call ' $d/log | grep -o 'ground truth) [-0-9.]* (z = [-0-9.]*' | head -1) | $(grep -E '^timing +(LEAKS|no timing)' $d/log | cut -c14-60)"
done; done
