#!/bin/bash
# threads.sh <pid> <secs> : per-thread CPU (ms) over the interval, by thread name
pid=$1; secs=$2
snap() {
  for t in /proc/$pid/task/*; do
    n=$(tr ' ' '_' < $t/comm 2>/dev/null)
    s=($(cut -d')' -f2 $t/stat 2>/dev/null))
    echo "${t##*/} $((${s[11]}+${s[12]})) $n"
  done
}
snap > /tmp/s32/snap1; sleep $secs; snap > /tmp/s32/snap2
join <(sort /tmp/s32/snap1) <(sort /tmp/s32/snap2) | awk '{d=($4-$2)*10; name=$3; gsub(/[0-9]+$/,"",name); sum[name]+=d; tot+=d} END {for (n in sum) if (sum[n]>0) printf "%6d ms %s\n", sum[n], n; printf "%6d ms TOTAL\n", tot}' | sort -rn
