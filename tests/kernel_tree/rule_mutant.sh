#!/bin/bash
# A one-line mutant of the default kernel tree that one property must catch on the
# real code: in the copy's fair.c, the first FROM inside the definition of FUNCTION
# becomes TO (a sed expression's two sides). `run --kernel-tree COPY --check PROPERTY`
# must exit 1 with a violation of PROPERTY; the same campaign on the unmutated tree
# must exit 0, so that the violation is the mutation's.
# Usage: rule_mutant.sh <eevdf-check> <default tree> <scratch dir> <property> <function> <from> <to>
set -euo pipefail
check=$1 tree=$2 scratch=$3 property=$4 function=$5 from=$6 to=$7
rm -rf "$scratch"
mkdir -p "$scratch"
copy=$scratch/mutant
cp -r "$tree" "$copy"
fair=$copy/kernel/sched/fair.c
# The definition: its whole name (not a longer one ending in it, as __dequeue_entity)
# at the start of a line, alone (the type on the line above) or after `static <type> `
# or `static <type> *`, up to the first closing brace in column 0.
start=$(grep -n -E "^(static [a-z_ *]*[ *])?${function}\(" "$fair" | grep -v ';$' | head -1 | cut -d: -f1)
[ -n "$start" ] || { echo "no definition of $function in $fair"; exit 1; }
end=$(awk -v s="$start" 'NR > s && /^}/ { print NR; exit }' "$fair")
sed -i "${start},${end}s/${from}/${to}/" "$fair"
cmp -s "$tree/kernel/sched/fair.c" "$fair" && { echo "the mutation did not apply inside $function"; exit 1; }
export EEVDF_CHECK_CACHE=$scratch/cache

campaign() {
  "$check" run --kernel-tree "$1" --check "$property" --seed 1 --traces 100 --no-corpus --corpus-dir "$scratch/saved"
}
status=0
campaign "$tree" > "$scratch/tree.txt" 2>&1 || status=$?
[ "$status" = 0 ] || { cat "$scratch/tree.txt"; echo "the unmutated tree: exit $status, expected 0"; exit 1; }
status=0
campaign "$copy" > "$scratch/mutant.txt" 2>&1 || status=$?
[ "$status" = 1 ] || { cat "$scratch/mutant.txt"; echo "the mutant: exit $status, expected 1"; exit 1; }
grep -qE "^VIOLATION $property" "$scratch/mutant.txt" || {
  cat "$scratch/mutant.txt"; echo "no violation of $property on the mutant"; exit 1; }
echo "$function mutated: $(grep -E "^VIOLATION $property" "$scratch/mutant.txt" | head -1 | cut -c1-120)"
