"""trnsci.blas: one GEMM in every fp32 precision mode, its error against fp64 and its modeled time.

    PYTHONPATH=build/python /usr/bin/python3 examples/python/blas_gemm_modes.py
"""
import numpy as np

import trnsci

rng = np.random.default_rng(0)
a = rng.uniform(-1, 1, (256, 256)).astype(np.float32)
b = rng.uniform(-1, 1, (256, 256)).astype(np.float32)
exact = a.astype(np.float64) @ b
for target in ("trn1", "trn2"):
    for mode in ("bf16", "bf16x3", "bf16x6", "bf16x9", "tf32", "fp32"):
        c, prof = trnsci.blas.gemm(a, b, mode=mode, target=target, profile=True)
        err = np.linalg.norm(c - exact) / np.linalg.norm(exact)
        print(f"{target} {mode:7s} rel. error {err:.2e}  modeled {prof.modeled_us:8.2f} us  roofline x{prof.roofline:.2f}")
d, prof = trnsci.blas.gemm(a.astype(np.float64), b.astype(np.float64), profile=True)
print(f"fp64 (Ozaki) rel. error {np.linalg.norm(d - exact) / np.linalg.norm(exact):.2e}  modeled {prof.modeled_us:.2f} us")
prof.to_perfetto("dgemm_trace.json")
print("Perfetto trace of the dgemm: dgemm_trace.json (ui.perfetto.dev)")
