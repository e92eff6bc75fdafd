#!/bin/bash
# `explore --kernel-tree` judges the real code: on the default tree its state space
# is the 6.12 reference's, state for state (the same distinct states and transitions,
# with and without reductions); on a one-line mutant of it it finds the violation at
# the same least depth with symmetry and POR
# off, and writes a trace that `replay --kernel-tree` runs to the same violation.
#
# A yield that forfeits the slice whether or not the task is eligible breaks
# yield_rule only after two forks, a yield and an event that makes it ineligible.
# A known finding of the tree (rbtree-rotate-stale-min-slice: a rotation leaves a
# stale min_slice) is found from its corpus trace's header, reported apart (exit 0),
# and its path written with `expect finding`, which `replay --kernel-tree` confirms.
# Usage: explore.sh <eevdf-check> <default tree> <scratch dir> <corpus dir>
set -euo pipefail
check=$1 tree=$2 scratch=$3 corpus=$4
rm -rf "$scratch"
mkdir -p "$scratch"
export EEVDF_CHECK_CACHE=$scratch/cache
fail() { echo "$*"; exit 1; }
counts() { grep -E '^distinct states' "$1" | cut -d';' -f1; }

# Each transition on the tree replays its path: bounds a sanitized build runs in seconds.
for bounds in "--cpus 2 --tasks 2 --depth 4 --nices 0,5 --slices 0,300us" \
              "--cpus 2 --tasks 3 --depth 3 --nices 0,5 --slices 0,300us --no-symmetry --no-por"; do
  # shellcheck disable=SC2086
  "$check" explore --kernel 6.12 $bounds --quiet > "$scratch/reference.txt" 2>&1 ||
    { cat "$scratch/reference.txt"; fail "the 6.12 reference is not clean ($bounds)"; }
  # shellcheck disable=SC2086
  "$check" explore --kernel-tree "$tree" $bounds --quiet > "$scratch/tree.txt" 2>&1 ||
    { cat "$scratch/tree.txt"; fail "the default tree is not clean ($bounds)"; }
  grep -q "^explore: kernel-src 6.12" "$scratch/tree.txt" || { cat "$scratch/tree.txt"; fail "not the tree's code"; }
  [ "$(counts "$scratch/reference.txt")" = "$(counts "$scratch/tree.txt")" ] ||
    fail "reference: $(counts "$scratch/reference.txt"); tree: $(counts "$scratch/tree.txt") ($bounds)"
  echo "the tree and the reference: $(counts "$scratch/tree.txt") ($bounds)"
done

# The mutant: in yield_task_fair, `entity_eligible(cfs_rq, se)` becomes 1.
copy=$scratch/mutant
cp -r "$tree" "$copy"
fair=$copy/kernel/sched/fair.c
start=$(grep -n -E "^static void yield_task_fair\(" "$fair" | head -1 | cut -d: -f1)
end=$(awk -v s="$start" 'NR > s && /^}/ { print NR; exit }' "$fair")
sed -i "${start},${end}s/entity_eligible(cfs_rq, se)/1/" "$fair"
cmp -s "$tree/kernel/sched/fair.c" "$fair" && fail "the mutation did not apply"
depth_of() { sed -n -E 's/^violation yield_rule at depth ([0-9]+).*/\1/p' "$1"; }
status=0
"$check" explore --kernel-tree "$copy" --cpus 1 --tasks 2 --depth 5 --check yield_rule --quiet \
  --out "$scratch/found.trace" > "$scratch/mutant.txt" 2>&1 || status=$?
[ "$status" = 1 ] || { cat "$scratch/mutant.txt"; fail "the mutant: exit $status, expected 1"; }
least=$(depth_of "$scratch/mutant.txt")
[ -n "$least" ] || { cat "$scratch/mutant.txt"; fail "no yield_rule violation on the mutant"; }
status=0
"$check" explore --kernel-tree "$copy" --cpus 1 --tasks 2 --depth 5 --check yield_rule --quiet \
  --no-symmetry --no-por > "$scratch/mutant_plain.txt" 2>&1 || status=$?
[ "$status" = 1 ] && [ "$(depth_of "$scratch/mutant_plain.txt")" = "$least" ] ||
  { cat "$scratch/mutant_plain.txt"; fail "without the reductions: exit $status, not yield_rule at depth $least"; }
"$check" replay --kernel-tree "$copy" "$scratch/found.trace" > "$scratch/replay.txt" 2>&1 ||
  { cat "$scratch/found.trace" "$scratch/replay.txt"; fail "the counterexample does not replay to its violation"; }
echo "the mutant: yield_rule at depth $least, with and without the reductions; its trace replays"

# The known finding, from the header of its corpus trace.
status=0
"$check" explore "$corpus/findings/rbtree-rotate-stale-min-slice.trace" --header-only --kernel-tree "$tree" \
  --verbs fork,tick --quantum 250us --max-gap 2 --depth 4 --check augmented_consistent --quiet \
  --out "$scratch/finding.trace" > "$scratch/finding.txt" 2>&1 || status=$?
[ "$status" = 0 ] || { cat "$scratch/finding.txt"; fail "a known finding alone: exit $status, expected 0"; }
grep -q "^known finding rbtree-rotate-stale-min-slice (augmented_consistent) at depth 4" "$scratch/finding.txt" &&
  grep -q "^result: no violation but known findings" "$scratch/finding.txt" ||
  { cat "$scratch/finding.txt"; fail "the finding is not reported apart at depth 4"; }
grep -q "^expect finding rbtree-rotate-stale-min-slice" "$scratch/finding.trace" ||
  { cat "$scratch/finding.trace"; fail "the finding's trace does not expect it"; }
"$check" replay --kernel-tree "$tree" "$scratch/finding.trace" > "$scratch/finding_replay.txt" 2>&1 ||
  { cat "$scratch/finding.trace" "$scratch/finding_replay.txt"; fail "the finding's trace does not replay to it"; }
echo "the known finding rbtree-rotate-stale-min-slice: at depth 4, reported apart; its trace replays"
