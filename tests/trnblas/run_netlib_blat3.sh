#!/usr/bin/env bash
# Runs one netlib level-3 BLAS test program (Debian package libblas-test) with libtrnblas_blas.so
# preloaded, and checks
#   1. the program's summary: every routine it tested PASSED THE TESTS OF ERROR-EXITS and PASSED
#      THE (COLUMN-MAJOR / ROW-MAJOR) COMPUTATIONAL TESTS, nothing FAILED, END OF TESTS reached;
#   2. that our routines really answered: TRNBLAS_BLAS_TRACE records one line per call of the shim,
#      and for each of our routines the number of computational calls the shim saw must equal the
#      number the program reports, with the error exits answered by the shim's own checks. A run
#      in which the reference library answered would show zero traced calls and fail.
# Every real level-3 routine the programs test (GEMM, SYMM, TRMM, TRSM, SYRK, SYR2K) is ours; of the
# complex programs (xblat3c/z), CGEMM/ZGEMM (HEMM, SYMM, TRMM, TRSM, HERK, SYRK, HER2K, SYR2K are
# reference BLAS's). Each of
# our calls must also have run on the emulator: an nc_matmul for GEMM/SYMM/TRMM/SYRK/SYR2K, any
# emulated instruction for STRSM (sizes <= 128 are one diagonal block, solved on VectorE), none for
# DTRSM (one diagonal block, solved in fp64 on the host side: no NeuronCore engine computes in fp64).
# Anything else the programs call comes from netlib's reference libblas.so.3 (LD_LIBRARY_PATH points
# at the libblas-test folder, whatever the system's BLAS alternative is).
#
# usage: run_netlib_blat3.sh PROGRAM BLAS_TEST_DIR SHIM_SO [both|row] [EXTRA_PRELOAD]
#   PROGRAM        xblat3s | xblat3d | xscblat3 | xdcblat3 | xblat3c | xblat3z
#   both|row       CBLAS programs: test both layouts (default) or row-major only
#   EXTRA_PRELOAD  the ASan runtime in sanitizer builds, preloaded before the shim. Sanitizer runs
#                  use fewer sizes (N = 0, 1, 9; the D programs N = 0, 2): every kernel launch
#                  constructs an emulated NeuronCore (~24 MiB of SBUF) that ASan's allocator maps
#                  afresh, an Ozaki DGEMM call launches ~40 kernels, and the full runs would take
#                  far over 5 minutes.
# Exit status 77 (CTest SKIP_RETURN_CODE) when libblas-test is not installed.
set -uo pipefail
prog=$1
blas_dir=$2
shim=$3
layouts=${4:-both}
extra_preload=${5:-}

case "$prog" in
  xblat3s) input=sblat3.in kind=fortran ours="SGEMM SSYMM STRMM STRSM SSYRK SSYR2K" ;;
  xblat3d) input=dblat3.in kind=fortran ours="DGEMM DSYMM DTRMM DTRSM DSYRK DSYR2K" ;;
  xscblat3) input=sin3 kind=cblas ours="cblas_sgemm cblas_ssymm cblas_strmm cblas_strsm cblas_ssyrk cblas_ssyr2k" ;;
  xdcblat3) input=din3 kind=cblas ours="cblas_dgemm cblas_dsymm cblas_dtrmm cblas_dtrsm cblas_dsyrk cblas_dsyr2k" ;;
  xblat3c) input=cblat3.in kind=fortran ours="CGEMM" ;;
  xblat3z) input=zblat3.in kind=fortran ours="ZGEMM" ;;
  *) echo "unknown program $prog" >&2; exit 2 ;;
esac

if [[ ! -x "$blas_dir/$prog" || ! -r "$blas_dir/$input" || ! -r "$blas_dir/libblas.so.3" ]]; then
  echo "[  SKIPPED ] $blas_dir/$prog (or $input, libblas.so.3) not found: install the Debian package libblas-test"
  exit 77
fi
if [[ ! -r "$shim" ]]; then
  echo "FAILED: the shim $shim is not built" >&2
  exit 1
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
cp "$blas_dir/$input" .
chmod u+w "$input"
if [[ $kind == cblas && $layouts == row ]]; then
  # "2  0 TO TEST COLUMN-MAJOR, 1 TO TEST ROW-MAJOR, 2 TO TEST BOTH" -> 1
  sed -i 's/^2\( .*TO TEST COLUMN-MAJOR\)/1\1/' "$input"
fi

preload=$shim
asan_options=${ASAN_OPTIONS:-}
if [[ -n $extra_preload ]]; then
  preload="$extra_preload:$shim"
  # "6  NUMBER OF VALUES OF N" / "0 1 2 3 5 9  VALUES OF N" -> 3 / 0 1 9 (D programs: 2 / 0 2)
  if [[ $prog == xblat3d || $prog == xdcblat3 || $prog == xblat3z ]]; then count=2 sizes="0 2"; else count=3 sizes="0 1 9"; fi
  sed -i -e "/NUMBER OF VALUES OF N/s/^[0-9]*/$count/" \
         -e "/NUMBER OF VALUES OF N/!{/VALUES OF N/s/^[0-9 ]*/$sizes   /}" "$input"
  echo "sanitizer build: sizes N = $sizes only"
  # The Fortran runtime's own allocations are not ours to report; the GoogleTest checks leaks.
  asan_options="${asan_options:+$asan_options:}detect_leaks=0"
