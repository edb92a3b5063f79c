#!/usr/bin/env bash
# The CLI's ergonomics: --help for every subcommand, exit code 2 and a clear message for bad flags,
# unknown commands, suites, targets, operations and shapes.
set -uo pipefail
# Needles are matched with [[ ]], never `printf | grep -q` (SIGPIPE under pipefail: profile_routines.sh).
trnsci=$1
fail() { echo "FAIL: $*"; exit 1; }
expect() {  # expect <code> <needle> <args...>
  local code=$1 needle=$2
  shift 2
  out=$("$trnsci" "$@" 2>&1)
  rc=$?
  [ "$rc" -eq "$code" ] || fail "trnsci $* exited $rc, expected $code: $out"
  [[ $out == *"$needle"* ]] || fail "trnsci $* did not say '$needle': $out"
}
for sub in validate bench profile info; do expect 0 "Usage" "$sub" --help; done
expect 0 "Subcommands" --help
expect 2 "unknown command 'frobnicate'" frobnicate
expect 2 "unknown suite 'nope'" validate --suite nope
expect 2 "medium not in" validate --size medium
expect 2 "unknown target 'trn9'" bench --target trn9 --suite blas
expect 2 "unknown operation 'gemv'" profile gemv
expect 2 "--shape must be" profile gemm --shape 12x
expect 2 "unknown mode 'bf17'" profile gemm --mode bf17
expect 0 "critical path" profile gemm --shape 256 --mode bf16x3 --target trn2
expect 0 "trn3" info
# --op narrows validate and bench to the named ops; a list that selects nothing is a usage error.
expect 2 "no case of op 'frobnicate'" validate --suite core --op frobnicate
expect 2 "no case of op 'frobnicate'" bench --suite rand --op frobnicate
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$trnsci" validate --suite core --op harmonic_sum --json "$work/v.json" >/dev/null 2>&1 || fail "validate --op harmonic_sum failed"
/usr/bin/python3 -c '
import json, sys
ops = {c["op"] for c in json.load(open(sys.argv[1]))["cases"]}
assert ops == {"harmonic_sum"}, ops' "$work/v.json" || fail "validate --op harmonic_sum ran other ops"
echo "cli ergonomics: ok"
