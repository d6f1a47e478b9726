#!/usr/bin/env bash
# Redis server placement: floating vs pinned to CPU 1 (the emitter's CPU under auto), in turns.
set -u
cd "$(dirname "$0")/../../../.."
O=${O:-/tmp/redis-placement}  # scratch
mkdir -p $O
read port pid < <(bin/redis-local start)
echo "port $port pid $pid" > $O/redis.txt
sleep 1
rpid=$(pgrep -f "redis-server.*:$port" | head -1)
echo "redis-server $rpid" >> $O/redis.txt
for r in 1 2; do
 for v in float pin1; do
  if [ $v = pin1 ]; then taskset -a -pc 1 $rpid; else taskset -a -pc 0,1 $rpid; fi >> $O/redis.txt
  timeout 1200 bin/pancake bench --store redis --redis-port $port --records 50000 --ops 300000 --threads 8 --schemes insecure,pancake --workloads a,c --out $O/$v-$r --work $O/work > $O/$v-$r.log 2>&1
  rm -rf $O/work
 done
done
bin/redis-local stop $pid
echo ALLDONE > $O/done
