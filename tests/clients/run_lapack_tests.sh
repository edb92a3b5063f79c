#!/usr/bin/env bash
# LAPACK's own test programs (Debian liblapack-test: xlintst?, xeigtst?) as real clients of the BLAS
# shim, on their STANDARD inputs (stest.in, dtest.in, ..., sep.in, nep.in; not the cut ones of
# tests/trnblas/lapack). One program, three runs, each timed (wall seconds):
#   openblas      the system LAPACK and BLAS (OpenBLAS's LAPACK + BLAS: what a user has);
#   ref+openblas  netlib's reference LAPACK (LD_LIBRARY_PATH=$LAPACK_DIR) on OpenBLAS's BLAS: the
#                 same LAPACK code as the shim run, only the BLAS differs;
#   ref+shim      netlib's reference LAPACK with libtrnblas_blas.so preloaded: every BLAS routine
#                 the shim exports runs on trnblas's tile kernels. Untraced by default (a user's
#                 run: TRNBLAS_BLAS_COUNT counts the calls in memory and writes them at exit);
#                 LAPACK_CLIENT_TRACE=1 sets TRNBLAS_BLAS_TRACE instead (a line per call, counted).
# OpenBLAS runs with its best kernels for this CPU (OPENBLAS_CORETYPE=SkylakeX on AVX-512, as
# bench/openblas_native.hpp; its Prescott fallback would flatter the shim) unless the caller set it.
# Passes when the shim run exits 0, answered at least one call, and fails no more tests than the
# ref+openblas run (the same LAPACK): failures = the sum of LAPACK's "N out of M tests failed to
# pass the threshold" counts + error-exit failure lines ("***"). No time is asserted; the last line
# is a machine-readable summary (docs/trnblas.md records the figures).
#   usage: run_lapack_tests.sh PROGRAM INPUT SHIM_SO [LAPACK_DIR]
# Environment: LAPACK_CLIENT_TIMEOUT (seconds, default 3600) ends the shim run; a run ended so is
# reported "not finished after N s" and fails. LAPACK_CLIENT_TRACE=1: the shim run is traced (about
# twice the shim's CPU; the summary then says traced=1). Exit 77 (CTest skip) when liblapack-test is absent.
set -uo pipefail
prog=$1
input=$2
shim=$3
lapack_dir=${4:-/usr/lib/$(gcc -print-multiarch 2>/dev/null || echo x86_64-linux-gnu)/lapack}
limit=${LAPACK_CLIENT_TIMEOUT:-3600}
traced=${LAPACK_CLIENT_TRACE:-0}
[ "$traced" = 0 ] || traced=1
[ -f "$input" ] || input="$lapack_dir/$input"
[ -x "$lapack_dir/$prog" ] && [ -f "$input" ] && [ -f "$lapack_dir/liblapack.so.3" ] ||
  { echo "SKIP: $lapack_dir/$prog, $input or the reference liblapack.so.3 not installed (liblapack-test)"; exit 77; }
[ -f "$shim" ] || { echo "FAIL: no shim at $shim"; exit 1; }
input=$(cd "$(dirname "$input")" && pwd)/$(basename "$input")
shim=$(cd "$(dirname "$shim")" && pwd)/$(basename "$shim")
if [ -z "${OPENBLAS_CORETYPE:-}" ] && grep -qw avx512f /proc/cpuinfo; then export OPENBLAS_CORETYPE=SkylakeX; fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"

failures() {  # failures LOG -> the number of failed tests and error-exit failure lines
  awk '/failed to pass the threshold/ { for (i = 1; i <= NF; ++i) if ($i ~ /^[0-9]+$/) { s += $i; break } }
       /\*\*\*/ { s += 1 }
       END { print s + 0 }' "$1"
}
passed() {  # passed LOG -> the number of tests reported passing
  awk '/passed the threshold/ && !/failed/ { for (i = 1; i <= NF; ++i) if ($i ~ /^[0-9]+$/) { s += $i; break } }
       END { print s + 0 }' "$1"
}
timed() {  # timed NAME [env...] -- runs the program on the input; sets ${NAME}_rc, ${NAME}_s (wall), ${NAME}_cpu
  local name=$1 TIMEFORMAT='%R %U %S'
  shift
  # Unbuffered Fortran output: a run ended by the time limit still shows the paths it finished.
  { time { env GFORTRAN_UNBUFFERED_PRECONNECTED=y "$@" timeout "$limit" "$lapack_dir/$prog" < "$input" > "$name.log" 2>&1
           echo $? > "$name.rc"; }; } 2> "$name.time"
  printf -v "${name}_rc" '%s' "$(cat "$name.rc")"
  printf -v "${name}_s" '%s' "$(awk '{ printf "%.2f", $1 }' "$name.time")"
  # CPU seconds (user + system, all threads): on a shared machine the wall time also counts waiting.
  printf -v "${name}_cpu" '%s' "$(awk '{ printf "%.2f", $2 + $3 }' "$name.time")"
}

