#!/usr/bin/env bash
# 8 threads, 5*10^4 records: lag 32 with the levels' WIDE/TIGHT as landed (1.05/1.1) and scaled by 0.9 (0.95/1.0), in turns
cd /tmp/lag/wt
O=/tmp/lag/floors3; mkdir -p $O
for st in rocksdb redis; do
  for v in base tuned; do
   if [ $v = tuned ]; then J="-Dscratch.lag=32 -Dscratch.wide=0.95 -Dscratch.tight=1.0"; else J="-Dscratch.lag=32"; fi
   timeout 900 bin/pancake bench --store $st --records 50000 --ops 300000 --threads 8 --schemes insecure,pancake --workloads a,c "--jvm-args=$J" --out $O/$st-$v --work $O/work > $O/$st-$v.log 2>&1
   rm -rf $O/work
  done
done
echo ALLDONE > $O/done
