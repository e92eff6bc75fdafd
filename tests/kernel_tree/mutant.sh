#!/bin/bash
# A one-line mutant of the default kernel tree, written here at run time: the copy's
# vruntime_eligible() has its comparison flipped (an entity is eligible exactly when
# it is not). `run --kernel-tree COPY` must report a property judged on the real code
# (not only kernel_matches_reference, the difference from our model), shrunk to at
# most 12 events; `diff --kernel-tree COPY --against TREE` must report the difference,
# shrunk; and `shrink --kernel-tree COPY` must shrink a trace generated on the copy
# to a trace that still fails there, judged by the copy's properties. A corpus whose
# trace is clean on the default tree must fail on the copy (`corpus check --kernel-tree`
# replays on the tree given, not on our model).
# Usage: mutant.sh <eevdf-check> <default tree> <scratch dir> <a corpus clean on the tree>
set -euo pipefail
check=$1 tree=$2 scratch=$3 corpus=$4
rm -rf "$scratch"
mkdir -p "$scratch"
copy=$scratch/mutant
cp -r "$tree" "$copy"
fair=$copy/kernel/sched/fair.c
# The one comparison of vruntime_eligible(): `return avg >= <key> * load;`.
line=$(grep -n 'return avg >= ' "$fair" | head -1 | cut -d: -f1)
[ -n "$line" ] || { echo "no 'return avg >= ' in $fair"; exit 1; }
sed -i "${line}s/return avg >= /return avg < /" "$fair"
grep -q 'return avg < ' "$fair" || { echo "the mutation did not apply"; exit 1; }
export EEVDF_CHECK_CACHE=$scratch/cache

status=0
"$check" run --kernel-tree "$copy" --seed 1 --traces 20 --no-corpus --corpus-dir "$scratch/saved" \
  > "$scratch/run.txt" 2>&1 || status=$?
[ "$status" = 1 ] || { cat "$scratch/run.txt"; echo "run: exit $status, expected 1"; exit 1; }
# A property other than kernel_matches_reference, shrunk to at most 12 events.
grep -E '^VIOLATION ' "$scratch/run.txt" | grep -v 'VIOLATION kernel_matches_reference' > "$scratch/violations.txt" || {
  cat "$scratch/run.txt"; echo "no property violation on the mutant, only differences from the model"; exit 1; }
shrunk=$(grep -A3 -E '^VIOLATION ' "$scratch/run.txt" | grep -v kernel_matches_reference |
  sed -nE 's/^  shrunk [0-9]+ -> ([0-9]+) events.*/\1/p' | sort -n | head -1)
[ -n "$shrunk" ] && [ "$shrunk" -le 12 ] || { cat "$scratch/run.txt"; echo "shrunk to '$shrunk' events, expected <= 12"; exit 1; }
echo "run: $(head -1 "$scratch/violations.txt" | cut -c1-100)... shrunk to $shrunk events"

status=0
"$check" diff --kernel-tree "$copy" --against "$tree" --traces 20 --no-corpus > "$scratch/diff.txt" 2>&1 || status=$?
[ "$status" = 1 ] || { cat "$scratch/diff.txt"; echo "diff: exit $status, expected 1"; exit 1; }
grep -qE '^shrunk [0-9]+ -> [0-9]+ events' "$scratch/diff.txt" || { cat "$scratch/diff.txt"; echo "diff: nothing shrunk"; exit 1; }
grep -qE '^result: DIFFERENT' "$scratch/diff.txt" || { cat "$scratch/diff.txt"; echo "diff: no difference"; exit 1; }
echo "diff: $(grep -E '^shrunk' "$scratch/diff.txt")"

"$check" gen --kernel-tree "$copy" --seed 3 --events 300 --tasks 5 --sockets 1 --cores 2 -o "$scratch/gen.trace" \
  2> "$scratch/gen.txt" || { cat "$scratch/gen.txt"; echo "gen on the mutant failed"; exit 1; }
status=0
"$check" shrink --kernel-tree "$copy" --budget 300s "$scratch/gen.trace" -o "$scratch/shrunk.trace" \
  > "$scratch/shrink.txt" 2>&1 || status=$?
[ "$status" = 0 ] || { cat "$scratch/shrink.txt"; echo "shrink: exit $status, expected 0"; exit 1; }
events=$(grep -cE '^@' "$scratch/shrunk.trace")
[ "$events" -le 12 ] || { cat "$scratch/shrunk.trace"; echo "shrink: $events events, expected <= 12"; exit 1; }
grep -q '^expect violation ' "$scratch/shrunk.trace" || { cat "$scratch/shrunk.trace"; echo "shrink: no expectation"; exit 1; }
"$check" replay --kernel-tree "$copy" "$scratch/shrunk.trace" > "$scratch/replay.txt" 2>&1 || {
  cat "$scratch/shrunk.trace" "$scratch/replay.txt"; echo "the shrunk trace does not replay as it expects on the mutant"; exit 1; }
echo "shrink: 300 -> $events events, $(grep '^expect violation' "$scratch/shrunk.trace" | head -1)"

status=0
"$check" corpus check --corpus "$corpus" --kernel-tree "$copy" > "$scratch/corpus.txt" 2>&1 || status=$?
[ "$status" = 1 ] || { cat "$scratch/corpus.txt"; echo "corpus check on the mutant: exit $status, expected 1"; exit 1; }
grep -qE '^FAIL ' "$scratch/corpus.txt" || { cat "$scratch/corpus.txt"; echo "corpus check: no trace failed"; exit 1; }
echo "corpus check: $(grep -E '^FAIL ' "$scratch/corpus.txt" | head -1)"
