"""trnsci.sparse: trnsparse from scipy.sparse (docs/python.md).

Sparse operands are scipy.sparse CSR or BSR matrices/arrays (csr_matrix, csr_array, bsr_matrix,
bsr_array), read in place when their indices are sorted int32 (otherwise a sorted int32 copy of the
index arrays is made; values are never converted).  Dense operands are numpy arrays of the sparse
operand's dtype (C- or Fortran-ordered).

* spmv / spmm: float32 and complex64 values run trnsparse's TensorE path (CSR is blocked into 128 x 128
  BSR tiles per call; complex64 through the real 2 x 2 embedding); float64 / complex128 BSR run its
  Ozaki block products and float64 / complex128 CSR its TensorE row groups (trnblas's fp64 GEMV slice
  pairs for SpMV, Ozaki GEMMs for SpMM; docs/trnsparse.md).
* sddmm: float32, float64, complex64, complex128 (pattern CSR or BSR; the dense operands of its dtype).
* cg / bicgstab / gmres: scipy.sparse.linalg-like signatures on float32 operators (float64 / complex64 /
  complex128 BSR too: trnsparse's generic solvers on its Ozaki / embedding SpMV, M None or "jacobi"); a CSR operator is
  converted to BSR (square blocks, ``blocksize=`` or the largest of 32, 16, 8, 4, 2, 1 dividing n)
  before the call; M is None, "jacobi" or "block_jacobi" (trnsparse's preconditioners); the stopping
  test is ||r|| <= rtol ||b|| (scipy's legacy atol=None meaning; other atol values raise).

Every routine takes target= and cores= and profile=True (also return the call's Profile).
"""
import types

import numpy as np

from . import _core
from ._call import finish, settings_of
from .errors import InvalidArgumentError

_OPS = {False: 0, None: 0, "N": 0, "n": 0, True: 1, "T": 1, "t": 1, "C": 2, "c": 2, "H": 2, "h": 2}
_PRECONDS = {None: 0, "none": 0, "jacobi": 1, "block_jacobi": 2}


def _op(trans, routine, position):
    try:
        return _OPS[trans]
    except (KeyError, TypeError):
        raise InvalidArgumentError(routine, position, "trans", f"must be False/'N', True/'T' or 'C', got {trans!r}") from None


def _index32(a, routine, position, name):
    a = np.asarray(a)
    if a.dtype == np.int32:
        return a
    if a.size and (a.min() < 0 or a.max() > np.iinfo(np.int32).max):
        raise InvalidArgumentError(routine, position, name, "indices do not fit int32")
    return a.astype(np.int32)


def _operand(a, routine, position, name="a"):
    """The scipy.sparse CSR/BSR operand as the binding reads it (format, shape, int32 sorted indices, data)."""
    fmt = getattr(a, "format", None)
    if fmt not in ("csr", "bsr") or not hasattr(a, "indptr"):
        raise InvalidArgumentError(routine, position, name,
                                   f"expected a scipy.sparse CSR or BSR matrix, got {type(a).__name__}"
                                   + (f" (format {fmt!r}: convert with .tocsr())" if fmt else ""))
    if not a.has_sorted_indices:
        a = a.sorted_indices()
    return types.SimpleNamespace(format=fmt, shape=tuple(a.shape), indptr=_index32(a.indptr, routine, position, name),
                                 indices=_index32(a.indices, routine, position, name), data=a.data)


def spmv(a, x, y=None, *, alpha=1.0, beta=0.0, trans=False, target=None, cores=None, profile=False):
    """alpha op(a) @ x + beta y (y updated in place when given, else a new array); trans: 'N', 'T', 'C'."""
    return finish(_core.sparse.spmv(_operand(a, "spmv", 1), x, y, alpha, beta, _op(trans, "spmv", 6),
                                    settings_of(target, cores)), profile)


def spmm(a, b, c=None, *, alpha=1.0, beta=0.0, trans=False, target=None, cores=None, profile=False):
    """alpha op(a) @ b + beta c for a dense 2-D b (c updated in place when given, else a new array)."""
    return finish(_core.sparse.spmm(_operand(a, "spmm", 1), b, c, alpha, beta, _op(trans, "spmm", 6),
                                    settings_of(target, cores)), profile)


