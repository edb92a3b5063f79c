#!/usr/bin/env bash
# numpy.linalg and scipy.linalg through libtrnsolver_lapack.so (issue #27): numpy_scipy_eigen.py runs
# once without the shim (the reference: Debian's numpy and scipy call the system liblapack.so.3,
# OpenBLAS's) and once with it preloaded and TRNSOLVER_LAPACK_TRACE on. Passes when every case meets its
# bound (the script's own asserts) and, for every case whose LAPACK routine the shim exports, the trace
# shows that routine answered by trnsolver (a preload that did not interpose, or a routine that always
# passed through, fails). Wall times of both runs and the trace's per-routine counts are printed; the
# last line is a machine-readable summary (docs/trnsolver.md "LAPACK ABI shim" records it).
#   usage: run_numpy_scipy.sh SHIM_SO SCRIPT [PYTHON] [SANITIZER_RUNTIME]
# (SANITIZER_RUNTIME: the ASan/TSan runtime preloaded before an instrumented shim.)
# Exit 77 (CTest skip) when PYTHON lacks numpy or scipy.
set -uo pipefail
shim=$1
script=$2
py=${3:-/usr/bin/python3}
runtime=${4:-}
"$py" -c 'import numpy, scipy.linalg' 2>/dev/null || { echo "SKIP: $py has no numpy/scipy"; exit 77; }
[ -f "$shim" ] || { echo "FAIL: no shim at $shim"; exit 1; }
shim=$(cd "$(dirname "$shim")" && pwd)/$(basename "$shim")
preload="$shim"
if [ -n "$runtime" ]; then preload="$runtime $shim"; export ASAN_OPTIONS=detect_leaks=0:${ASAN_OPTIONS:-}; fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export OPENBLAS_NUM_THREADS=1

t0=$(date +%s.%N)
"$py" "$script" dump "$work/ref.npz" > "$work/ref.log" 2>&1 || { echo "FAIL: reference run"; cat "$work/ref.log"; exit 1; }
t1=$(date +%s.%N)
TRNSOLVER_LAPACK_TRACE="$work/trace.txt" LD_PRELOAD="$preload" "$py" "$script" check "$work/ref.npz" > "$work/shim.log" 2>&1
rc=$?
t2=$(date +%s.%N)
cat "$work/shim.log"

# Which LAPACK the process loaded, and that the shim came first (LD_PRELOAD interposes on it).
LD_PRELOAD="$preload" "$py" -c '
import numpy.linalg, scipy.linalg
libs = []
for line in open("/proc/self/maps"):
    p = line.split()[-1]
    if (".so" in p) and any(k in p for k in ("lapack", "blas", "trnsolver")) and p not in libs:
        libs.append(p)
print("mapped:", ", ".join(libs))'

status=$rc
[ "$rc" -eq 0 ] || echo "FAIL: a case exceeded its bound (exit $rc)"
exported=$(nm -D --defined-only "$shim" | awk '{ print $3 }')
routines=$(awk '$1 == "CASE" { for (i = 1; i <= NF; ++i) if ($i ~ /_$/) { print $i; break } }' "$work/shim.log" | sort -u)
[ -n "$routines" ] || { echo "FAIL: no case ran"; status=1; }
answered_total=0
for r in $routines; do
  # The shim's exit summary line of r: "trnsolver_lapack: summary dsyevd_ answered=15 passed=1 ...".
  a=$(awk -v r="$r" '$3 == r { sub("answered=", "", $4); print $4 }' "$work/trace.txt" 2>/dev/null)
  p=$(awk -v r="$r" '$3 == r { sub("passed=", "", $5); print $5 }' "$work/trace.txt" 2>/dev/null)
  if grep -qx "$r" <<< "$exported"; then
    printf '  %-10s answered %4s  passed through %3s\n' "$r" "${a:-0}" "${p:-0}"
    answered_total=$((answered_total + ${a:-0}))
    if [ "${a:-0}" -eq 0 ]; then echo "FAIL: the shim exports $r but answered none of its calls"; status=1; fi
  else
    printf '  %-10s not exported by the shim: the system LAPACK answered\n' "$r"
  fi
done
# The NaN cases: the shim must have handed them to the system LAPACK, not answered them.
if grep -q 'passes through' "$work/shim.log"; then
  nan_passed=$(grep -c -- '-> Inf or NaN' "$work/trace.txt" 2>/dev/null)
  range_passed=$(grep -c -- '-> max|a_ij| where LAPACK rescales' "$work/trace.txt" 2>/dev/null)
  echo "  passed through to the system LAPACK: Inf/NaN ${nan_passed:-0} calls, rescaled range ${range_passed:-0}"
  [ "${nan_passed:-0}" -ge 2 ] && [ "${range_passed:-0}" -ge 1 ] || { echo "FAIL: the pass-through cases did not pass"; status=1; }
fi
ref_s=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')
shim_s=$(awk -v a="$t1" -v b="$t2" 'BEGIN { printf "%.2f", b - a }')
cases=$(awk '/^NUMPY_SCIPY/ { print }' "$work/shim.log")
echo "NUMPY_SCIPY_SHIM reference_s=$ref_s shim_s=$shim_s answered_calls=$answered_total $cases"
exit $status
