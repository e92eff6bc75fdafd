#!/usr/bin/env bash
# Runs a command and checks its exit code and its output (stdout and stderr together).
#   expect_exit.sh <code> <regex> <cmd> [args...]
# Passes iff the command exits with exactly <code> and its output matches the
# extended regular expression <regex> (grep -E; an empty regex matches anything);
# `!<regex>`: no line of the output may match <regex>.
# On failure it prints what was expected, what happened, the output, and the
# command line to rerun.
set -u
if [ $# -lt 3 ]; then
  echo "usage: expect_exit.sh <code> <regex> <cmd> [args...]" >&2
  exit 2
fi
want_code=$1
regex=$2
shift 2

output=$("$@" 2>&1)
code=$?

cmd=("$@")
fail() {
  echo "FAIL: $1"
  printf 'command:'; printf ' %q' "${cmd[@]}"; echo
  echo "--- output ---"
  echo "$output"
  echo "--------------"
  exit 1
}

if [ "$code" -ne "$want_code" ]; then
  fail "expected exit code $want_code, got $code"
fi
if [ "${regex:0:1}" = "!" ]; then
  if grep -Eq -- "${regex:1}" <<<"$output"; then
    fail "output matches /${regex:1}/"
  fi
elif [ -n "$regex" ] && ! grep -Eq -- "$regex" <<<"$output"; then
  fail "output does not match /$regex/"
fi
echo "ok: exit $code, output matches /$regex/"
