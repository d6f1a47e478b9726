#!/usr/bin/env bash
# Issue #17, "Measure": the quick, static half of the before/after -- for the checkout this script
# lives in (or the one named as $1):
#   * the 5 largest main classes (src/main/java of every module) by line count (wc -l);
#   * the number of duplicate pairs the library's `duplicates` command reports for the whole tree
#     (`duplicates --repo DIR` with no --change reads every tracked file below DIR, not a change;
#     its first line counts the pairs and files read; --min-lines is its default, 6).
# Nothing here runs a benchmark or a build: `bin/bench` (both stores, A and C) and `mvn verify`
# time, the other half of the issue's measure, are long runs to do deliberately, before and after,
# on the same machine. Run it on a "before" worktree and on the "after" one and put the two side by
# side. It publishes nothing: the figures go to stdout.
#
#   docs/results/redesign/measure.sh [checkout]
set -euo pipefail
root="${1:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)}"
cd "$root"

echo "checkout: $root ($(git rev-parse --short HEAD 2>/dev/null || echo 'not a git checkout'))"
echo
echo "largest main classes (lines, wc -l):"
find . -path ./node_modules -prune -o -path '*/target' -prune -o \
     -path '*/src/main/java/*' -name '*.java' ! -name package-info.java ! -name module-info.java -type f -print0 \
  | xargs -0 wc -l | grep -v ' total$' | sort -rn \
  | awk 'NR <= 5 { sub("^\\./", "", $2); printf "  %6d  %s\n", $1, $2 }'
echo
echo "duplicate pairs, whole tree (duplicates --repo $root):"
if command -v duplicates >/dev/null 2>&1; then
  out="$(duplicates --repo "$root" --most 1 --seconds 120)"
  pairs="$(printf '%s\n' "$out" | head -n 1)"
  printf '  %s\n' "$pairs"
  # a run cut short by time or size says so in an "incomplete:" line: the count is then a lower bound
  printf '%s\n' "$out" | grep -E '^(incomplete|left out):' | sed 's/^/  /' || true
else
  echo "  duplicates is not on the PATH here: no count"
fi
