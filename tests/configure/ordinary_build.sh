#!/usr/bin/env bash
# A user's ordinary build: `cmake -DCMAKE_BUILD_TYPE=Release` without the presets.
# Warnings are errors only where asked (EEVDF_WERROR, on in the presets), and the
# fast model's AVX2 code comes from a target pragma, not from -mavx2 on the command
# line; the same tree configures and builds the fast model for arm64 (a cross
# configuration with this machine's compiler: only the flags and the code paths
# without AVX2 are exercised).
#   ordinary_build.sh <source dir> <scratch dir>
set -euo pipefail
src=$1 scratch=$2
rm -rf "$scratch" && mkdir -p "$scratch"
fail() { echo "FAIL: $1"; exit 1; }

release=$scratch/release
cmake -S "$src" -B "$release" -G Ninja -DCMAKE_BUILD_TYPE=Release > "$scratch/configure.log" ||
  { cat "$scratch/configure.log"; fail "the Release configure failed"; }
! grep -q -- "-Werror" "$release/compile_commands.json" || fail "-Werror is on without EEVDF_WERROR"
! grep -q -- "-mavx2" "$release/compile_commands.json" || fail "-mavx2 on a command line: the binary would need AVX2"
grep -q -- "EEVDF_FAST_AVX2=1" "$release/compile_commands.json" || fail "the x86-64 build has no AVX2 fast model"
# The translation units where GCC 12's -O3 reports -Wrestrict in std::string, and the
# fast model in both builds.
cmake --build "$release" --target eevdf_trace eevdf_fast > "$scratch/build.log" 2>&1 ||
  { cat "$scratch/build.log"; fail "the Release build of eevdf_trace and eevdf_fast failed"; }
! grep -q "warning:" "$scratch/build.log" || { cat "$scratch/build.log"; fail "the Release build warns"; }

arm=$scratch/arm64
cmake -S "$src" -B "$arm" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_SYSTEM_NAME=Linux \
  -DCMAKE_SYSTEM_PROCESSOR=aarch64 -DEEVDF_WERROR=ON > "$scratch/configure-arm64.log" ||
  { cat "$scratch/configure-arm64.log"; fail "the arm64 configure failed"; }
grep -q -- "EEVDF_FAST_AVX2=0" "$arm/compile_commands.json" || fail "the arm64 build asks for AVX2"
cmake --build "$arm" --target eevdf_fast || fail "the fast model without AVX2 does not build"
echo "ok: Release build without -Werror, runtime AVX2, arm64 configuration"
