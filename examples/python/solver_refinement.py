"""trnsci.solver: a float64 solve by bf16 LU + fp64 iterative refinement, eigh, svd, Cholesky.

    PYTHONPATH=build/python /usr/bin/python3 examples/python/solver_refinement.py
"""
import numpy as np

import trnsci

rng = np.random.default_rng(3)
n = 128
a = rng.standard_normal((n, n)) + n ** 0.5 * np.eye(n)
b = rng.standard_normal(n)
for refine in (None, "fp32", "bf16"):
    (x, iters), prof = trnsci.solver.solve(a, b, refine=refine, return_iterations=True, profile=True)
    print(f"refine={refine!s:5s} residual {np.abs(a @ x - b).max():.2e} iterations {iters} modeled {prof.modeled_us:9.1f} us")
spd = a @ a.T
w, v = trnsci.solver.eigh(spd)
print("eigh: max |A v - v w| =", np.abs(spd @ v - v * w).max())
u, s, vh = trnsci.solver.svd(a[:, :64])
print("svd: largest singular values", s[:3])
print("cholesky: |L L^T - A| =", np.abs((lambda l: l @ l.T)(trnsci.solver.cholesky(spd)) - spd).max())
ac = (a + 1j * rng.standard_normal((n, n))).astype(np.complex128)
bc = (b + 1j * rng.standard_normal(n)).astype(np.complex128)
xc, iters = trnsci.solver.solve(ac, bc, refine="fp32", return_iterations=True)  # ZCgesv
print(f"complex128 by complex64 LU + refinement (ZCgesv): residual {np.abs(ac @ xc - bc).max():.2e} iterations {iters}")
