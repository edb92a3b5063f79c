#!/usr/bin/env bash
# LAPACK's own test programs (Debian liblapack-test: xlintst?) as clients of libtrnsolver_lapack.so
# (issue #27). One program on one input, two runs of netlib's reference LAPACK 3.11 (LD_LIBRARY_PATH=
# $LAPACK_DIR) on the system BLAS, each timed (wall seconds):
#   reference  as installed: every LAPACK routine is reference LAPACK's;
#   shim       the same with libtrnsolver_lapack.so preloaded: every routine the shim exports (the
#              programs' direct calls and reference LAPACK's internal calls, e.g. DGETRI -> DTRTRI)
#              is answered by trnsolver or passed through (TRNSOLVER_LAPACK_TRACE counts both).
# Passes when the shim run exits 0, the shim answered at least one call, no call was left unanswered or
# failed in the emulator, and the shim run fails no more tests than the reference run: failures = the
# sum of LAPACK's "N out of M tests failed to pass the threshold" counts plus its error-exit failure
# lines ("***"). The last line is a machine-readable summary (docs/trnsolver.md records the figures).
#   usage: run_xlintst.sh PROGRAM INPUT SHIM_SO [SANITIZER_RUNTIME] [LAPACK_DIR]
# Environment: LAPACK_SHIM_TIMEOUT (seconds, default 3600) ends the shim run (reported, fails).
# Exit 77 (CTest skip) when liblapack-test is absent.
set -uo pipefail
prog=$1
input=$2
shim=$3
runtime=${4:-}
lapack_dir=${5:-/usr/lib/$(gcc -print-multiarch 2>/dev/null || echo x86_64-linux-gnu)/lapack}
limit=${LAPACK_SHIM_TIMEOUT:-3600}
[ -x "$lapack_dir/$prog" ] && [ -f "$input" ] && [ -f "$lapack_dir/liblapack.so.3" ] ||
  { echo "SKIP: $lapack_dir/$prog, $input or the reference liblapack.so.3 not installed (liblapack-test)"; exit 77; }
[ -f "$shim" ] || { echo "FAIL: no shim at $shim"; exit 1; }
input=$(cd "$(dirname "$input")" && pwd)/$(basename "$input")
shim=$(cd "$(dirname "$shim")" && pwd)/$(basename "$shim")
preload="$shim"
[ -n "$runtime" ] && preload="$runtime $shim"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"

# LAPACK's summary lines: " DGE: 3 out of 3653 tests failed to pass the threshold", " All tests for DGE
# routines passed the threshold ( 3653 tests run)", and "***" on an error-exit failure.
tally() {  # tally LOG -> "FAILED PASSED"
  awk '/failed to pass the threshold/ { for (i = 1; i <= NF; ++i) if ($i ~ /^[0-9]+$/) { failed += $i; break } }
       /\*\*\*/ { failed += 1 }
       /passed the threshold/ && !/failed/ { for (i = 1; i <= NF; ++i) if ($i ~ /^[0-9]+$/) { passed += $i; break } }
       END { print failed + 0, passed + 0 }' "$1"
}
run_timed() {  # run_timed NAME [env...]: NAME.log, NAME.rc and NAME.wall (seconds)
  local name=$1 TIMEFORMAT='%R'
  shift
  { time { env GFORTRAN_UNBUFFERED_PRECONNECTED=y LD_LIBRARY_PATH="$lapack_dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
             "$@" timeout "$limit" "$lapack_dir/$prog" < "$input" > "$name.log" 2>&1
           echo $? > "$name.rc"; }; } 2> "$name.wall"
}

run_timed reference
run_timed shim TRNSOLVER_LAPACK_TRACE="$work/trace.txt" LD_PRELOAD="$preload"
read -r ref_failed ref_passed < <(tally reference.log)
read -r shim_failed shim_passed < <(tally shim.log)
ref_rc=$(cat reference.rc)
shim_rc=$(cat shim.rc)
ref_s=$(cat reference.wall)
shim_s=$(cat shim.wall)
# The shim's exit summary: one line per routine with its answered / passed / bad_args counts.
sum_field() { awk -v f="$1" '$2 == "summary" { for (i = 4; i <= NF; ++i) { split($i, kv, "="); if (kv[1] == f) s += kv[2] } }
                             END { print s + 0 }' trace.txt 2> /dev/null || echo 0; }
answered=$(sum_field answered)
passed_through=$(sum_field passed)
bad_args=$(sum_field bad_args)
unanswered=$(sum_field unanswered)
failed_calls=$(sum_field failed)
echo "$prog < $(basename "$input")"
printf '  %-34s exit %3s  %9s s wall  tests passed %7s  failed %5s\n' "reference LAPACK" "$ref_rc" "$ref_s" "$ref_passed" \
  "$ref_failed"
printf '  %-34s exit %3s  %9s s wall  tests passed %7s  failed %5s\n' "reference LAPACK + trnsolver shim" "$shim_rc" \
  "$shim_s" "$shim_passed" "$shim_failed"
echo "  shim calls: answered $answered, passed through $passed_through, bad arguments $bad_args, unanswered" \
  "$unanswered, failed $failed_calls; per routine:"
grep " summary " trace.txt 2> /dev/null | sed 's/^trnsolver_lapack: summary /    /'
printf 'LAPACK_SHIM %s %s reference_s=%s shim_s=%s failed_reference=%s failed_shim=%s answered=%s passed_through=%s bad_args=%s shim_exit=%s\n' \
  "$prog" "$(basename "$input")" "$ref_s" "$shim_s" "$ref_failed" "$shim_failed" "$answered" "$passed_through" "$bad_args" \
  "$shim_rc"
status=0
if [ "$shim_rc" -eq 124 ]; then echo "FAIL: not finished after $limit s with the shim (LAPACK_SHIM_TIMEOUT)"; status=1; fi
if [ "$shim_rc" -ne 0 ]; then echo "FAIL: the program exited $shim_rc with the shim"; tail -n 30 shim.log; status=1; fi
if [ "$answered" -eq 0 ]; then echo "FAIL: the shim answered no call"; status=1; fi
if [ "$unanswered" -ne 0 ] || [ "$failed_calls" -ne 0 ]; then
  echo "FAIL: $unanswered calls unanswered, $failed_calls failed in the emulator"
  grep -E "unanswered|failed in the emulator" shim.log | sort | uniq -c | head -n 10
  status=1
fi
if [ "$shim_failed" -gt "$ref_failed" ]; then
  echo "FAIL: more failures with the shim ($shim_failed) than with reference LAPACK ($ref_failed)"
  grep -E "failed to pass|\*\*\*" shim.log | head -n 40
  grep -B2 -A8 "failed to pass\|\*\*\*" shim.log | head -n 80
  status=1
fi
exit $status
