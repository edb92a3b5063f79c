"""trnsci.blas: trnblas from numpy (row-major in, row-major out; docs/python.md).

dtypes: float32 (Sgemm's fp32 unless mode= names another trnblas mode: bf16, bf16x3, bf16x6, bf16x9,
tf32, fp16, fp8_e4m3, fp8_e5m2), float64 (Dgemm: the Ozaki scheme on the emulated engines),
complex64/128, and uint16 arrays of bfloat16 bits (GemmEx bf16 x bf16 -> float32).  C- and
Fortran-ordered operands are read in place (zero copy); other strides raise.  Every routine takes
target= and cores= (overriding trnsci.settings for the call) and profile=True to also return the
call's Profile.
"""
import numpy as np

from . import _core
from ._call import finish, settings_of


def _trans(value, name):
    if value in (False, None, "N", "n"):
        return False, False
    if value in (True, "T", "t"):
        return True, False
    if value in ("C", "c", "H", "h"):
        return True, True
    raise ValueError(f"{name} must be False/'N', True/'T' or 'C', got {value!r}")


def _conj_if(a, conj):
    # op = conjugate transpose: conj(a) transposed (exact; a copy, since the row-major mapping cannot
    # express it in place).
    return np.conj(a) if conj and np.iscomplexobj(a) else a


def modes():
    """The trnblas GEMM mode names mode= accepts (trnsci modes)."""
    return list(_core.blas.modes())


def gemm(a, b, c=None, *, alpha=1.0, beta=0.0, trans_a=False, trans_b=False, mode=None, target=None, cores=None,
         profile=False):
    """alpha op(a) @ op(b) + beta c (c updated in place when given, else a new array)."""
    ta, ca = _trans(trans_a, "trans_a")
    tb, cb = _trans(trans_b, "trans_b")
    return finish(_core.blas.gemm(_conj_if(a, ca), _conj_if(b, cb), c, alpha, beta, ta, tb, mode,
                                  settings_of(target, cores)), profile)


def matmul(a, b, *, mode=None, target=None, cores=None, profile=False):
    """a @ b for 2-D arrays (gemm with alpha 1, beta 0)."""
    return gemm(a, b, mode=mode, target=target, cores=cores, profile=profile)


def syrk(a, c=None, *, alpha=1.0, beta=0.0, trans=False, lower=True, target=None, cores=None, profile=False):
    """alpha op(a) @ op(a).T + beta c; only the lower (or upper) triangle is written (scipy's ?syrk)."""
    t, _ = _trans(trans, "trans")
    return finish(_core.blas.syrk(a, c, alpha, beta, t, lower, settings_of(target, cores)), profile)


def trsm(a, b, *, alpha=1.0, side="left", lower=True, trans=False, unit_diagonal=False, overwrite_b=False,
         target=None, cores=None, profile=False):
    """Solves op(a) x = alpha b (side='left') or x op(a) = alpha b (side='right'), a triangular."""
    if side not in ("left", "right"):
        raise ValueError("side must be 'left' or 'right'")
    t, conj = _trans(trans, "trans")
    return finish(_core.blas.trsm(_conj_if(a, conj), b, alpha, side == "left", lower, t, unit_diagonal, overwrite_b,
                                  settings_of(target, cores)), profile)


def gemv(a, x, y=None, *, alpha=1.0, beta=0.0, trans=False, target=None, cores=None, profile=False):
    """alpha op(a) @ x + beta y."""
    t, conj = _trans(trans, "trans")
    return finish(_core.blas.gemv(_conj_if(a, conj), x, y, alpha, beta, t, settings_of(target, cores)), profile)


def dot(x, y, *, target=None, cores=None, profile=False):
    """x . y (no conjugation; numpy.dot of 1-D arrays); a 0-d array."""
    return finish(_core.blas.dot(x, y, False, settings_of(target, cores)), profile)


def vdot(x, y, *, target=None, cores=None, profile=False):
    """conj(x) . y (numpy.vdot); a 0-d array."""
    return finish(_core.blas.dot(x, y, True, settings_of(target, cores)), profile)


def axpy(alpha, x, y, *, overwrite_y=False, target=None, cores=None, profile=False):
    """alpha x + y."""
    return finish(_core.blas.axpy(alpha, x, y, overwrite_y, settings_of(target, cores)), profile)


def scal(alpha, x, *, overwrite_x=False, target=None, cores=None, profile=False):
    """alpha x."""
    return finish(_core.blas.scal(alpha, x, overwrite_x, settings_of(target, cores)), profile)
