#!/usr/bin/env bash
# insecure and pancake, A and C, 8 synchronous threads, with and without -XX:+UseTransparentHugePages, in turns
cd "$(dirname "${BASH_SOURCE[0]}")/../../../.."
O=${O:?set O to a scratch directory}
for r in 1 2 3; do
  for v in default thp; do
    case $v in default) ja="";; thp) ja="-XX:+UseTransparentHugePages";; esac
    timeout 900 bin/pancake bench --store redis --records 100000 --ops 1200000 --threads 8 \
      --schemes insecure,pancake --workloads a,c --jvm-args "$ja" --out $O/redis-$v-r$r --work $O/work-redis-$v-r$r > $O/redis-$v-r$r.log 2>&1
    timeout 600 bin/pancake bench --store rocksdb --records 50000 --ops 300000 --threads 8 \
      --schemes insecure,pancake --workloads a,c --jvm-args "$ja" --out $O/rocks-$v-r$r --work $O/work-rocks-$v-r$r > $O/rocks-$v-r$r.log 2>&1
    rm -rf $O/work-rocks-$v-r$r/*/db* 2>/dev/null
  done
done
echo ALLDONE > $O/done
