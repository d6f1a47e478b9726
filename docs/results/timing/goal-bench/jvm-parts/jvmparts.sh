#!/usr/bin/env bash
# pancake A, 8 synchronous threads, fresh load each run: which part of the pre-touched heap's options gives its gain
cd "$(dirname "${BASH_SOURCE[0]}")/../../../../.."
for r in 1 2; do
  for v in default thp xms-pretouch all; do
    case $v in
      default) ja="";;
      thp) ja="-XX:+UseTransparentHugePages";;
      xms-pretouch) ja="-Xms2g -XX:+AlwaysPreTouch";;
      all) ja="-Xms2g -XX:+AlwaysPreTouch -XX:+UseTransparentHugePages";;
    esac
    timeout 900 bin/pancake bench --store redis --records 100000 --ops 1200000 --threads 8 \
      --schemes pancake --workloads a --jvm-args "$ja" --out ${PT:-/tmp/jp}/$v-r$r --work ${PT:-/tmp/jp}/work-$v-r$r > ${PT:-/tmp/jp}/$v-r$r.log 2>&1
  done
done
echo ALLDONE > ${PT:-/tmp/jp}/done
