#!/usr/bin/env bash
# What explore writes is a trace that replay runs to the same verdict: the shortest
# counterexample of a historical bug expects its violation (replay exits 0), and a
# reach witness ends with the query's expect lines, which hold.
#   explore_counterexample.sh <eevdf-check> <corpus dir> <work dir>
set -u
bin=$1 corpus=$2 dir=$3
rm -rf "$dir" && mkdir -p "$dir"
"$bin" explore "$corpus/bugs/iowait_dec_new_rq.trace" --header-only --quantum 1ms --max-gap 1 --depth 4 --quiet \
  --out "$dir/cx.trace" > "$dir/cx.out"
[ $? -eq 1 ] || { echo "FAIL: explore should exit 1 on a violation"; cat "$dir/cx.out"; exit 1; }
grep -q "violation iowait_accounting at depth 3" "$dir/cx.out" || { echo "FAIL: no violation at depth 3"; cat "$dir/cx.out"; exit 1; }
grep -q "^expect violation iowait_accounting" "$dir/cx.trace" || { echo "FAIL: the trace does not expect it"; exit 1; }
"$bin" replay "$dir/cx.trace" || { echo "FAIL: the counterexample does not replay to its verdict"; exit 1; }
"$bin" explore --cpus 1 --tasks 2 --depth 4 --reach "task 1 delayed" --quiet --out "$dir/witness.trace" > "$dir/w.out" ||
  { echo "FAIL: reach"; cat "$dir/w.out"; exit 1; }
grep -q "reach: reachable in 3 events" "$dir/w.out" || { echo "FAIL: no 3-event witness"; cat "$dir/w.out"; exit 1; }
grep -q "^expect state 1 delayed" "$dir/witness.trace" || { echo "FAIL: the witness does not end with the query"; exit 1; }
"$bin" replay "$dir/witness.trace" || { echo "FAIL: the witness does not replay with its query holding"; exit 1; }
echo "ok"