fi

# Default configuration (faithful fp32, Ozaki fp64, trn1, ideal numerics), whatever the caller exported.
SECONDS=0
env -u TRNBLAS_COMPUTE -u TRNBLAS_TARGET -u TRNBLAS_NUMERICS \
  LD_LIBRARY_PATH="$blas_dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" LD_PRELOAD="$preload" ASAN_OPTIONS="$asan_options" \
  TRNBLAS_BLAS_TRACE="$work/trace.txt" "$blas_dir/$prog" <"$input" >stdout.txt 2>stderr.txt
rc=$?
seconds=$SECONDS

if [[ $kind == fortran ]]; then
  summary=$(sed -n "1s/^'\([^']*\)'.*/\1/p" "$input")  # first line: 'sblat3.out'  NAME OF SUMMARY OUTPUT FILE
else
  summary=stdout.txt  # the CBLAS programs write their summary on standard output
fi

fail() {
  echo "FAILED: $*"
  echo "----- $prog summary ($summary) -----"
  cat "$summary" 2>/dev/null
  echo "----- $prog stderr (last 20 lines) -----"
  tail -n 20 stderr.txt
  exit 1
}

((rc == 0)) || fail "$prog exited with status $rc"
[[ -s $summary ]] || fail "$prog wrote no summary"
grep -q "END OF TESTS" "$summary" || fail "the summary does not reach END OF TESTS"
if grep -qE "FAIL|FATAL|\*\*\*" "$summary"; then
  fail "the summary reports failures: $(grep -E 'FAIL|FATAL|\*\*\*' "$summary" | head -n 5)"
fi

# Every routine the input file enables ("SGEMM  T PUT F FOR NO TEST") passed both kinds of tests.
if [[ $kind == fortran ]]; then
  computational=("PASSED THE COMPUTATIONAL TESTS")
elif [[ $layouts == row ]]; then
  computational=("PASSED THE ROW-MAJOR +COMPUTATIONAL TESTS")
else
  computational=("PASSED THE COLUMN-MAJOR COMPUTATIONAL TESTS" "PASSED THE ROW-MAJOR +COMPUTATIONAL TESTS")
fi
routines=$(awk '$2 == "T" && $3 == "PUT" { print $1 }' "$input")
[[ -n $routines ]] || fail "no routine enabled in $input"
for r in $routines; do
  grep -qE "^ *$r +PASSED THE TESTS OF ERROR-EXITS" "$summary" || fail "$r: no PASSED THE TESTS OF ERROR-EXITS line"
  for c in "${computational[@]}"; do
    grep -qE "^ *$r +$c" "$summary" || fail "$r: no '$c' line"
  done
done

# Our routines were answered by the shim, call for call.
[[ -s trace.txt ]] || fail "TRNBLAS_BLAS_TRACE recorded nothing: the shim was not called"
for r in $ours; do
  if [[ $kind == fortran ]]; then symbol="$(echo "$r" | tr 'A-Z' 'a-z')_"; else symbol=$r; fi
  echo "$routines" | grep -qx "$r" || fail "$r is not enabled in $input"
  reported=$(grep -E "^ *$r +PASSED THE .*COMPUTATIONAL TESTS" "$summary" |
             sed 's/.*( *\([0-9]*\) CALLS).*/\1/' | awk '{ s += $1 } END { print s + 0 }')
  traced=$(grep -E "^trnblas_blas $symbol " trace.txt | grep -vc -- "-> xerbla(")
  case "$symbol" in
    *dtrsm*) emulated=host ;;
    *strsm*) emulated=$(grep -E "^trnblas_blas $symbol " trace.txt | grep -cE "instructions=[1-9]") ;;
    *) emulated=$(grep -E "^trnblas_blas $symbol " trace.txt | grep -cE "tensor_passes=[1-9]") ;;
  esac
  errors=$(grep -E "^trnblas_blas $symbol " trace.txt | grep -c -- "-> xerbla(")
  ((reported > 0)) || fail "$r: no computational calls reported"
  ((traced == reported)) || fail "$r: the program reports $reported computational calls, the shim saw $traced"
  if [[ $emulated == host ]]; then
    emulated="none: host-side fp64 substitution"
  else
    ((emulated > 0)) || fail "$r: no call ran on the emulated engines"
  fi
  ((errors > 0)) || fail "$r: the shim reported no error exit"
  printf '%-12s %6d computational calls, all through libtrnblas_blas (ran on the emulator: %s); %d error exits answered by the shim\n' \
    "$r" "$reported" "$emulated" "$errors"
done
echo "$prog: all routines PASSED (computational tests and error exits) in ${seconds} s"
