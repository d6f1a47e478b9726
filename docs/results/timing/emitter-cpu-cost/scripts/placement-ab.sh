#!/usr/bin/env bash
# scratch A/B: variants of where the serving thread runs; RocksDB 5e4, 8 threads
cd "$(dirname "$0")/../../../../.."
O=${O:?set O to a scratch directory}; mkdir -p $O
for r in $(seq 1 ${R:-2}); do
for v in ${V:-base norm normw none}; do
  P="-p pancake.emitter.cpu=auto"
  case $v in
    base) J="";;
    norm) J="-Dpancake.scratch.serving=normal";;
    normw) J="-Dpancake.scratch.serving=normal -Dpancake.scratch.waker=true";;
    idlew) J="-Dpancake.scratch.serving=idle -Dpancake.scratch.waker=true -Dpancake.scratch.spin=true";;
    none) P="-p pancake.emitter.cpu=none"; J="";;
  esac
  python3 "$(dirname "$0")/threads.py" > $O/thr-$v-$r.txt 2>&1 &
  tp=$!
  timeout 600 bin/pancake bench --store ${S:-rocksdb} --records ${N:-50000} --ops 300000 --threads 8 --schemes pancake --workloads ${W:-c} $P ${J:+--jvm-args="$J"} --out $O/$v-$r --work $O/work > $O/$v-$r.log 2>&1
  kill $tp; rm -rf $O/work
done; done
echo done > $O/done
