#!/usr/bin/env bash
# Runs one netlib BLAS test program (Debian package libblas-test: levels 1, 2 and 3, Fortran and
# CBLAS) with libtrnblas_blas.so preloaded, and checks
#   1. the program's summary: level 1, every subprogram it tests printed PASS and nothing FAIL;
#      levels 2 and 3, every routine it tested PASSED THE TESTS OF ERROR-EXITS and PASSED THE
#      (COLUMN-MAJOR / ROW-MAJOR) COMPUTATIONAL TESTS, nothing FAILED, END OF TESTS reached;
#   2. that our routines really answered: TRNBLAS_BLAS_TRACE records one line per call of the shim.
#      Levels 2 and 3: for each of our routines the number of computational calls the shim saw must
#      equal the number the program reports, with the error exits answered by the shim's own checks.
#      Level 1 (no call counts, no error exits): every one of our routines was called through the
#      shim. A run in which the reference library answered would show zero traced calls and fail.
#   3. that each of our calls ran on the emulator (any emulated instruction), except the routines
#      listed as host-side: no NeuronCore engine computes in fp64, so D/Z elementwise Level 1
#      (axpy, scal, rot, rotm, i?amax; copy and swap move bits and run as emulated DMAs), the D rank-1
#      updates DGER/DSYR/DSPR (elementwise, one host round trip since s15/lapackd) and ZGERU/ZGERC/ZHER/ZHPR/
#      ZHER2/ZHPR2 (the same since s26/clients: elementwise, their triangle staged on the host), DTRSV/DTBSV/DTPSV (one diagonal block at these
#      sizes; DTBSV/DTPSV stage their triangle densely by DMA first, so they count as emulated) and DTRSM/ZTRSM (one diagonal block) run in fp64 on the host side of trnblas
#      (level12.hpp, level3.hpp), and ?ROTG/?ROTMG are scalar setups (host arithmetic on two elements).
# Routines a program tests that the shim does not export (`reference` below; none since SDSDOT and
# DSDOT were added) would come from netlib's reference libblas.so.3
# (LD_LIBRARY_PATH points at the libblas-test folder, whatever the system's BLAS alternative is);
# the script checks that the shim saw none of them and lists them.
#
# usage: run_netlib_blas.sh PROGRAM BLAS_TEST_DIR SHIM_SO [both|row] [EXTRA_PRELOAD]
#   PROGRAM        xblat1s/d/c/z | xblat2s/d/c/z | xblat3s/d/c/z | x?cblat1 | x?cblat2 | x?cblat3
#   both|row       CBLAS programs: test both layouts (default) or row-major only
#   EXTRA_PRELOAD  the ASan runtime in sanitizer builds, preloaded before the shim. Sanitizer runs
#                  use fewer sizes (N = 0, 1, 9; the D and Z programs N = 0, 2): every kernel
#                  launch constructs an emulated NeuronCore (~24 MiB of SBUF) that ASan's allocator
#                  maps afresh, an Ozaki DGEMM call launches ~40 kernels, and the full runs would
#                  take far over 5 minutes.
# Exit status 77 (CTest SKIP_RETURN_CODE) when libblas-test is not installed.
set -uo pipefail
prog=$1
blas_dir=$2
shim=$3
layouts=${4:-both}
extra_preload=${5:-}

