#!/usr/bin/env bash
# A/B in turns on one state: the serving thread yielding once after waking callers (scratch switch)
export S35=${S35:-/tmp/s36/ab}
# run in a scratch checkout with yield-after-answers.patch applied, after levers-and-cpu/setup.sh
R="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/../levers-and-cpu"
for r in 1 2 3 4; do
  for v in false true; do
    JAVA_OPTS="-Dpancake.scratch.yieldAfterAnswers=$v" OPS=900000 $R/run2.sh y-sync-$v-r$r pancake
  done
done
echo ALLDONE
