#!/usr/bin/env bash
# Builds the libFuzzer harnesses of the C APIs with clang, ASan and UBSan (build-fuzz/) and runs each
# from its checked-in seed corpus tests/fuzz/corpus/<library>/, growing a working copy in
# build-fuzz/corpus/. Prints executions and coverage per harness; exits non-zero on the first crash,
# sanitizer report or harness invariant violation (the reproducer is left in build-fuzz/ as crash-*;
# add it to the corpus and a regression test).
#   bash tools/fuzz.sh [SECONDS] [SEED]     each harness for SECONDS (default 60): the exploring run
#   bash tools/fuzz.sh --runs N SEED        each harness for exactly N executions: the reproducible run
# A time budget makes the number of explored inputs depend on the machine's speed and load, so CI
# uses --runs with a fixed SEED and one emulator thread (TRN_NUM_THREADS=1). The explored inputs are
# then close to, but not exactly, those of a local run of the same command: coverage feedback still
# varies a little between processes (measured: two runs of one harness diverge after ~600 inputs; host
# timings in the profile take different formatting paths), so run several seeds locally before a stop.
set -euo pipefail
cd "$(dirname "$0")/.."
budget_opt=() seed_opt=() budget_text=
if [ "${1:-}" = --runs ]; then
  [ -n "${2:-}" ] && [ -n "${3:-}" ] || { echo "usage: bash tools/fuzz.sh --runs N SEED" >&2; exit 2; }
  budget_opt=("-runs=$2") seed_opt=("-seed=$3") budget_text="$2 runs"
  export TRN_NUM_THREADS=1
else
  budget_opt=("-max_total_time=${1:-60}") budget_text="${1:-60} s"
  [ -n "${2:-}" ] && seed_opt=("-seed=$2")
fi
for p in clang libclang-rt-14-dev; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ -n "${missing[*]:-}" ]; then
  DEBIAN_FRONTEND=noninteractive apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"
fi
# Line tables only (-gline-tables-only, not -g): sanitizer reports keep file:line stacks, and the
# build, a full second compile of every library in CI, takes ~10 % less CPU (measured on level2.cpp).
cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
  "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O2 -gline-tables-only -DNDEBUG" "-DCMAKE_C_FLAGS_RELWITHDEBINFO=-O2 -gline-tables-only -DNDEBUG" \
  -DBUILD_SHARED_LIBS=OFF -DTRNSCI_FUZZ=ON -DTRNSCI_SANITIZE=ON -DTRNSCI_BUILD_TESTS=OFF -DTRNSCI_BUILD_BENCH=OFF -DTRNSCI_BUILD_TOOLS=OFF >/dev/null
# Every registered harness, fuzz_trnblasmp and fuzz_trnsolvermp (registered inside if()s: distributed/ is built
# when MPI is found) included; one whose library is not configured is named, never skipped silently.
registered=$(sed -n 's/^ *trnsci_add_fuzzer(\([a-z_]*\) .*/\1/p' tests/fuzz/CMakeLists.txt)
configured=$(cmake --build build-fuzz --target help | sed -n 's/^\.\.\. fuzz_\([a-z_]*\)$/\1/p')
harnesses=
for h in $registered; do
  if grep -qx "$h" <<<"$configured"; then harnesses="$harnesses $h"; else echo "fuzz_$h: NOT RUN (its library is not configured in build-fuzz)"; fi
done
targets=$(for h in $harnesses; do printf 'fuzz_%s ' "$h"; done)
cmake --build build-fuzz -j2 --target $targets
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
for h in $harnesses; do
  corpus=build-fuzz/corpus/$h
  mkdir -p "$corpus"
  cp -n tests/fuzz/corpus/$h/* "$corpus"/ 2>/dev/null || true
  echo "fuzz_$h: $budget_text"
  # The distributed libraries' harnesses (fuzz_trn*mp) run one MPI singleton rank: Open MPI refuses root
  # without its two variables, and its own start-up allocations (hwloc, MPI_Init) are never freed, so
  # LeakSanitizer is off for those harnesses.
  leaks=1 env=()
  case "$h" in trn*mp) leaks=0 env=(OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1) ;; esac
  (cd build-fuzz && env "${env[@]}" ASAN_OPTIONS=detect_leaks=$leaks:abort_on_error=1 "./tests/fuzz/fuzz_$h" \
     "${budget_opt[@]}" -rss_limit_mb=4096 -max_len=512 -print_final_stats=1 "${seed_opt[@]}" "corpus/$h" \
     2>"fuzz_$h.log") || { tail -n 60 "build-fuzz/fuzz_$h.log"; exit 1; }
  grep -E "^stat::number_of_executed_units|^#[0-9]+ +DONE" "build-fuzz/fuzz_$h.log" | tail -n 2
done
echo "fuzz: every harness ran clean"
