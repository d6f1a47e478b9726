#!/usr/bin/env bash
# pancake A at 8 x 3 in flight, fresh load each run, the default JVM against a pre-touched heap, in turns
cd "$(dirname "${BASH_SOURCE[0]}")/../../../../.."
for r in 1 2 3 4; do
  for v in default pretouch; do
    ja=""; [ $v = pretouch ] && ja="-Xms2g -XX:+AlwaysPreTouch -XX:+UseTransparentHugePages"
    timeout 900 bin/pancake bench --store redis --records 100000 --ops 1200000 --threads 8 --inflight 3 \
      --schemes pancake --workloads a --jvm-args "$ja" --out ${PT:-/tmp/pt}/$v-r$r --work ${PT:-/tmp/pt}/work-$v-r$r > ${PT:-/tmp/pt}/$v-r$r.log 2>&1
  done
done
echo ALLDONE > ${PT:-/tmp/pt}/done
