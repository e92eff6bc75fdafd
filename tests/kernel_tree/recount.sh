#!/bin/bash
# The recounts of the real code's own state, each failing on a one-line mutant of the
# default tree written here at run time (a statement deleted), and holding on the
# tree itself:
# - counters_consistent recounts cfs_rq->h_nr_delayed: the copy's set_delayed() does
#   not count the entity it delays;
# - augmented_consistent recounts each tree member's min_vruntime over its subtree:
#   the copy's min_vruntime_update() leaves out its right child's.
# Neither deletion changes what the other properties see on these campaigns.
# Usage: recount.sh <eevdf-check> <default tree> <scratch dir>
set -euo pipefail
check=$1 tree=$2 scratch=$3
rm -rf "$scratch"
mkdir -p "$scratch"
export EEVDF_CHECK_CACHE=$scratch/cache

# mutant NAME TEXT: a copy of the tree without the first line of fair.c holding TEXT.
mutant() {
  local copy=$scratch/$1 fair line
  cp -r "$tree" "$copy"
  fair=$copy/kernel/sched/fair.c
  line=$(grep -nF -- "$2" "$fair" | head -1 | cut -d: -f1)
  [ -n "$line" ] || { echo "no '$2' in $fair"; exit 1; }
  sed -i "${line}d" "$fair"
}
# judge TREE PROPERTY EXIT: `run --check PROPERTY` on TREE exits EXIT; its output in $out.
judge() {
  out=$scratch/$(basename "$1")-$2.txt
  local status=0
  "$check" run --kernel-tree "$1" --check "$2" --seed 1 --traces 200 --jobs 2 --no-corpus \
    --corpus-dir "$out.saved" > "$out" 2>&1 || status=$?
  [ "$status" = "$3" ] || { cat "$out"; echo "$2 on $1: exit $status, expected $3"; exit 1; }
}

mutant no-delayed-count 'cfs_rq->h_nr_delayed++;'
mutant no-right-min-vruntime '__min_vruntime_update(se, node->rb_right);'

judge "$tree" counters_consistent 0
judge "$scratch/no-delayed-count" counters_consistent 1
grep -q '^VIOLATION counters_consistent' "$out" && grep -q 'h_nr_delayed=0; recount delayed=1' "$out" ||
  { cat "$out"; echo "counters_consistent: no h_nr_delayed recount failed"; exit 1; }
echo "counters_consistent: $(grep -m1 'h_nr_delayed=' "$out")"

judge "$tree" augmented_consistent 0
judge "$scratch/no-right-min-vruntime" augmented_consistent 1
grep -q '^VIOLATION augmented_consistent' "$out" ||
  { cat "$out"; echo "augmented_consistent: no violation"; exit 1; }
echo "augmented_consistent: $(grep -m1 'kept min_vruntime=' "$out")"
