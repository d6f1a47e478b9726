#!/usr/bin/env bash
# The runs behind docs/results/estimate.md: 10^4 records, YCSB C zipfian, 8 threads, embedded
# RocksDB, every PANCAKE setting at its default; each run phase traced and audited.
# usage: docs/results/estimate/run.sh [scratch dir]
set -euo pipefail
P="$(cd "$(dirname "$0")/../../.." && pwd)"
OUT="${1:-/tmp/pancake-estimate}"   # scratch directory: nothing is written under docs/
mkdir -p "$OUT"; cd "$OUT"
R=10000; OPS=200000; T=8
$P/bin/distribution -P $P/workloads/workloadc -p recordcount=$R -o $OUT/workloadc.dist
for scheme in pancake encrypted; do
  rm -rf $OUT/$scheme; mkdir -p $OUT/$scheme; cd $OUT/$scheme
  $P/bin/ycsb load $scheme -P $P/workloads/workloadc -p recordcount=$R -threads $T -p pancake.trace.file=$OUT/$scheme/load.trace > load.out 2> load.err
  $P/bin/ycsb run $scheme -P $P/workloads/workloadc -p recordcount=$R -p operationcount=$OPS -threads $T -p pancake.trace.file=$OUT/$scheme/run.trace > run.out 2> run.err
  grep -h "^\[pancake\] estimate\|Throughput" load.err run.err run.out || true   # not the echoed java command line
  $P/bin/audit --transcript $OUT/$scheme/run.trace --distribution $OUT/workloadc.dist --scheme $scheme --state-dir $OUT/$scheme/data/$scheme/state --chunk 100000 > audit.txt
  cat audit.txt
  cd $OUT
done
# capacity twice the record count
rm -rf $OUT/spare; mkdir -p $OUT/spare; cd $OUT/spare
$P/bin/ycsb load pancake -P $P/workloads/workloadc -p recordcount=$R -p pancake.capacity=$((2*R)) -threads $T > load.out 2> load.err
$P/bin/ycsb run pancake -P $P/workloads/workloadc -p recordcount=$R -p pancake.capacity=$((2*R)) -p operationcount=$OPS -threads $T -p pancake.trace.file=$OUT/spare/run.trace > run.out 2> run.err
grep -h "^\[pancake\] estimate" load.err run.err || true
$P/bin/audit --transcript $OUT/spare/run.trace --distribution $OUT/workloadc.dist --scheme pancake --state-dir $OUT/spare/data/pancake/state --chunk 100000 > audit.txt
cat audit.txt
