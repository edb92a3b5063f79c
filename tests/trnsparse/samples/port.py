#!/usr/bin/python3
"""port.py - the mechanical part of porting NVIDIA's cuSPARSE samples (CUDALibrarySamples/cuSPARSE,
Apache-2.0) to trnsparse on host memory. Developer tool: the ported files are committed; nothing runs
it at build time. Usage: port.py SAMPLE.c NAME > NAME.c (NAME: the sample's directory name).

Rules, in order: prefix substitution (cusparse -> trnsparse, CUSPARSE -> TRNSPARSE, CUDA_R_/CUDA_C_ ->
TRN_R_/TRN_C_, cuComplex/cuDoubleComplex -> trnComplex/trnDoubleComplex, cudaDataType ->
trnDataType_t); the CUDA runtime goes (its #include, the CHECK_CUDA statements: cudaMalloc,
cudaMemcpy, cudaFree), and the device pointers d<X> become the host arrays h<X> they were copied
from or to (their declarations are dropped); the sample's own CHECK_CUSPARSE macro is replaced by the
one of trnsparse_samples_port.h; main becomes int trnsparse_sample_<NAME>(void). What is left over
(a device array without a host twin) is fixed by hand and marked `ported:` in the file."""
import re
import sys

src = open(sys.argv[1]).read()
name = sys.argv[2]
license_end = src.index("*/") + 2
head, body = src[:license_end], src[license_end:]
# the sample's macro definitions and includes
body = re.sub(r"#define CHECK_\w+\(func\)(?:.*\\\n)*.*\n", "", body)
body = re.sub(r"#include <(cuda_runtime_api|cusparse|cuda_runtime)\.h>[^\n]*\n", "", body)
body = re.sub(r"#include <stdio.h>[^\n]*\n|#include <stdlib.h>[^\n]*\n", "", body)
# CHECK_CUDA( ... ) statements, balanced parentheses
out, i = [], 0
while True:
    j = body.find("CHECK_CUDA(", i)
    if j < 0:
        out.append(body[i:])
        break
    out.append(body[i:j])
    depth, k = 0, j + len("CHECK_CUDA")
    while True:
        if body[k] == "(":
            depth += 1
        elif body[k] == ")":
            depth -= 1
            if depth == 0:
                break
        k += 1
    i = k + 1
body = "".join(out)
# device pointer declarations, then d<X> -> h<X>
body = re.sub(r"\n[ \t]*(?:const\s+)?\w+\s*\*\s*d[A-Z_]\w*(?:\s*,\s*\*\s*d[A-Z_]\w*)*\s*;[^\n]*", "", body)
body = re.sub(r"\bd([A-Z]\w*)", r"h\1", body)
body = re.sub(r"\bd_(\w+)", r"h_\1", body)
for a, b in [("cusparse", "trnsparse"), ("CUSPARSE", "TRNSPARSE"), ("CUDA_R_", "TRN_R_"), ("CUDA_C_", "TRN_C_"),
             ("cuDoubleComplex", "trnDoubleComplex"), ("cuComplex", "trnComplex"), ("cudaDataType", "trnDataType_t")]:
    body = body.replace(a, b)
body = body.replace("int main(void)", "int trnsparse_sample_%s(void)" % name)
body = re.sub(r"\n\s*//-+\n\s*// Device memory management\n", "\n", body)
body = re.sub(r"\n\s*// device memory deallocation\n", "\n", body)
body = re.sub(r"[ \t]+\n", "\n", body)
body = re.sub(r"\n{3,}", "\n\n", body)
print(head + "\n/* Ported to trnsparse on host memory by tests/trnsparse/samples/port.py (" + name + "). */\n"
      '#include "trnsparse_samples_port.h"\n' + body, end="")
