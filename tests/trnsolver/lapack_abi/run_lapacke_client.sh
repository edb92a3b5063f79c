#!/usr/bin/env bash
# LAPACKE through libtrnsolver_lapack.so (issue #27): runs lapacke_client once with the system LAPACK
# (the oracle: OpenBLAS's LAPACK on this image) and once with the shim preloaded, then
#   - compares the two result files (lapacke_client compare: same INFO and pivots, values within the
#     precision's bound),
#   - reads the shim's exit summary (TRNSOLVER_LAPACK_TRACE): every routine the client calls was
#     answered by the shim (DGELS/ZGELS/SGELS with M < N too), DGELS of a matrix scaled below LAPACK's
#     SMLNUM (LAPACK rescales, the kit does not) and SPOTRF
#     of a matrix scaled to 2^-100 (outside the kit's rsqrt range) were passed through to the next
#     library, and the bad-argument calls were counted as such.
#   usage: run_lapacke_client.sh CLIENT SHIM_SO [SANITIZER_RUNTIME]
set -uo pipefail
client=$1
shim=$2
runtime=${3:-}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
preload="$shim"
[ -n "$runtime" ] && preload="$runtime $shim"

"$client" run "$work/oracle.txt" || { echo "FAIL: the oracle run (system LAPACK) failed its self checks"; exit 1; }
TRNSOLVER_LAPACK_TRACE="$work/trace.txt" LD_PRELOAD="$preload" "$client" run "$work/shim.txt" ||
  { echo "FAIL: the shim run failed its self checks"; exit 1; }
status=0
"$client" compare "$work/oracle.txt" "$work/shim.txt" || status=1

grep "summary" "$work/trace.txt"
count() {  # count SYMBOL FIELD -> the exit summary's FIELD for SYMBOL (0 if absent)
  awk -v s="$1" -v f="$2" '$2 == "summary" && $3 == s { for (i = 4; i <= NF; ++i) { split($i, kv, "="); if (kv[1] == f) print kv[2] } }' \
    "$work/trace.txt" | tail -n 1 | grep . || echo 0
}
expect_at_least() {  # expect_at_least SYMBOL FIELD MIN
  local got
  got=$(count "$1" "$2")
  if [ "$got" -lt "$3" ]; then echo "FAIL: $1 $2=$got, expected at least $3"; status=1; fi
}
for sym in dpotrf_ dpotrs_ dpotri_ spotrf_ spotrs_ spotri_ zpotrf_ zpotrs_ zpotri_ cpotrf_ cpotrs_ cpotri_ dtrtri_ dlauum_ \
           strtri_ ctrtri_ ztrtri_ dgetrf_ dgetrs_ dgesv_ sgetrf_ sgesv_ zgesv_ zgetrs_ cgesv_ dgeqrf_ dormqr_ dorgqr_ sgeqrf_ \
           sorgqr_ zgeqrf_ zunmqr_ cgeqrf_ cungqr_ dgels_ sgels_ zgels_ dsytrf_ dsytrs_; do
  expect_at_least "$sym" answered 1
done
for sym in sgesvdx_ cgesvdx_ zgesvdx_; do expect_at_least "$sym" answered 1; done
expect_at_least dgesvdx_ answered 6  # RANGE A, V, I, tall and wide (the queries are counted too)
expect_at_least spotrf_ passed 1
expect_at_least dgels_ passed 1
expect_at_least dgels_ answered 4  # N, T, and M < N (LQ on the QR of A^T): N, T
expect_at_least zgels_ answered 3
expect_at_least sgels_ answered 2
expect_at_least dpotrf_ bad_args 2
for sym in dgetrf_ dgesv_ dorgqr_ dgeqrf_ dormqr_ dgels_ dsytrf_ dtrtri_ ztrtri_; do expect_at_least "$sym" bad_args 1; done
if grep -qE -- "-> unanswered|unanswered=[1-9]|failed=[1-9]" "$work/trace.txt"; then echo "FAIL: a call was unanswered or failed"; status=1; fi
[ $status -eq 0 ] && echo "PASS"
exit $status
