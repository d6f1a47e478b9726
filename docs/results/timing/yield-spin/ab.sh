#!/bin/bash
# alternate A (/work/main) and B (<worktree with the spin>) runs on one Redis state
P="-p pancake.store=redis -p redis.host=127.0.0.1 -p redis.port=45609 -p recordcount=50000 -p pancake.state.dir=/tmp/st/state -p operationcount=400000 -threads 8 -s"
for i in 1 2 3 4; do
  for v in A B; do
    repo=/work/main; [ $v = B ] && repo=<worktree with the spin>
    cd $repo
    /usr/bin/time -f "%U %S" -o /tmp/ab2-$v$i.time bin/ycsb run pancake -P workloads/workloadc $P > /tmp/ab2-$v$i.out 2>/tmp/ab2-$v$i.err
    echo "$v$i $(grep Throughput /tmp/ab2-$v$i.out | cut -d, -f3) $(grep 'READ], AverageLatency' /tmp/ab2-$v$i.out | cut -d, -f3) $(grep 'requests in' /tmp/ab2-$v$i.err | grep -o '([0-9.]* requests per batch)') cpu $(cat /tmp/ab2-$v$i.time) warm $(grep 'current ops' /tmp/ab2-$v$i.err | awk '{print int($7)}' | tail -n +3 | tr '\n' ' ')"
  done
done
