#!/usr/bin/env bash
# Installs the build tree into a scratch prefix, then builds and runs a fresh consumer project
# with find_package(trnsci CONFIG), and checks the pkg-config file.
set -euo pipefail
build_dir=$1
extra_flags=${2:-}  # the sanitizer build passes its -fsanitize flags on to the consumer
src_dir=$(cd "$(dirname "$0")" && pwd)
prefix="$build_dir/package-test/prefix"
rm -rf "$build_dir/package-test"
cmake --install "$build_dir" --prefix "$prefix" >/dev/null
cmake -S "$src_dir" -B "$build_dir/package-test/consumer" -DCMAKE_PREFIX_PATH="$prefix" \
  -DCMAKE_CXX_FLAGS="$extra_flags" -DCMAKE_EXE_LINKER_FLAGS="$extra_flags" >/dev/null
cmake --build "$build_dir/package-test/consumer" -j2 >/dev/null
"$build_dir/package-test/consumer/consumer"
pc_dir=$(dirname "$(find "$prefix" -name trnsci.pc | head -n1)")
PKG_CONFIG_PATH="$pc_dir" pkg-config --exists --print-errors trnsci
PKG_CONFIG_PATH="$pc_dir" pkg-config --libs trnsci | grep -q -- -ltrnsci_core
echo "package test: ok"
