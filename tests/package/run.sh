#!/usr/bin/env bash
# Installs the build tree into a scratch prefix, then builds and runs three fresh consumers of it,
# as a CUDA program would link cuBLAS/cuRAND after a prefix substitution:
#   1. plain C:     cc app.c -I P/include -L P/lib -ltrnblas -ltrnrand
#   2. pkg-config:  cc app.c $(pkg-config --cflags --libs trnblas trnrand)
#   3. CMake:       find_package(trnsci CONFIG COMPONENTS core trnblas trnrand)
# and checks the exported ABI of every installed shared library: only its C API (symbols starting
# with the library's name) and the C++ API (namespace trn) are dynamic symbols.
set -euo pipefail
build_dir=$(cd "$1" && pwd)
extra_flags=${2:-}  # the sanitizer build passes its -fsanitize flags on to the consumers
src_dir=$(cd "$(dirname "$0")" && pwd)
work="$build_dir/package-test"
prefix="$work/prefix"
rm -rf "$work"
mkdir -p "$work"
cmake --install "$build_dir" --prefix "$prefix" >/dev/null
libdir=$(dirname "$(find "$prefix" -name 'trnsci.pc' -print -quit)")/..
libdir=$(cd "$libdir" && pwd)
shared=$(find "$libdir" -maxdepth 1 -name 'libtrncore.so*' -print -quit)

# 1. plain cc, exactly the README's line, with no LD_LIBRARY_PATH: the installed libraries' $ORIGIN
#    RUNPATH lets the linker and the loader find libtrncore.so.0 next to libtrnblas.so.0. The app finds
#    libtrnblas itself through its own -rpath (a prefix outside the loader's default paths).
unset LD_LIBRARY_PATH
cc $extra_flags -o "$work/app_plain" "$src_dir/app.c" -I "$prefix/include" -L "$libdir" -ltrnblas -ltrnrand \
  $( [ -n "$shared" ] && echo "-Wl,-rpath,$libdir" || echo "-ltrncore -lstdc++ -lm -pthread" )
"$work/app_plain"
# The remaining consumers run with the prefix on LD_LIBRARY_PATH (the other documented way).
export LD_LIBRARY_PATH="$libdir"

# 2. pkg-config
export PKG_CONFIG_PATH="$libdir/pkgconfig"
pkg-config --exists --print-errors trnblas trnrand trncore trnsci
static=$( [ -n "$shared" ] || echo --static )
cc $extra_flags -o "$work/app_pkg" "$src_dir/app.c" $(pkg-config $static --cflags --libs trnblas trnrand)
"$work/app_pkg"
grep -qx trncore <<<"$(pkg-config --print-requires trnblas)"

# 3. find_package with components
cmake -S "$src_dir" -B "$work/consumer" -DCMAKE_PREFIX_PATH="$prefix" \
  -DCMAKE_CXX_FLAGS="$extra_flags" -DCMAKE_EXE_LINKER_FLAGS="$extra_flags" >/dev/null
cmake --build "$work/consumer" -j2 >/dev/null
"$work/consumer/consumer"
if cmake -S "$src_dir" -B "$work/consumer-missing" -DCMAKE_PREFIX_PATH="$prefix" -DTRNSCI_COMPONENTS="core;nosuchlib" \
     >"$work/missing.log" 2>&1; then
  echo "find_package(trnsci COMPONENTS nosuchlib) succeeded" >&2
  exit 1
fi

# 4. exported symbols of every installed shared library (not the BLAS and LAPACK ABI shims, which export
# the Fortran/CBLAS names through their own version maps)
if [ -n "$shared" ]; then
  for lib in "$libdir"/libtrn*.so; do
    name=$(basename "$lib" .so)
    name=${name#lib}
    case "$name" in trnblas_blas|trnsolver_lapack) continue ;; esac
    # Here-strings, not `readelf | grep -q` (grep -q exiting early can SIGPIPE readelf under pipefail).
    dynamic=$(readelf -d "$lib")
    grep -q "SONAME.*\[lib$name\.so\.0\]" <<<"$dynamic" || { echo "$lib: SONAME is not lib$name.so.0" >&2; exit 1; }
    if ! grep -Eq 'RUNPATH.*\[\$ORIGIN\]' <<<"$dynamic"; then
      echo "$lib: installed without the \$ORIGIN RUNPATH" >&2; exit 1
    fi
    upper=$(echo "$name" | tr '[:lower:]' '[:upper:]')
    # trnfftMp also exports cuFFTMp's descriptor calls, which keep cufftXt's names (trnfftXtMalloc, …:
    # libcufftMp.so exports them too, the single-device libcufft does not).
    extra=
    [ "$name" = trnfftmp ] && extra='|trnfftXt[A-Za-z0-9_]*'
    # The C API: names starting with the library's name in any case (trnblasmp's C API is trnblasMp*).
    bad=$(nm -D --defined-only "$lib" | awk '{print $3}' | c++filt | awk -v n="$name" 'tolower(substr($0, 1, length(n))) != n' |
          grep -Ev "^($name[A-Za-z0-9_]*$extra|$upper[A-Za-z0-9_]*|trn::.*|(typeinfo|typeinfo name|vtable|VTT|guard variable|non-virtual thunk) for trn::.*|(typeinfo|typeinfo name|vtable|VTT|guard variable|non-virtual thunk) to trn::.*)$" || true)
    if [ -n "$bad" ]; then
      echo "$lib exports symbols outside its C API and namespace trn:" >&2
      echo "$bad" | head -n 20 >&2
      exit 1
    fi
    echo "symbols: $(basename "$lib") exports $(nm -D --defined-only "$lib" | wc -l) symbols, all ${name}* or trn::"
  done
fi
echo "package test: ok"
