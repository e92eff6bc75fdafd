#!/bin/bash
# `eevdf-check mutate` on a fixed subset of the default tree: the relational operators
# of vruntime_eligible() and avg_vruntime(). Two verdicts are known from the code:
# - vruntime_eligible/ROR/1/< makes an entity eligible exactly when it is not: the
#   pick properties see it (killed);
# - avg_vruntime/ROR/1/<= also rounds a zero sum down: runtime 0 becomes
#   -(weight - 1), whose truncating division by weight is 0 again, so no state ever
#   differs (equivalent).
# Usage: mutate.sh <eevdf-check> <default tree> <scratch dir>
set -euo pipefail
check=$1 tree=$2 scratch=$3
rm -rf "$scratch"
mkdir -p "$scratch"
export EEVDF_CHECK_CACHE=$scratch/cache
status=0
"$check" mutate --kernel-tree "$tree" --functions vruntime_eligible,avg_vruntime --operators ROR \
  --traces 60 --jobs 2 --shrink-time 2 > "$scratch/report.txt" 2> "$scratch/stderr.txt" || status=$?
[ "$status" = 0 ] || { cat "$scratch/report.txt" "$scratch/stderr.txt"; echo "mutate: exit $status"; exit 1; }
expect() {
  grep -Eq "^  $1 +$2" "$scratch/report.txt" || { cat "$scratch/report.txt"; echo "expected $1: $2"; exit 1; }
}
expect 'vruntime_eligible/ROR/1/<' 'killed '
expect 'avg_vruntime/ROR/1/<=' 'equivalent [(]suspected[)]'
# Every mutant of the two sites (5 replacements each) is reported.
grep -Eq "^  all +10 " "$scratch/report.txt" || { cat "$scratch/report.txt"; echo "expected 10 mutants"; exit 1; }
# The same seed gives the same verdicts at another --jobs.
"$check" mutate --kernel-tree "$tree" --functions vruntime_eligible,avg_vruntime --operators ROR \
  --traces 60 --jobs 1 --shrink-time 2 > "$scratch/report1.txt" 2>/dev/null
diff <(grep -v '^time to kill' "$scratch/report.txt") <(grep -v '^time to kill' "$scratch/report1.txt") \
  || { echo "the report depends on --jobs"; exit 1; }
echo "mutate: killed and equivalent as expected"
