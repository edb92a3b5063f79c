#!/usr/bin/env bash
# The shipped porting rule is a bijection on the suite's C programs written in trnsci's cuBLAS / cuFFT /
# cuRAND names (the project's own walkthroughs tests/trnblas/trnblas_c_*walkthrough*.[ch],
# tests/trnfft/trnfft_c_walkthroughs.c and the cuRAND host-API program tests/trnrand/trnrand_c_host_samples.c;
# they replaced the NVIDIA samples earlier sessions had ported and checked here): spelled back in CUDA's
# names (the inverse map below), each gives its own code again through tools/port-cuda.sh. Comments are
# compared without their text (they quote CUDA names on purpose); code must match token for token.
set -euo pipefail
src=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
to_cuda() {
  sed -e 's/\<trn\(blas\|fft\|rand\|solver\|sparse\|tensor\)/cu\1/g' \
      -e 's/\<TRN\(BLAS\|FFT\|RAND\|SOLVER\|SPARSE\|TENSOR\)_/CU\1_/g' \
      -e 's/\<trnDataType_t\>/cudaDataType_t/g' -e 's/\<trnDataType\>/cudaDataType/g' \
      -e 's/\<TRN_\([RC]\)_/CUDA_\1_/g' -e 's/\<trnEmulation/cudaEmulation/g' -e 's/\<TRN_EMULATION_/CUDA_EMULATION_/g' \
      -e 's/\<make_trn\(Float\|Double\)\?Complex\>/make_cu\1Complex/g' -e 's/\<trn\(Float\|Double\)Complex\>/cu\1Complex/g' \
      -e 's/\<trnComplex/cuComplex/g' -e 's/\<trnC\(real\|imag\|add\|sub\|mul\|div\|abs\|fma\)/cuC\1/g' \
      -e 's/\<trnConj/cuConj/g' -e 's/\<trnHalf\>/__half/g' -e 's/\<trnBfloat16\>/__nv_bfloat16/g' \
      -e 's/\<trnFloat2Half\(_rn\)\?\>/__float2half\1/g' -e 's/\<trnDouble2Half\>/__double2half/g' \
      -e 's/\<trnHalf2Float\>/__half2float/g' \
      -e 's/\<trnFloat2Bfloat16\(_rn\)\?\>/__float2bfloat16\1/g' -e 's/\<trnDouble2Bfloat16\>/__double2bfloat16/g' \
      -e 's/\<trnBfloat162Float\>/__bfloat162float/g' \
      -e 's/\<trnStream_t\>/cudaStream_t/g'
}
code_only() { gcc -fpreprocessed -dD -E -P -x c - 2>/dev/null; }
checked=0
for f in "$src"/tests/trnblas/trnblas_c_*walkthrough*.[ch] \
         "$src"/tests/trnfft/trnfft_c_walkthroughs.c "$src"/tests/trnrand/trnrand_c_host_samples.c; do
  to_cuda < "$f" > "$work/cuda.c"
  if grep -qE '\<(trn|TRN)(blas|fft|BLAS|FFT|_[RC]_)' "$work/cuda.c"; then
    echo "roundtrip: $f: the inverse map left trnsci names" >&2
    exit 1
  fi
  "$src/tools/port-cuda.sh" "$work/cuda.c" 2> "$work/left.txt" > "$work/ported.c"
  if ! diff <(code_only < "$f") <(code_only < "$work/ported.c") > "$work/diff.txt"; then
    echo "roundtrip: $f: tools/port-cuda.sh does not reproduce the hand port:" >&2
    head -n 20 "$work/diff.txt" >&2
    exit 1
  fi
  checked=$((checked + 1))
done
# The hand-port list names what the rule leaves (runtime calls), and only that.
printf '#include <cuda_runtime.h>\nvoid f(void) { float* d; cudaMalloc((void**)&d, 4); cublasCreate(0); }\n' > "$work/rt.c"
"$src/tools/port-cuda.sh" "$work/rt.c" 2> "$work/left.txt" > "$work/rt_ported.c"
grep -q 'cudaMalloc(1)' "$work/left.txt" && grep -q 'cuda_runtime.h' "$work/left.txt" && ! grep -q cublas "$work/left.txt" \
  && grep -q 'trnblasCreate(0)' "$work/rt_ported.c" || { echo "roundtrip: the by-hand list is wrong" >&2; cat "$work/left.txt" >&2; exit 1; }
echo "roundtrip: $checked sample files reproduced by tools/port-cuda.sh"
