#!/bin/bash
# One line for one run of abp.sh or abi3.sh: summary.sh <label> <output prefix> (its .out, .err and .time)
o=$2
echo "$1 $(grep Throughput $o.out | cut -d, -f3) read-avg $(grep 'READ], AverageLatency' $o.out | cut -d, -f3) upd-avg $(grep 'UPDATE], AverageLatency' $o.out | cut -d, -f3)" \
  "$(grep 'requests in' $o.err | grep -o '([0-9.]* requests per batch)') cpu $(cat $o.time)" \
  "warm $(grep 'current ops' $o.err | awk '{print int($7)}' | tail -n +3 | tr '\n' ' ')"
