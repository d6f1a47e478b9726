#!/bin/bash
# alternate before/after 8-thread RocksDB C floor bench (5e4 records, 3e5 ops)
W=${W:-c}
for i in 1 2; do
  for n in before:/tmp/wt-before after:/work/main; do
    name=${n%%:*}; dir=${n#*:}
    (cd $dir && timeout 1200 bin/pancake bench --store rocksdb --records 50000 --ops 300000 --threads 8 --schemes insecure,pancake --workloads $W --out /tmp/s32/ab2/$name-$i --work /tmp/s32/ab2work/$name-$i > /tmp/s32/ab2/$name-$i.log 2>&1)
    echo "$name-$i: $(grep '^| pancake' /tmp/s32/ab2/$name-$i/*.md | head -1 | cut -d'|' -f3-6)  insecure $(grep '^| insecure' /tmp/s32/ab2/$name-$i/*.md | head -1 | cut -d'|' -f4-5)"
    rm -rf /tmp/s32/ab2work/$name-$i
  done
done
