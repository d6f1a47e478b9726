#!/bin/bash
# alternate before/after one-thread RocksDB C bench
for i in 1 2 3; do
  for n in before:/tmp/wt-before after:/work/main; do
    name=${n%%:*}; dir=${n#*:}
    (cd $dir && timeout 600 bin/pancake bench --store rocksdb --records 2000 --ops 30000 --threads 1 --schemes insecure,pancake --workloads c --out /tmp/s32/ab1/$name-$i --work /tmp/s32/ab1work/$name-$i > /tmp/s32/ab1/$name-$i.log 2>&1)
    echo "$name-$i: $(grep '^| pancake' /tmp/s32/ab1/$name-$i/*.md | head -1 | cut -d'|' -f4-8)  insecure $(grep '^| insecure' /tmp/s32/ab1/$name-$i/*.md | head -1 | cut -d'|' -f4-5)"
    rm -rf /tmp/s32/ab1work/$name-$i
  done
done
