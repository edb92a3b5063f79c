#!/usr/bin/env bash
# LAPACK's own test programs (Debian liblapack-test: xeigtst?, xlintst?) with libtrnsolver_lapack.so
# preloaded (issue #27). One program on one input, two runs, each timed (wall seconds):
#   system   the program as installed (its liblapack.so.3: OpenBLAS's LAPACK on Debian);
#   shim     the same with LD_PRELOAD=libtrnsolver_lapack.so and TRNSOLVER_LAPACK_TRACE: every routine
#            the shim exports is answered by trnsolver or passed to the system LAPACK (the trace says
#            which); the test programs' checking routines (xSYTRD, xORGTR, ...) stay the system's.
# Passes when the shim run exits 0, answered at least one call, and fails no more tests than the
# system run: failures = the sum of LAPACK's "N out of M tests failed to pass the threshold" counts +
# error-exit failure lines ("***"). The program's own XERBLA checks the shim's bad-argument positions
# (the error-exit tests). No time is asserted; the last line is a machine-readable summary.
#   usage: run_lapack_shim_tests.sh PROGRAM INPUT SHIM_SO [LAPACK_DIR]
# Exit 77 (CTest skip) when liblapack-test is absent. LAPACK_SHIM_TIMEOUT (s, default 3600) ends a run.
set -uo pipefail
prog=$1
input=$2
shim=$3
lapack_dir=${4:-/usr/lib/$(gcc -print-multiarch 2>/dev/null || echo x86_64-linux-gnu)/lapack}
limit=${LAPACK_SHIM_TIMEOUT:-3600}
[ -f "$input" ] || input="$lapack_dir/$input"
[ -x "$lapack_dir/$prog" ] && [ -f "$input" ] || { echo "SKIP: $lapack_dir/$prog or $input not installed (liblapack-test)"; exit 77; }
[ -f "$shim" ] || { echo "FAIL: no shim at $shim"; exit 1; }
input=$(cd "$(dirname "$input")" && pwd)/$(basename "$input")
shim=$(cd "$(dirname "$shim")" && pwd)/$(basename "$shim")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
export OPENBLAS_NUM_THREADS=1

failures() {  # failures LOG -> failed tests + error-exit failure lines
  awk '/failed to pass the threshold/ { for (i = 1; i <= NF; ++i) if ($i ~ /^[0-9]+$/) { s += $i; break } }
       /\*\*\*/ { s += 1 }
       END { print s + 0 }' "$1"
}
run() {  # run NAME [env...]: sets ${NAME}_rc and ${NAME}_s
  local name=$1 TIMEFORMAT='%R'
  shift
  { time { env GFORTRAN_UNBUFFERED_PRECONNECTED=y "$@" timeout "$limit" "$lapack_dir/$prog" < "$input" > "$name.log" 2>&1
           echo $? > "$name.rc"; }; } 2> "$name.time"
  printf -v "${name}_rc" '%s' "$(cat "$name.rc")"
  printf -v "${name}_s" '%s' "$(awk '{ printf "%.2f", $1 }' "$name.time")"
}

run system
run shim TRNSOLVER_LAPACK_TRACE="$work/trace.txt" LD_PRELOAD="$shim"
answered=$(grep -c -- '-> answered' trace.txt 2>/dev/null)
passed=$(grep -c -- '-> passed' trace.txt 2>/dev/null)
bad=$(grep -c -- '-> xerbla' trace.txt 2>/dev/null)
sys_fail=$(failures system.log)
shim_fail=$(failures shim.log)
echo "$prog < $(basename "$input")"
printf '  %-22s exit %3s  %8s s wall  failed %5s\n' "system LAPACK" "$system_rc" "$system_s" "$sys_fail"
printf '  %-22s exit %3s  %8s s wall  failed %5s  (answered %s, passed through %s, bad arguments %s)\n' \
  "system LAPACK + shim" "$shim_rc" "$shim_s" "$shim_fail" "${answered:-0}" "${passed:-0}" "${bad:-0}"
grep '^trnsolver_lapack: summary' trace.txt 2>/dev/null | sed 's/^trnsolver_lapack: summary /  /'
grep -E 'failed to pass|\*\*\*' shim.log | head -n 20
printf 'LAPACK_SHIM %s %s system_s=%s shim_s=%s failed_system=%s failed_shim=%s answered=%s passed=%s bad_args=%s shim_exit=%s\n' \
  "$prog" "$(basename "$input")" "$system_s" "$shim_s" "$sys_fail" "$shim_fail" "${answered:-0}" "${passed:-0}" \
  "${bad:-0}" "$shim_rc"
status=0
if [ "$shim_rc" -eq 124 ]; then echo "FAIL: not finished after $limit s with the shim"; status=1; fi
if [ "${answered:-0}" -eq 0 ]; then echo "FAIL: the shim answered no call"; status=1; fi
if [ "$shim_rc" -ne 0 ]; then echo "FAIL: exit $shim_rc with the shim"; tail -n 20 shim.log; status=1; fi
if [ "$shim_fail" -gt "$sys_fail" ]; then
  echo "FAIL: more failures with the shim ($shim_fail) than without ($sys_fail)"
  status=1
fi
exit $status
