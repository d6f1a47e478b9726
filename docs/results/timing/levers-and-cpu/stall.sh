#!/usr/bin/env bash
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"; mkdir -p "${S35:-/tmp/s35}"
for r in 1 2 3; do
  for v in false true; do
    JAVA_OPTS="-Dscratch.stall=$v" OPS=900000 "$HERE/run2.sh" s-if3-$v-r$r pancake -inflight 3
    JAVA_OPTS="-Dscratch.stall=$v" OPS=900000 "$HERE/run2.sh" s-sync-$v-r$r pancake
  done
done