host=""
reference=""
case "$prog" in
  xblat1s) level=1 kind=fortran ours="SDOT SAXPY SROTG SROT SCOPY SSWAP SNRM2 SASUM SSCAL ISAMAX SROTMG SROTM SDSDOT"
           host="SROTG SROTMG" ;;
  xblat1d) level=1 kind=fortran ours="DDOT DAXPY DROTG DROT DCOPY DSWAP DNRM2 DASUM DSCAL IDAMAX DROTMG DROTM DSDOT"
           host="DAXPY DROTG DROT DSCAL IDAMAX DROTMG DROTM" ;;
  xblat1c) level=1 kind=fortran ours="CDOTC CDOTU CAXPY CCOPY CSWAP SCNRM2 SCASUM CSCAL CSSCAL ICAMAX" ;;
  xblat1z) level=1 kind=fortran ours="ZDOTC ZDOTU ZAXPY ZCOPY ZSWAP DZNRM2 DZASUM ZSCAL ZDSCAL IZAMAX"
           host="ZAXPY ZSCAL ZDSCAL IZAMAX" ;;
  xscblat1) level=1 kind=cblas ours="CBLAS_SDOT CBLAS_SAXPY CBLAS_SROTG CBLAS_SROT CBLAS_SCOPY CBLAS_SSWAP CBLAS_SNRM2 CBLAS_SASUM CBLAS_SSCAL CBLAS_ISAMAX"
            host="CBLAS_SROTG" ;;
  xdcblat1) level=1 kind=cblas ours="CBLAS_DDOT CBLAS_DAXPY CBLAS_DROTG CBLAS_DROT CBLAS_DCOPY CBLAS_DSWAP CBLAS_DNRM2 CBLAS_DASUM CBLAS_DSCAL CBLAS_IDAMAX"
            host="CBLAS_DAXPY CBLAS_DROTG CBLAS_DROT CBLAS_DSCAL CBLAS_IDAMAX" ;;
  # The CSCAL case of c_cblat1.f calls the Fortran CSCAL (the program links cscal_ itself).
  xccblat1) level=1 kind=cblas ours="CBLAS_CDOTC:cblas_cdotc_sub CBLAS_CDOTU:cblas_cdotu_sub CBLAS_CAXPY CBLAS_CCOPY CBLAS_CSWAP CBLAS_SCNRM2 CBLAS_SCASUM CBLAS_CSCAL:cscal_ CBLAS_CSSCAL CBLAS_ICAMAX" ;;
  xzcblat1) level=1 kind=cblas ours="CBLAS_ZDOTC:cblas_zdotc_sub CBLAS_ZDOTU:cblas_zdotu_sub CBLAS_ZAXPY CBLAS_ZCOPY CBLAS_ZSWAP CBLAS_DZNRM2 CBLAS_DZASUM CBLAS_ZSCAL CBLAS_ZDSCAL CBLAS_IZAMAX"
            host="CBLAS_ZAXPY CBLAS_ZSCAL CBLAS_ZDSCAL CBLAS_IZAMAX" ;;
  xblat2s) level=2 input=sblat2.in kind=fortran ours="SGEMV SGBMV SSYMV SSBMV SSPMV STRMV STBMV STPMV STRSV STBSV STPSV SGER SSYR SSPR SSYR2 SSPR2" ;;
  xblat2d) level=2 input=dblat2.in kind=fortran ours="DGEMV DGBMV DSYMV DSBMV DSPMV DTRMV DTBMV DTPMV DTRSV DTBSV DTPSV DGER DSYR DSPR DSYR2 DSPR2"
           host="DTRSV DGER DSYR DSPR" ;;
  xblat2c) level=2 input=cblat2.in kind=fortran ours="CGEMV CGBMV CHEMV CHBMV CHPMV CTRMV CTBMV CTPMV CTRSV CTBSV CTPSV CGERC CGERU CHER CHPR CHER2 CHPR2" ;;
  xblat2z) level=2 input=zblat2.in kind=fortran ours="ZGEMV ZGBMV ZHEMV ZHBMV ZHPMV ZTRMV ZTBMV ZTPMV ZTRSV ZTBSV ZTPSV ZGERC ZGERU ZHER ZHPR ZHER2 ZHPR2"
           host="ZTRSV ZTBSV ZTPSV ZGERC ZGERU ZHER ZHPR ZHER2 ZHPR2" ;;
  xscblat2) level=2 input=sin2 kind=cblas ours="cblas_sgemv cblas_sgbmv cblas_ssymv cblas_ssbmv cblas_sspmv cblas_strmv cblas_stbmv cblas_stpmv cblas_strsv cblas_stbsv cblas_stpsv cblas_sger cblas_ssyr cblas_sspr cblas_ssyr2 cblas_sspr2" ;;
  xdcblat2) level=2 input=din2 kind=cblas ours="cblas_dgemv cblas_dgbmv cblas_dsymv cblas_dsbmv cblas_dspmv cblas_dtrmv cblas_dtbmv cblas_dtpmv cblas_dtrsv cblas_dtbsv cblas_dtpsv cblas_dger cblas_dsyr cblas_dspr cblas_dsyr2 cblas_dspr2"
            host="cblas_dtrsv cblas_dger cblas_dsyr cblas_dspr" ;;
  xccblat2) level=2 input=cin2 kind=cblas ours="cblas_cgemv cblas_cgbmv cblas_chemv cblas_chbmv cblas_chpmv cblas_ctrmv cblas_ctbmv cblas_ctpmv cblas_ctrsv cblas_ctbsv cblas_ctpsv cblas_cgerc cblas_cgeru cblas_cher cblas_chpr cblas_cher2 cblas_chpr2" ;;
  xzcblat2) level=2 input=zin2 kind=cblas ours="cblas_zgemv cblas_zgbmv cblas_zhemv cblas_zhbmv cblas_zhpmv cblas_ztrmv cblas_ztbmv cblas_ztpmv cblas_ztrsv cblas_ztbsv cblas_ztpsv cblas_zgerc cblas_zgeru cblas_zher cblas_zhpr cblas_zher2 cblas_zhpr2"
            host="cblas_ztrsv cblas_ztbsv cblas_ztpsv cblas_zgerc cblas_zgeru cblas_zher cblas_zhpr cblas_zher2 cblas_zhpr2" ;;
  xblat3s) level=3 input=sblat3.in kind=fortran ours="SGEMM SSYMM STRMM STRSM SSYRK SSYR2K" ;;
  xblat3d) level=3 input=dblat3.in kind=fortran ours="DGEMM DSYMM DTRMM DTRSM DSYRK DSYR2K" host="DTRSM" ;;
  xscblat3) level=3 input=sin3 kind=cblas ours="cblas_sgemm cblas_ssymm cblas_strmm cblas_strsm cblas_ssyrk cblas_ssyr2k" ;;
  xdcblat3) level=3 input=din3 kind=cblas ours="cblas_dgemm cblas_dsymm cblas_dtrmm cblas_dtrsm cblas_dsyrk cblas_dsyr2k" host="cblas_dtrsm" ;;
  xblat3c) level=3 input=cblat3.in kind=fortran ours="CGEMM CHEMM CSYMM CTRMM CTRSM CHERK CSYRK CHER2K CSYR2K" ;;
  xblat3z) level=3 input=zblat3.in kind=fortran ours="ZGEMM ZHEMM ZSYMM ZTRMM ZTRSM ZHERK ZSYRK ZHER2K ZSYR2K" host="ZTRSM" ;;
  xccblat3) level=3 input=cin3 kind=cblas ours="cblas_cgemm cblas_chemm cblas_csymm cblas_ctrmm cblas_ctrsm cblas_cherk cblas_csyrk cblas_cher2k cblas_csyr2k" ;;
  xzcblat3) level=3 input=zin3 kind=cblas ours="cblas_zgemm cblas_zhemm cblas_zsymm cblas_ztrmm cblas_ztrsm cblas_zherk cblas_zsyrk cblas_zher2k cblas_zsyr2k" host="cblas_ztrsm" ;;
  *) echo "unknown program $prog" >&2; exit 2 ;;
