#!/usr/bin/env bash
# One entry point for a fresh Debian 12 machine (run as root from the repository root):
#   bash tools/bootstrap.sh run        install missing packages, build (Release, -j2), run the main job
#                                      (trnsci validate --size quick; report in build/report.html)
#   bash tools/bootstrap.sh test       same set-up, then run every test with ctest
#   bash tools/bootstrap.sh sanitize   same set-up with ASan+UBSan (build-asan/), then ctest
#   bash tools/bootstrap.sh tsan       same set-up with ThreadSanitizer (build-tsan/), then ctest
# Dependencies come only from Debian packages; nothing is downloaded at build time.
set -euo pipefail
cd "$(dirname "$0")/.."

PACKAGES=(build-essential cmake pkg-config libopenblas-dev liblapacke-dev libeigen3-dev googletest libgtest-dev
          libbenchmark-dev libfmt-dev librandom123-dev nlohmann-json3-dev libcli11-dev libblas-test
          libfftw3-dev)
# The test commands also render the HTML report in a real browser (tests/cli/report_in_browser.sh)
# and check profile JSON and host-rate figures with python3 (tests/cli/profile_routines.sh).
# liblapack-test: LAPACK's test programs as clients of the BLAS shim (tests/clients, tests/trnblas;
# registered only with -DTRNSCI_LAPACK_CLIENTS=ON / -DTRNSCI_LAPACK_TESTS=ON, never in the default ctest).
TEST_PACKAGES=(chromium librandom123-doc python3 liblapack-test)
# The Python package trnsci (python/, docs/python.md) is part of the default build: Debian's Python,
# numpy and pybind11; its tests (ctest label python) need pytest and SciPy (the SciPy FFT backend's suite).
PACKAGES+=(python3-dev pybind11-dev python3-pybind11 python3-numpy)
TEST_PACKAGES+=(python3-scipy python3-pytest)

install_missing() {  # install_missing [extra packages...]
  local missing=()
  for p in "${PACKAGES[@]}" "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if ((${#missing[@]})); then
    echo "bootstrap: installing ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq "${missing[@]}"
  fi
}

build() {  # build <dir> [cmake args...]
  local dir=$1
  shift
  cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release "$@"
  cmake --build "$dir" -j2
}

mode=${1:-run}
case "$mode" in
  run)
    install_missing
    build build
    ./build/tools/trnsci validate --size quick --html build/report.html --json build/report.json
    ;;
  test)
    install_missing "${TEST_PACKAGES[@]}"
    build build -DTRNSCI_WERROR=ON  # warnings are errors wherever the tests run (CI)
    ctest --test-dir build --output-on-failure -j2
    ;;
  sanitize)
    install_missing "${TEST_PACKAGES[@]}"
    build build-asan -DTRNSCI_SANITIZE=ON -DTRNSCI_BUILD_BENCH=OFF
    ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 TRNSCI_SANITIZER_BUILD=1 \
      ctest --test-dir build-asan --output-on-failure -j2
    ;;
  tsan)
    install_missing "${TEST_PACKAGES[@]}"
    build build-tsan -DTRNSCI_SANITIZE_THREAD=ON -DTRNSCI_BUILD_BENCH=OFF
    # OPENBLAS_NUM_THREADS=1: OpenBLAS (an oracle in the tests, uninstrumented) crashed inside its own
    # threaded cgemv under TSan (SEGV in cgemv_n, first TSan run); trnsci's own threads stay on.
    TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 TRNSCI_SANITIZER_BUILD=1 OPENBLAS_NUM_THREADS=1 \
      ctest --test-dir build-tsan --output-on-failure -j2
    ;;
  *)
    echo "usage: bash tools/bootstrap.sh run|test|sanitize|tsan" >&2
    exit 2
    ;;
esac
