#!/usr/bin/env bash
# Runs one LAPACK test program of Debian's liblapack-test (xlintst?, xeigtst?) twice and compares:
#   reference  the system's LAPACK and BLAS (OpenBLAS here) alone;
#   shim       netlib's reference LAPACK (its BLAS calls go through the dynamic linker) with
#              libtrnblas_blas.so preloaded, so every BLAS routine the shim exports is answered by
#              trnblas's tile kernels (TRNBLAS_BLAS_TRACE counts the calls; a run the shim did not
#              answer fails).
# Passes when the shim run fails no more tests than the reference run: the sum of LAPACK's
# "N out of M tests failed to pass the threshold" counts plus the error-exit failure lines ("***").
# Prints both counts and the traced BLAS calls per routine (the ten most called).
#   usage: run_lapack_tests.sh PROGRAM INPUT SHIM_SO [LAPACK_DIR]
#   INPUT  an input file of LAPACK_DIR (stest.in, ...) or a path; tests/trnblas/lapack/?test_small.in
#          are Debian's inputs with the sizes cut to M, N <= 10, NRHS <= 2, NB in {1, 3}, and only the GE, PO, TR, QR and LS paths: every
#          BLAS call of the full programs goes through the emulator, ~3000 calls/s, and the full
#          xlintsts makes millions of them.
# Exit status 77 (CTest SKIP_RETURN_CODE) when liblapack-test is not installed.
set -uo pipefail
prog=$1
input=$2
shim=$3
lapack_dir=${4:-/usr/lib/$(gcc -print-multiarch 2>/dev/null || echo x86_64-linux-gnu)/lapack}
[ -f "$input" ] || input="$lapack_dir/$input"
input=$(cd "$(dirname "$input")" && pwd)/$(basename "$input")
[ -x "$lapack_dir/$prog" ] && [ -f "$input" ] || { echo "SKIP: $lapack_dir/$prog or $input not installed (liblapack-test)"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"

failures() {  # failures LOG -> the number of failed tests and error-exit failure lines
  awk '/failed to pass the threshold/ { for (i = 1; i <= NF; ++i) if ($i ~ /^[0-9]+$/) { s += $i; break } }
       /\*\*\*/ { s += 1 }
       END { print s + 0 }' "$1"
}

"$lapack_dir/$prog" < "$input" > reference.log 2>&1
ref_rc=$?
TRNBLAS_BLAS_TRACE="$work/trace.txt" LD_LIBRARY_PATH="$lapack_dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
  LD_PRELOAD="$shim" "$lapack_dir/$prog" < "$input" > shim.log 2>&1
shim_rc=$?
ref_fail=$(failures reference.log)
shim_fail=$(failures shim.log)
calls=$( [ -f trace.txt ] && wc -l < trace.txt || echo 0)
echo "$prog < $(basename "$input"): reference (system LAPACK + BLAS) exit $ref_rc, $ref_fail failed; reference LAPACK + trnblas shim exit $shim_rc, $shim_fail failed; $calls BLAS calls answered by the shim"
[ -f trace.txt ] && awk '{ print $2 }' trace.txt | sort | uniq -c | sort -rn | head -n 10
status=0
if [ "$calls" -eq 0 ]; then echo "FAIL: the shim answered no BLAS call"; status=1; fi
if [ "$shim_rc" -ne 0 ]; then echo "FAIL: the program exited $shim_rc with the shim"; tail -n 30 shim.log; status=1; fi
if [ "$shim_fail" -gt "$ref_fail" ]; then
  echo "FAIL: more failures with the shim"
  grep -E "failed to pass|\*\*\*" shim.log | head -n 40
  status=1
fi
exit $status