esac
input=${input:-}

if [[ ! -x "$blas_dir/$prog" || ( -n $input && ! -r "$blas_dir/$input" ) || ! -r "$blas_dir/libblas.so.3" ]]; then
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
if [[ -n $input ]]; then
  cp "$blas_dir/$input" .
  chmod u+w "$input"
else
  input=/dev/null  # the level-1 programs read no input
fi
if [[ $kind == cblas && $layouts == row ]]; then
  # "2  0 TO TEST COLUMN-MAJOR, 1 TO TEST ROW-MAJOR, 2 TO TEST BOTH" -> 1 (some input files describe
  # the same 0/1/2 value as "LOGICAL FLAG, T TO TEST ROW-MAJOR")
  sed -i 's/^2\( .*TO TEST.*ROW-MAJOR\)/1\1/' "$input"
fi

preload=$shim
asan_options=${ASAN_OPTIONS:-}
if [[ -n $extra_preload ]]; then
  preload="$extra_preload:$shim"
  if ((level > 1)); then
    # "6  NUMBER OF VALUES OF N" / "0 1 2 3 5 9  VALUES OF N" -> 3 / 0 1 9 (D and Z programs: 2 / 0 2)
    case $prog in
      xblat?d | xdcblat? | xblat?z | xzcblat?) count=2 sizes="0 2" ;;
      *) count=3 sizes="0 1 9" ;;
    esac
    sed -i -e "/NUMBER OF VALUES OF N/s/^[0-9]*/$count/" \
           -e "/NUMBER OF VALUES OF N/!{/VALUES OF N/s/^[0-9 ]*/$sizes   /}" "$input"
    echo "sanitizer build: sizes N = $sizes only"
  fi
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

if [[ $kind == fortran && $level -gt 1 ]]; then
  summary=$(sed -n "1s/^'\([^']*\)'.*/\1/p" "$input")  # first line: 'sblat3.out'  NAME OF SUMMARY OUTPUT FILE
else
  summary=stdout.txt  # the CBLAS and level-1 programs write their summary on standard output
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
if grep -qE "FAIL|FATAL|\*\*\*" "$summary"; then
  fail "the summary reports failures: $(grep -E 'FAIL|FATAL|\*\*\*' "$summary" | head -n 5)"
fi

if ((level == 1)); then
  # " Test of subprogram number  1             SDOT" followed by "----- PASS -----".
  routines=$(awk '/Test of subprogram number/ { print $NF }' "$summary")
  tested=$(echo "$routines" | grep -c .)
  passed=$(grep -c -- "----- PASS -----" "$summary")
  ((tested > 0)) || fail "no subprogram tested"
  ((passed == tested)) || fail "$tested subprograms tested, $passed passed"
