#!/usr/bin/env bash
# The eevdf-check binary on an x86-64 CPU without AVX2, emulated by qemu-user
# (-cpu Nehalem), and on one with it (-cpu max): the fast model's SIMD build is
# chosen at run time, so every command that uses the fast model runs on both.
#   no_avx2_cpu.sh <qemu-x86_64> <eevdf-check> <source dir> <scratch dir>
set -euo pipefail
qemu=$1 bin=$2 src=$3 scratch=$4
trace=$src/corpus/scenarios/trace_format_example.trace
bench=$src/bench/traces/tick-256.trace.xz
rm -rf "$scratch" && mkdir -p "$scratch"

fail() { echo "FAIL: $1"; echo "--- output ---"; cat "$scratch/out"; exit 1; }
on() {  # on <cpu> <expected exit> <regex> <args...>
  local cpu=$1 want=$2 regex=$3 code=0
  shift 3
  "$qemu" -cpu "$cpu" "$bin" "$@" > "$scratch/out" 2>&1 || code=$?
  [ "$code" -eq "$want" ] || fail "-cpu $cpu eevdf-check $*: exit $code, expected $want"
  grep -Eq "$regex" "$scratch/out" || fail "-cpu $cpu eevdf-check $*: no line matches /$regex/"
  echo "ok: -cpu $cpu eevdf-check $*"
}

# Without AVX2: the scalar build does the work and each command says so.
on Nehalem 0 "fast-simd: not measured, this CPU cannot run the SIMD build" \
  bench "$bench" --repetitions 1 --model fast-scalar --model fast-simd
on Nehalem 0 "the SIMD build .* is not compared" replay --diff "$trace"
on Nehalem 0 "the SIMD build .* is not checked" diff-campaign --traces 10
on Nehalem 0 "result: clean" run --seed 1 --traces 20 --diff-every 1 --no-corpus --corpus-dir "$scratch/saved"
# With AVX2 (the emulator's full CPU): the SIMD build is measured and compared.
on max 0 "^tick-256 +200000 +- +- +[0-9]+" bench "$bench" --repetitions 1 --model fast-simd
on max 0 "the SIMD build matches the reference" replay --diff "$trace"
