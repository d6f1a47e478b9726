#!/bin/bash
# pin.sh [proxy-threads-regex]: until killed, in every JVM with a pancake-emitter thread, pins the proxy's
# threads (default: emitter and serving thread) to CPU 0 and every other thread to CPU 1, and every
# redis-server to CPU 1; each thread once
re=${1:-'^pancake-(emitter|serving)$'}
declare -A seen
while true; do
  for r in $(pgrep redis-server); do [ -n "${seen[r$r]}" ] || { taskset -a -p -c 1 $r >/dev/null 2>&1; seen[r$r]=1; }; done
  for p in $(pgrep java); do
    grep -qx pancake-emitter /proc/$p/task/*/comm 2>/dev/null || continue
    for t in /proc/$p/task/*; do
      tid=${t##*/}; [ -n "${seen[$tid]}" ] && continue; seen[$tid]=1
      c=$(<$t/comm)
      if [[ "$c" =~ $re ]]; then taskset -p -c 0 $tid >/dev/null 2>&1; else taskset -p -c 1 $tid >/dev/null 2>&1; fi
    done
  done
  sleep 0.1
done
