#!/bin/bash
# [OUT=<dir>] pair.sh <tag> <checkout>... : fresh load + 2e6-op Redis A run at 10^5 records from each checkout in turn
tag=$1; shift; here=$(cd "$(dirname "$0")" && pwd)
for co in "$@"; do
  n=$(basename $co)
  (cd $co && $here/fresh.sh ${OUT:-/tmp/s28}/$tag-$n a 100000 2000000) > ${OUT:-/tmp/s28}/$tag-$n.txt 2>&1
  echo "$tag $n: $(cat ${OUT:-/tmp/s28}/$tag-$n.txt) $(grep 'swaps done at open' ${OUT:-/tmp/s28}/$tag-$n/run.err)"
done
