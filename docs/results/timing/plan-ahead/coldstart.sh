#!/bin/bash
# ColdStartTest's no-prior run (10^3 keys, no declared distribution, zipf(0.99), 4 threads), the
# build at <base worktree> then this one, in turns, rounds <first>..<last>: the chunk p-values and
# where the last chunk below 10^-6 ends, one line per run.
# usage (from the project root): docs/results/timing/plan-ahead/coldstart.sh <base worktree> <first> <last>
# (compile the tests in both trees first: mvn -q -B -o -pl pancake-core test-compile)
here=$(pwd); base=$(realpath "$1")
for i in $(seq "$2" "$3"); do
  for b in base new; do
    d=$here; [ "$b" = base ] && d=$base
    (cd "$d" && mvn -B -o -pl pancake-core surefire:test -Dtest='ColdStartTest#noPrior*' 2>&1 \
        | grep -E "cold start|Tests run:" | head -2 | sed "s/^/$b r$i: /")
  done
done
