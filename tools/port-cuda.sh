#!/usr/bin/env bash
# port-cuda.sh - applies trnsci's porting rule (docs/porting.md) to CUDA library host code.
#
#   tools/port-cuda.sh app.cu.c > app.c        # one file to stdout
#   tools/port-cuda.sh -i src/*.c src/*.cpp     # files in place
#   tools/port-cuda.sh < app.c > ported.c       # a filter
#
# The rule is a textual substitution of names (library prefixes, data-type and complex names, header
# names); nothing else changes. What it cannot do — the CUDA runtime (cudaMalloc, cudaMemcpy, streams,
# events, kernels) — is left as written and listed on stderr, so the compiler and that list show the
# lines a port edits by hand (docs/porting.md, "By hand").
set -euo pipefail

# The rule, once. Order matters only where one pattern is a prefix of another (longest first).
read -r -d '' RULES <<'SED' || true
# headers that are not <library-prefix>*.h
s/\<library_types\.h\>/trncore.h/g
s/\<cuda_fp16\.h\>/trncore.h/g
s/\<cuda_bf16\.h\>/trncore.h/g
# library prefixes: functions, types, enum values, header names (cublas_v2.h, cufftXt.h, cusolverDn.h ...)
s/\<cu\(blas\|fft\|rand\|solver\|sparse\|tensor\)/trn\1/g
s/\<CU\(BLAS\|FFT\|RAND\|SOLVER\|SPARSE\|TENSOR\)_/TRN\1_/g
# library_types.h: data types and their values, the emulation enums
s/\<cudaDataType_t\>/trnDataType_t/g
s/\<cudaDataType\>/trnDataType/g
s/\<CUDA_\([RC]\)_/TRN_\1_/g
s/\<cudaEmulation/trnEmulation/g
s/\<CUDA_EMULATION_/TRN_EMULATION_/g
# cuComplex.h: types, constructors, arithmetic (cuCaddf -> trnCaddf, cuComplex.h -> trnComplex.h)
s/\<make_cu\(Float\|Double\)\?Complex\>/make_trn\1Complex/g
s/\<cu\(Float\|Double\)Complex\>/trn\1Complex/g
s/\<cuComplex/trnComplex/g
s/\<cuC\(real\|imag\|add\|sub\|mul\|div\|abs\|fma\)/trnC\1/g
s/\<cuConj/trnConj/g
# 16-bit storage types (cuda_fp16.h / cuda_bf16.h)
s/\<__half\>/trnHalf/g
s/\<__nv_bfloat16\>/trnBfloat16/g
# cuda_fp16.h's host conversion functions (trncore.h)
s/\<__float2half\(_rn\)\?\>/trnFloat2Half\1/g
s/\<__double2half\>/trnDouble2Half/g
s/\<__half2float\>/trnHalf2Float/g
# cuda_bf16.h's host conversion functions (trncore.h)
s/\<__float2bfloat16\(_rn\)\?\>/trnFloat2Bfloat16\1/g
s/\<__double2bfloat16\>/trnDouble2Bfloat16/g
s/\<__bfloat162float\>/trnBfloat162Float/g
# the stream type every library's SetStream takes
s/\<cudaStream_t\>/trnStream_t/g
SED

port() { sed -e "$RULES"; }

# Lists what the rule leaves for the hand port (CUDA runtime names), once per name.
report() {
  local name=$1 file=$2
  local left
  left=$(grep -oE '\<cuda[A-Z][A-Za-z0-9_]*|<cuda_runtime[a-z_]*\.h>|__global__|<<<' "$file" | sort | uniq -c |
         awk '{printf " %s(%s)", $2, $1}' || true)
  [ -z "$left" ] || echo "port-cuda.sh: $name: by hand (docs/porting.md):$left" >&2
}

if [ "${1:-}" = "-i" ]; then
  shift
  for f in "$@"; do
    tmp=$(mktemp)
    port < "$f" > "$tmp"
    cat "$tmp" > "$f"
    rm -f "$tmp"
    report "$f" "$f"
  done
else
  tmp=$(mktemp)
  trap 'rm -f "$tmp"' EXIT
  if [ $# -ge 1 ]; then
    for f in "$@"; do
      port < "$f" > "$tmp"
      cat "$tmp"
      report "$f" "$tmp"
    done
  else
    port > "$tmp"
    cat "$tmp"
    report "<stdin>" "$tmp"
  fi
fi