else
  grep -q "END OF TESTS" "$summary" || fail "the summary does not reach END OF TESTS"
  # Every routine the input file enables ("SGEMM  T PUT F FOR NO TEST") passed both kinds of tests:
  # the Fortran programs print one COMPUTATIONAL line, the CBLAS programs one per layout tested
  # (the real ones name the layout, the complex ones do not).
  computational="PASSED THE (COLUMN-MAJOR |ROW-MAJOR +)?COMPUTATIONAL TESTS"
  if [[ $kind == fortran || $layouts == row ]]; then expected=1; else expected=2; fi
  routines=$(awk '$2 == "T" && $3 == "PUT" { print $1 }' "$input")
  [[ -n $routines ]] || fail "no routine enabled in $input"
  for r in $routines; do
    # c_cblat2.f tests GERC's error exits by calling GERU and prints the line under GERU's name.
    errname=$r
    [[ $r == cblas_[cz]gerc ]] && errname=${r/gerc/geru}
    grep -qE "^ *$errname +PASSED THE TESTS OF ERROR-EXITS" "$summary" || fail "$r: no PASSED THE TESTS OF ERROR-EXITS line"
    found=$(grep -cE "^ *$r +$computational" "$summary")
    ((found == expected)) || fail "$r: $found 'PASSED THE ... COMPUTATIONAL TESTS' lines, expected $expected"
  done
  if [[ $kind == cblas && $layouts == both ]] && grep -q "COLUMN-MAJOR COMPUTATIONAL" "$summary"; then
    for r in $routines; do
      grep -qE "^ *$r +PASSED THE COLUMN-MAJOR COMPUTATIONAL TESTS" "$summary" || fail "$r: no column-major line"
      grep -qE "^ *$r +PASSED THE ROW-MAJOR +COMPUTATIONAL TESTS" "$summary" || fail "$r: no row-major line"
    done
  fi
fi

# Our routines were answered by the shim (call for call where the program counts its calls).
[[ -s trace.txt ]] || fail "TRNBLAS_BLAS_TRACE recorded nothing: the shim was not called"
for entry in $ours; do
  r=${entry%%:*}  # NAME or NAME:symbol (the entry point the program's test of NAME calls)
  if [[ $entry == *:* ]]; then symbol=${entry#*:}
  elif [[ $kind == fortran ]]; then symbol="$(echo "$r" | tr 'A-Z' 'a-z')_"
  else symbol=$(echo "$r" | tr 'A-Z' 'a-z'); fi
  # Here-strings, not `echo | grep -q`: under pipefail, grep -q exiting at its first match can kill
  # echo with SIGPIPE and fail the pipeline (seen once on xdcblat3 under load).
  grep -qx "$r" <<<"$routines" || fail "$r is not tested by $prog"
  traced=$(grep -E "^trnblas_blas $symbol " trace.txt | grep -vc -- "-> xerbla(")
  emulated=$(grep -E "^trnblas_blas $symbol " trace.txt | grep -cE "instructions=[1-9]")
  errors=$(grep -E "^trnblas_blas $symbol " trace.txt | grep -c -- "-> xerbla(")
  ((traced > 0)) || fail "$r: the shim saw no call of $symbol"
  if ((level > 1)); then
    reported=$(grep -E "^ *$r +PASSED THE .*COMPUTATIONAL TESTS" "$summary" |
               sed 's/.*( *\([0-9]*\) CALLS).*/\1/' | awk '{ s += $1 } END { print s + 0 }')
    ((traced == reported)) || fail "$r: the program reports $reported computational calls, the shim saw $traced"
    # (c_cblat2.f's GERC error-exit test calls cblas_?geru, see above: none reaches ?gerc.)
    [[ $r == cblas_[cz]gerc ]] || ((errors > 0)) || fail "$r: the shim reported no error exit"
  fi
  if grep -q " $r " <<<" $host "; then
    ((emulated == 0)) || fail "$r is listed as host-side but $emulated calls issued emulated instructions"
    emulated="none: host side (fp64, or a scalar setup)"
  else
    ((emulated > 0)) || fail "$r: no call ran on the emulated engines"
  fi
  if ((level > 1)); then
    printf '%-14s %6d computational calls, all through libtrnblas_blas (ran on the emulator: %s); %d error exits answered by the shim\n' \
      "$r" "$traced" "$emulated" "$errors"
  else
    printf '%-14s %6d calls through libtrnblas_blas (ran on the emulator: %s)\n' "$r" "$traced" "$emulated"
  fi
done
# The routines the shim does not provide: tested, passed, and answered by netlib's reference.
for r in $reference; do
  grep -qx "$r" <<<"$routines" || fail "$r (reference) is not tested by $prog"
  symbol=$(echo "$r" | tr 'A-Z' 'a-z')
  ! grep -qE "^trnblas_blas ${symbol}_? " trace.txt || fail "$r is listed as reference but the shim answered it"
done
[[ -z $reference ]] || echo "answered by netlib's reference BLAS (not in the shim): $reference"
echo "$prog: all routines PASSED in ${seconds} s"

