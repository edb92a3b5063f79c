#!/usr/bin/env bash
# `trnsci profile` takes a routine of every library with the same flags and prints the one Report:
# the routine's plan, the modeled time and the per-engine profile; --trace writes the Perfetto file.
set -uo pipefail
# Needles are matched with [[ ]] and here-strings, never `printf | grep -q`: under pipefail, grep -q
# exiting at its first match can kill printf with SIGPIPE and fail the pipeline (CI failed this test
# that way under load, stop 38; reproduced here 1 time in ~15 runs with the other core busy).
trnsci=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
# profile_has <needle...> -- <args...>: runs `trnsci profile args`, expects exit 0 and every needle.
profile_has() {
  local needles=()
  while [ "$1" != "--" ]; do needles+=("$1"); shift; done
  shift
  out=$("$trnsci" profile "$@" 2>&1) || fail "trnsci profile $* exited $?: $out"
  for n in "${needles[@]}"; do
    [[ $out == *"$n"* ]] || fail "trnsci profile $* did not say '$n': $out"
  done
}
common=("modeled time: engine" "critical path on")
profile_has "spotrf plan n=256: blocked right-looking, panel width 128, 2 panels" "${common[@]}" \
  -- potrf --shape 256 --target trn2 --trace "$work/potrf.json"
[ -s "$work/potrf.json" ] || fail "potrf --trace wrote no file"
/usr/bin/python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["traceEvents"], "no events"' "$work/potrf.json" \
  || fail "potrf --trace is not a trace-event JSON file"
profile_has "ssyevj plan n=40: rows kernel" "why: one matrix below the block threshold" "${common[@]}" -- syevj --shape 40
profile_has "ssyevj plan n=144: block kernel" "${common[@]}" -- syevj --shape 144
profile_has "sgetrf plan 300x200" "${common[@]}" -- getrf --shape 300x200
profile_has "trnfft plan C2C n=[1024]" "(dft-gemm-" "${common[@]}" -- fft --shape 1024 --mode bf16x3
profile_has "spmm plan 256x32x256: BSR" "nc_matmul" "SBUF" "x2 core(s)" -- spmm --shape 256x32 --cores 2
profile_has "einsum plan: path [(" "${common[@]}" -- einsum --shape 64x32x16
profile_has "abk,kn->nba: TTGT" "gemm plan" -- contraction --shape 64x48x32
profile_has "rand plan 65536 outputs: normal (Box-Muller) kernel on the engines" "GpSimdE" -- normal --shape 65536
# --host-gflops / --host-link-gbps / --host-fixed-ns replace the host round-trip rates: a 1 ms fixed
# cost makes every round trip of an fp64 DGEMM take at least 1000 us, free rates make them ~0.
host_us() {  # prints "<round trips> <us>" from the report's host line
  out=$("$trnsci" profile dgemm --shape 48 "$@" 2>&1) || fail "trnsci profile dgemm $* exited $?: $out"
  printf '%s' "$out" | sed -n 's/.*host *round trips \([0-9]*\): \([0-9.]*\) us.*/\1 \2/p'
}
read -r steps slow <<<"$(host_us --host-fixed-ns 1000000)"
[ -n "$steps" ] && [ "$steps" -gt 0 ] || fail "dgemm profile has no host line"
/usr/bin/python3 -c 'import sys; n, t = int(sys.argv[1]), float(sys.argv[2]); assert t >= 1000 * n, (n, t)' "$steps" "$slow" \
  || fail "--host-fixed-ns 1000000: $steps round trips took $slow us"
read -r _ fast <<<"$(host_us --host-fixed-ns 0 --host-gflops 1e9 --host-link-gbps 1e9)"
read -r _ dflt <<<"$(host_us)"
/usr/bin/python3 -c 'import sys; f, d = map(float, sys.argv[1:]); assert f < 0.01 and d > 4.6, (f, d)' "$fast" "$dflt" \
  || fail "free host rates: $fast us, default $dflt us"
out=$("$trnsci" profile dgemm --host-gflops 0 2>&1) && fail "--host-gflops 0 accepted"
out=$("$trnsci" profile frobnicate 2>&1); rc=$?
[ "$rc" -eq 2 ] || fail "unknown routine exited $rc"
[[ $out == *syevj* ]] || fail "unknown routine did not list the routines: $out"
out=$("$trnsci" info 2>&1) || fail "info exited $?"
for lib in trncore trnblas trnfft trnrand trnsolver trnsparse trntensor; do
  grep -qE "$lib [0-9]" <<<"$out" || fail "info does not list $lib's version: $out"
done
echo "cli profile of every library: ok"
