#!/usr/bin/python3
"""port.py - the mechanical part of porting NVIDIA's cuSPARSE samples (CUDALibrarySamples/cuSPARSE,
Apache-2.0) to trnsparse on host memory. Developer tool: the ported files are committed; nothing runs
it at build time. Usage: port.py SAMPLE.c NAME > NAME.c (NAME: the sample's directory name).

Rules, in order: prefix substitution (cusparse -> trnsparse, CUSPARSE -> TRNSPARSE, CUDA_R_/CUDA_C_ ->
TRN_R_/TRN_C_, cuComplex/cuDoubleComplex -> trnComplex/trnDoubleComplex, cudaDataType ->
trnDataType_t); the CUDA runtime's include goes and its memory calls become host-memory helpers
(cudaMalloc -> port_malloc, cudaMemcpy -> port_memcpy, cudaMemset -> port_memset, cudaFree ->
port_free, CHECK_CUDA -> CHECK_PORT: trnsparse_samples_port.h), so the "device" arrays are heap
arrays the samples copy to and from exactly as they do on a GPU; the sample's own CHECK_CUSPARSE
macro is replaced by the one of trnsparse_samples_port.h; a sample that includes cuBLAS
(gpsvInterleavedBatch: cublasSgeam interleaves its arrays) gets cublas -> trnblas too, trnblas.h
included, and CHECK_CUBLAS -> CHECK_TRNBLAS of the same header; main becomes
int trnsparse_sample_<NAME>(void) (a main(argc, argv) becomes a static sample_main that
trnsparse_sample_<NAME> calls with the program name alone). No hand edits. One data correction: where a sample's `X_nnz` constant
disagrees with the last entry of its own `hX_csrOffsets` array, the constant becomes that entry
(spgemm, spgemm_mem, spgemm_reuse declare B_nnz = 9 for a B whose offsets end at 8: the sample copies
9 elements out of its 8-element arrays, an out-of-bounds read, and describes 8 stored entries as 9,
which trnsparse's index validation rejects)."""
import re
import sys

src = open(sys.argv[1]).read()
name = sys.argv[2]
license_end = src.index("*/") + 2
head, body = src[:license_end], src[license_end:]
# the sample's macro definitions and includes
body = re.sub(r"#define CHECK_\w+\(func\)(?:.*\\\n)*.*\n", "", body)
uses_cublas = "#include <cublas_v2.h>" in body
body = re.sub(r"#include <(cuda_runtime_api|cusparse|cuda_runtime|cublas_v2)\.h>[^\n]*\n", "", body)
body = re.sub(r"#include <stdio.h>[^\n]*\n|#include <stdlib.h>[^\n]*\n", "", body)
# the CUDA runtime's memory calls become the host-memory helpers of trnsparse_samples_port.h
for a, b in [("CHECK_CUDA", "CHECK_PORT"), ("cudaMalloc", "port_malloc"), ("cudaMemcpyHostToDevice", "PORT_HOST_TO_DEVICE"),
             ("cudaMemcpyDeviceToHost", "PORT_DEVICE_TO_HOST"), ("cudaMemcpyDeviceToDevice", "PORT_DEVICE_TO_DEVICE"),
             ("cudaMemcpy", "port_memcpy"), ("cudaMemset", "port_memset"), ("cudaFree", "port_free")]:
    body = body.replace(a, b)
for a, b in [("cusparse", "trnsparse"), ("CUSPARSE", "TRNSPARSE"), ("cublas", "trnblas"), ("CUBLAS", "TRNBLAS"), ("CUDA_R_", "TRN_R_"), ("CUDA_C_", "TRN_C_"),
             ("cuDoubleComplex", "trnDoubleComplex"), ("cuComplex", "trnComplex"), ("cudaDataType", "trnDataType_t")]:
    body = body.replace(a, b)
for m in re.finditer(r"h(\w)_csrOffsets\[\]\s*=\s*\{([^}]*)\}", body):
    last = m.group(2).split(",")[-1].strip()
    body = re.sub(r"(const int\s+%s_nnz\s*=\s*)\d+;" % m.group(1), r"\g<1>%s;" % last, body)
body = body.replace("int main(void)", "int trnsparse_sample_%s(void)" % name)
# A sample whose main takes (argc, argv) and refuses arguments (cg, bicgstab): its main becomes a
# static sample_main, called with its own name as the only argument.
if "int main(int argc, char** argv)" in body:
    body = body.replace("int main(int argc, char** argv)", "static int sample_main(int argc, char** argv)")
    body = body.rstrip() + ("\n\nint trnsparse_sample_%s(void) {\n    char program[] = \"%s_example\";\n"
                            "    char* argv[] = {program, NULL};\n    return sample_main(1, argv);\n}\n" % (name, name))
body = re.sub(r"[ \t]+\n", "\n", body)
body = re.sub(r"\n{3,}", "\n\n", body)
print(head + "\n/* Ported to trnsparse on host memory by tests/trnsparse/samples/port.py (" + name + "). */\n"
      + ('#include "trnblas.h"\n' if uses_cublas else "") + '#include "trnsparse_samples_port.h"\n' + body, end="")
