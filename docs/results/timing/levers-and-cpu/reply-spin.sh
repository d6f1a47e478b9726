#!/usr/bin/env bash
export S35=${S35:-/tmp/s36}
R="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
for r in 1 2 3; do
  for v in 0 300; do
    JAVA_OPTS="-Dscratch.replySpinUs=$v" OPS=900000 $R/run2.sh sp-sync-$v-r$r pancake
    JAVA_OPTS="-Dscratch.replySpinUs=$v" OPS=900000 $R/run2.sh sp-if3-$v-r$r pancake -inflight 3
  done
done
echo ALLDONE
