#!/bin/bash
# A one-line mutant of the default kernel tree, written here at run time: the copy's
# wakeup check returns as if a reschedule were always pending, so no wakeup ever
# preempts. Every check that returns there without a pending reschedule is a
# wakeup_preempt_rule violation on the real code ("returned without its pick"); the
# unmutated tree has none on the same campaign.
# Usage: wakeup_return.sh <eevdf-check> <default tree> <scratch dir>
set -euo pipefail
check=$1 tree=$2 scratch=$3
rm -rf "$scratch"
mkdir -p "$scratch"
copy=$scratch/mutant
cp -r "$tree" "$copy"
fair=$copy/kernel/sched/fair.c
# The wakeup check's only test of a pending reschedule of curr.
[ "$(grep -c 'if (test_tsk_need_resched(curr))' "$fair")" = 1 ] || { echo "expected one need_resched test in $fair"; exit 1; }
sed -i 's/if (test_tsk_need_resched(curr))/if (1)/' "$fair"
export EEVDF_CHECK_CACHE=$scratch/cache
campaign() {
  "$check" run --kernel-tree "$1" --check wakeup_preempt_rule --seed 1 --traces 20 --shrink-time 300 \
    --no-corpus --corpus-dir "$scratch/saved" > "$2" 2>&1
}
status=0
campaign "$tree" "$scratch/tree.txt" || status=$?
[ "$status" = 0 ] || { cat "$scratch/tree.txt"; echo "the unmutated tree: exit $status, expected 0"; exit 1; }
status=0
campaign "$copy" "$scratch/mutant.txt" || status=$?
[ "$status" = 1 ] || { cat "$scratch/mutant.txt"; echo "the mutant: exit $status, expected 1"; exit 1; }
grep -q 'the wakeup check returned without its pick' "$scratch/mutant.txt" ||
  { cat "$scratch/mutant.txt"; echo "no wakeup check seen returning before its pick"; exit 1; }
echo "wakeup_return: the mutant's early return is a wakeup_preempt_rule violation"