def sddmm(a, b, pattern, *, alpha=1.0, beta=0.0, target=None, cores=None, profile=False):
    """alpha (a @ b) sampled on pattern's stored entries + beta pattern: a new sparse matrix of
    pattern's type and structure (a, b dense arrays of pattern's dtype; pattern CSR or BSR)."""
    p = _operand(pattern, "sddmm", 3, "pattern")
    values, prof = _core.sparse.sddmm(a, b, p, alpha, beta, settings_of(target, cores))
    out = type(pattern)((values, p.indices.copy(), p.indptr.copy()), shape=p.shape)
    return (out, prof) if profile else out


def _square_block(n):
    for b in (32, 16, 8, 4, 2, 1):
        if n % b == 0:
            return b
    return 1  # pragma: no cover


def _krylov(which, A, b, x0, rtol, tol, atol, maxiter, M, callback, blocksize, restart, return_history, target, cores,
            profile):
    if callback is not None:
        raise InvalidArgumentError(which, 8, "callback", "not supported (the solve runs in one library call); "
                                   "use return_history=True for the residual history")
    if atol not in (None, 0, 0.0):
        raise InvalidArgumentError(which, 7, "atol", "trnsparse stops on ||r|| <= rtol ||b|| only (atol=None)")
    if M not in _PRECONDS:
        raise InvalidArgumentError(which, 6, "M", f"must be None, 'jacobi' or 'block_jacobi', got {M!r}")
    rtol = tol if tol is not None else rtol
    if getattr(A, "format", None) == "csr":
        bs = blocksize or _square_block(A.shape[0])
        if A.shape[0] % bs or A.shape[1] % bs:
            raise InvalidArgumentError(which, 1, "A", f"blocksize {bs} does not divide the shape {A.shape}")
        A = A.tobsr(blocksize=(bs, bs))
    n = A.shape[0] if hasattr(A, "shape") else 0
    if maxiter is None:
        maxiter = 10 * n
    steps = maxiter * restart if which == "gmres" else maxiter  # scipy's gmres counts restart cycles
    x, iters, info, hist, prof = _core.sparse.krylov(which, _operand(A, which, 1, "A"), b, x0, float(rtol), int(steps),
                                                      int(restart), _PRECONDS[M], settings_of(target, cores))
    code = 0 if info == 0 else (iters if info == 1 else -1)  # scipy: > 0 not converged, < 0 breakdown
    out = (x, code, hist) if return_history else (x, code)
    return (out, prof) if profile else out


def cg(A, b, x0=None, *, rtol=1e-5, tol=None, atol=None, maxiter=None, M=None, callback=None, blocksize=None,
       return_history=False, target=None, cores=None, profile=False):
    """Conjugate gradients for a symmetric positive definite A: (x, info) as scipy.sparse.linalg.cg
    (info 0 converged, > 0 iterations done without converging, -1 breakdown: p^T A p <= 0)."""
    return _krylov("cg", A, b, x0, rtol, tol, atol, maxiter, M, callback, blocksize, 1, return_history, target, cores,
                   profile)


def bicgstab(A, b, x0=None, *, rtol=1e-5, tol=None, atol=None, maxiter=None, M=None, callback=None, blocksize=None,
             return_history=False, target=None, cores=None, profile=False):
    """BiCGStab (right-preconditioned): (x, info) as scipy.sparse.linalg.bicgstab."""
    return _krylov("bicgstab", A, b, x0, rtol, tol, atol, maxiter, M, callback, blocksize, 1, return_history, target,
                   cores, profile)


def gmres(A, b, x0=None, *, rtol=1e-5, tol=None, restart=20, atol=None, maxiter=None, M=None, callback=None,
          blocksize=None, return_history=False, target=None, cores=None, profile=False):
    """Restarted GMRES(restart) (right Jacobi preconditioning when M='jacobi'): (x, info) as
    scipy.sparse.linalg.gmres; maxiter counts restart cycles (scipy's meaning), info > 0 the Arnoldi
    steps done without converging."""
    return _krylov("gmres", A, b, x0, rtol, tol, atol, maxiter, M, callback, blocksize, restart or 20, return_history,
                   target, cores, profile)
