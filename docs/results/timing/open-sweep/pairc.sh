#!/bin/bash
# pairc.sh <after checkout> <before checkout>: the default path on Redis C, 10^5 records, 2*10^6 operations, from each in turn
here=$(cd "$(dirname "$0")" && pwd)
for co in "$@"; do
  n=$(basename $co)
  (cd $co && $here/fresh.sh /tmp/s28/c-$n c 100000 2000000) > /tmp/s28/c-$n.txt 2>&1
  echo "c $n: $(cat /tmp/s28/c-$n.txt) $(grep 'swaps done at open\|estimate' /tmp/s28/c-$n/run.err | cut -c1-100)"
done
