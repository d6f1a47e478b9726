#!/bin/bash
# redis-ab.sh <out> <rounds> <variant>...: Redis, 8 threads, YCSB C, 10^4 records, 2*10^5 ops, bin/pancake bench --trace
# in /tmp/wt-s (a worktree with scratch.patch: the per-tick log on); variant base, pin (emitter and serving thread on
# CPU 0, the rest and redis-server on CPU 1), pinall (every pancake- thread on CPU 0), pinemit (the emitter alone on CPU 0)
here=$(cd "$(dirname "$0")" && pwd)
out=$1; rounds=$2; shift 2; mkdir -p $out
cd /tmp/wt-s
for r in $(seq 1 $rounds); do for v in "$@"; do
  d=$out/$v-r$r; rm -rf $d /tmp/rd/work; mkdir -p $d
  pp=""; [ $v = pin ] && { $here/pin.sh & pp=$!; }
  [ $v = pinall ] && { $here/pin.sh '^pancake-' & pp=$!; }
  [ $v = pinemit ] && { $here/pin.sh '^pancake-emitter$' & pp=$!; }
  JAVA_TOOL_OPTIONS="-Dscratch.log=$d/ticks.txt" timeout 900 bin/pancake bench --store redis --records 10000 --ops 200000 --threads 8 --schemes pancake --workloads c --trace -o $d/out --work /tmp/rd/work > $d/log 2>&1
  [ -n "$pp" ] && kill $pp
  echo "$v r$r $(grep -o 'pancake: [0-9]* ops/s' $d/log | head -1) | R1 $(grep -A1 'rank of the silence after a call ' $d/log | grep -o 'ground truth) [-0-9.]* (z = [-0-9.]*' | head -1) | $(grep -o '[0-9.]* requests per batch' $d/log | head -1)"
done; done
