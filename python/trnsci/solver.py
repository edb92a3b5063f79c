"""trnsci.solver: trnsolver's dense routines from numpy (float32 / float64 / complex64 / complex128;
docs/python.md).

Every routine factors a Fortran-ordered copy of its input (the column-major layout of the C API; A
itself is never modified).  Breakdowns (devInfo > 0) raise trnsci.errors.LinAlgError (also a
numpy.linalg.LinAlgError).  float64 runs trnsolver's fp64 paths (Ozaki GEMMs on TensorE, panels
as costed host steps); float32 runs fp32 tile kernels; complex64 / complex128 run the C / Z
routines (QR through ungqr, eigh through heevd: Hermitian, real eigenvalues; svd's s is real).
Iterative refinement (solve(refine=)) takes all four types (cuSOLVER's <IO><low>gesv family).
"""
import numpy as np

from . import _core
from ._call import finish, settings_of


def cholesky(a, lower=True, *, target=None, cores=None, profile=False):
    """The Cholesky factor L (lower) or U (upper) of a symmetric positive definite a (potrf)."""
    c, prof = _core.solver.cholesky(a, lower, settings_of(target, cores))
    c = np.tril(c) if lower else np.triu(c)
    return (c, prof) if profile else c


def lu_factor(a, *, target=None, cores=None, profile=False):
    """(lu, piv) as scipy.linalg.lu_factor (getrf; piv 0-based row interchanges)."""
    lu, piv, info, prof = _core.solver.lu_factor(a, settings_of(target, cores))
    out = (lu, piv - 1)
    return (out, prof) if profile else out


def solve(a, b, *, refine=None, return_iterations=False, target=None, cores=None, profile=False):
    """x with a x = b (getrf + getrs), or by mixed-precision iterative refinement: refine='fp32' |
    'fp16' | 'bf16' | 'tf32' (float64: D<low>gesv, fp64 residuals by Ozaki; float32: S<low>gesv;
    complex128: ZCgesv / ZKgesv / ZEgesv / ZYgesv; complex64: CKgesv / CEgesv / CYgesv)."""
    x, iters, prof = _core.solver.solve(a, b, refine, settings_of(target, cores))
    out = (x, iters) if return_iterations else x
    return (out, prof) if profile else out


def qr(a, *, target=None, cores=None, profile=False):
    """Reduced QR (numpy.linalg.qr mode='reduced'): q (m x k), r (k x n) from geqrf + orgqr."""
    q, r, prof = _core.solver.qr(a, settings_of(target, cores))
    return ((q, r), prof) if profile else (q, r)


def eigh(a, lower=True, *, eigvals_only=False, target=None, cores=None, profile=False):
    """Eigenvalues (ascending, real) and eigenvectors (columns) of a symmetric / Hermitian a (syevd / heevd)."""
    w, v, prof = _core.solver.eigh(a, lower, not eigvals_only, settings_of(target, cores))
    out = w if eigvals_only else (w, v)
    return (out, prof) if profile else out


def eigvalsh(a, lower=True, **kw):
    return eigh(a, lower, eigvals_only=True, **kw)


def svd(a, full_matrices=False, compute_uv=True, *, target=None, cores=None, profile=False):
    """SVD by one-sided Jacobi (gesvdj), numpy.linalg.svd's conventions: u, s (descending, real), vh;
    full_matrices=True: u m x m, vh n x n (gesvdj econ=0), else u m x k, vh k x n (econ=1)."""
    u, s, v, prof = _core.solver.svd(a, compute_uv, bool(full_matrices), settings_of(target, cores))
    out = (u, s, v.conj().T) if compute_uv else s
    return (out, prof) if profile else out
