#!/usr/bin/env bash
export S35=${S35:-/tmp/s36}
R="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
for r in 1 2 3 4 5 6; do
  for v in false true; do
    JAVA_OPTS="-Dscratch.stall=$v" OPS=900000 $R/run2.sh ab-$v-r$r pancake -inflight 3
  done
done
echo ALLDONE
