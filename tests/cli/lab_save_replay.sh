#!/usr/bin/env bash
# A lab run is a trace: `lab --save DIR` writes each run's trace, and `replay` replays
# it cleanly to the same number of events the lab reported.
#   lab_save_replay.sh <eevdf-check> <workload> <dir>
set -eu
bin=$1 workload=$2 dir=$3
rm -rf "$dir"
"$bin" lab "$workload" --duration 50ms --save "$dir" --json > "$dir.json"
events=$(grep -m1 '"events"' "$dir.json" | tr -dc 0-9)
trace=$(ls "$dir"/*.trace)
out=$("$bin" replay "$trace")
echo "$out"
echo "$out" | grep -q ": ok (.* $events events," || { echo "FAIL: replay did not report $events events"; exit 1; }
# The workload's description heads the trace as its comment.
head -1 "$trace" | grep -q '^# [^#]' || { echo "FAIL: the trace does not start with the workload's description"; exit 1; }