timed openblas
timed refob LD_LIBRARY_PATH="$lapack_dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
if [ "$traced" = 1 ]; then shim_log=(TRNBLAS_BLAS_TRACE="$work/trace.txt"); else shim_log=(TRNBLAS_BLAS_COUNT="$work/counts.txt"); fi
timed shim "${shim_log[@]}" LD_LIBRARY_PATH="$lapack_dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" LD_PRELOAD="$shim"
# Calls per entry point, most first: from the trace lines, or the shim's own totals (written at exit,
# so a run ended by the time limit has none).
if [ "$traced" = 1 ]; then
  [ -f trace.txt ] && awk '{ print $2 }' trace.txt | sort | uniq -c | sort -rn | awk '{ print $1, $2 }' > counts.txt
else
  [ -f counts.txt ] && sed -i '/ total$/d' counts.txt
fi
calls=$( [ -f counts.txt ] && awk '{ s += $1 } END { print s + 0 }' counts.txt || echo 0)
ob_fail=$(failures openblas.log); ref_fail=$(failures refob.log); shim_fail=$(failures shim.log)
echo "$prog < $(basename "$input") (OPENBLAS_CORETYPE=${OPENBLAS_CORETYPE:-auto})"
printf '  %-36s exit %3s  %8s s wall %8s s CPU  passed %8s  failed %6s\n' "system LAPACK + OpenBLAS" "$openblas_rc" \
  "$openblas_s" "$openblas_cpu" "$(passed openblas.log)" "$ob_fail"
printf '  %-36s exit %3s  %8s s wall %8s s CPU  passed %8s  failed %6s\n' "reference LAPACK + OpenBLAS BLAS" "$refob_rc" \
  "$refob_s" "$refob_cpu" "$(passed refob.log)" "$ref_fail"
printf '  %-36s exit %3s  %8s s wall %8s s CPU  passed %8s  failed %6s  (%s BLAS calls answered by the shim)\n' \
  "reference LAPACK + trnblas shim" "$shim_rc" "$shim_s" "$shim_cpu" "$(passed shim.log)" "$shim_fail" "$calls"
[ -f counts.txt ] && head -n 10 counts.txt | awk '{ printf "%9s %s\n", $1, $2 }'
ratio=$(awk -v a="$shim_s" -v b="$refob_s" 'BEGIN { print a / (b + 0.01) }')
printf 'LAPACK_CLIENT %s %s openblas_s=%s ref_openblas_s=%s shim_s=%s cpu_s=%s/%s/%s shim/ref_openblas=%.1f failed_openblas=%s failed_ref_openblas=%s failed_shim=%s shim_calls=%s shim_exit=%s traced=%s\n' \
  "$prog" "$(basename "$input")" "$openblas_s" "$refob_s" "$shim_s" "$openblas_cpu" "$refob_cpu" "$shim_cpu" "$ratio" "$ob_fail" "$ref_fail" "$shim_fail" "$calls" "$shim_rc" "$traced"
status=0
if [ "$shim_rc" -eq 124 ]; then
  echo "FAIL: not finished after $limit s with the shim (LAPACK_CLIENT_TIMEOUT); last lines of its output:"
  grep -E "tests|routines" shim.log | tail -n 5
  status=1
fi
# (An untraced run ended by the time limit wrote no totals: it has already failed above.)
if [ "$calls" -eq 0 ] && [ "$shim_rc" -ne 124 ]; then echo "FAIL: the shim answered no BLAS call"; status=1; fi
if [ "$shim_rc" -ne 0 ]; then echo "FAIL: the program exited $shim_rc with the shim"; tail -n 30 shim.log; status=1; fi
if [ "$shim_fail" -gt "$ref_fail" ]; then
  echo "FAIL: more failures with the shim ($shim_fail) than with OpenBLAS's BLAS under the same LAPACK ($ref_fail)"
  grep -E "failed to pass|\*\*\*" shim.log | head -n 40
  status=1
fi
exit $status
