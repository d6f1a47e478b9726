#!/bin/bash
# prio.sh <mode> [all]: while the YCSB run JVM (the one with a pancake-emitter thread) lives, puts its YCSB
# client threads (Thread-*; with "all", every thread but the emitter) at lower priority (nice: nice 10;
# batch: SCHED_BATCH), each thread once; no process is started for a thread already seen
mode=$1; scope=$2; pid=""
for i in $(seq 1 1200); do
  for p in $(pgrep java); do grep -qx pancake-emitter /proc/$p/task/*/comm 2>/dev/null && pid=$p; done
  [ -n "$pid" ] && break; sleep 0.05
done
[ -z "$pid" ] && exit 0
declare -A seen
while [ -d /proc/$pid ]; do
  for t in /proc/$pid/task/*; do
    tid=${t##*/}; [ -n "${seen[$tid]}" ] && continue; seen[$tid]=1
    c=$(<$t/comm)
    if [ "$c" = "pancake-emitter" ]; then continue
    elif [[ "$scope" != all && "$c" != Thread-* ]]; then continue
    elif [ $mode = nice ]; then renice -n 10 -p $tid >/dev/null 2>&1
    else chrt -b -p 0 $tid >/dev/null 2>&1; fi
  done
  sleep 0.5
done
