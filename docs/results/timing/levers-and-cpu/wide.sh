#!/usr/bin/env bash
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"; mkdir -p "${S35:-/tmp/s35}"
for r in 1 2; do
  for w in 1.05 1.5 2.0; do
    t=$(python3 -c "print(max(1.1, $w))")
    JAVA_OPTS="-Dscratch.wide=$w -Dscratch.tight=$t" OPS=900000 "$HERE/run2.sh" w$w-r$r pancake
  done
done
