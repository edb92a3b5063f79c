"""trnsci.sparse: SpMV and SpMM on a scipy.sparse matrix, then CG / BiCGStab / GMRES with
scipy.sparse.linalg's signatures on a 2-D Laplacian (float32, BSR tiles on the emulated TensorE).

    PYTHONPATH=build/python /usr/bin/python3 examples/python/sparse_krylov.py
"""
import numpy as np
import scipy.sparse as sp

import trnsci

rng = np.random.default_rng(5)
a = sp.random(512, 384, density=0.02, format="csr", random_state=5, dtype=np.float32)
x = rng.standard_normal(384).astype(np.float32)
y, prof = trnsci.sparse.spmv(a, x, profile=True)
print(f"spmv: max |y - scipy| = {np.abs(y - a @ x).max():.2e}, modeled {prof.modeled_us:.1f} us ({prof.roofline_engine}-bound)")
b = rng.standard_normal((384, 64)).astype(np.float32)
c, prof = trnsci.sparse.spmm(a, b, profile=True)
print(f"spmm: max |C - scipy| = {np.abs(c - a @ b).max():.2e}, modeled {prof.modeled_us:.1f} us")

n = 32   # 2-D Laplacian on a 32 x 32 grid (1024 unknowns)
t = sp.diags([-1.0, 2.0, -1.0], [-1, 0, 1], shape=(n, n))
lap = (sp.kron(sp.eye(n), t) + sp.kron(t, sp.eye(n))).astype(np.float32).tocsr()
rhs = np.ones(n * n, np.float32)
for solver in (trnsci.sparse.cg, trnsci.sparse.bicgstab, trnsci.sparse.gmres):
    (xs, info, hist), prof = solver(lap, rhs, rtol=1e-5, M="jacobi", return_history=True, profile=True)
    res = np.linalg.norm(lap @ xs - rhs) / np.linalg.norm(rhs)
    print(f"{solver.__name__:8s}: info {info}, {len(hist) - 1} iterations, |b - A x| / |b| = {res:.1e}, "
          f"modeled {prof.modeled_us:.0f} us")
