#!/bin/bash
# alternate before/after one-thread RocksDB C bench at 20 000 (default) and 30 000 operations
for i in 1 2; do
  for ops in 20000 30000; do
  for n in before:/tmp/wt-before after:/work/main; do
    name=${n%%:*}-$ops; dir=${n#*:}
    (cd $dir && timeout 600 bin/pancake bench --store rocksdb --records 2000 --ops $ops --threads 1 --schemes insecure,pancake --workloads c --out /tmp/s32/ab4/$name-$i --work /tmp/s32/ab4work/$name-$i > /tmp/s32/ab4/$name-$i.log 2>&1)
    echo "$name-$i: $(grep '^| pancake' /tmp/s32/ab4/$name-$i/*.md | head -1 | cut -d'|' -f4-8)  insecure $(grep '^| insecure' /tmp/s32/ab4/$name-$i/*.md | head -1 | cut -d'|' -f4-5)"
    rm -rf /tmp/s32/ab4work/$name-$i
  done
  done
done
