"""Random shapes, dtypes, strides and values into the bindings: every outcome is a result or a Python
exception with a reason, never a crash of the interpreter (a crash fails the whole pytest run)."""
import numpy as np

import trnsci

DTYPES = [np.float32, np.float64, np.complex64, np.complex128, np.int32, np.uint16, np.float16, bool]
EXPECTED = (trnsci.Error, ValueError, TypeError, NotImplementedError, IndexError)


def _array(rng):
    ndim = int(rng.integers(0, 4))
    shape = tuple(int(v) for v in rng.integers(0, 6, ndim))
    a = (rng.standard_normal(shape) * 10).astype(DTYPES[int(rng.integers(0, len(DTYPES)))])
    roll = rng.random()
    if roll < 0.2 and a.ndim >= 1:
        a = a[::2]
    elif roll < 0.3 and a.ndim >= 2:
        a = a.T
    elif roll < 0.4 and a.size and a.dtype.kind == "f":
        a.flat[0] = np.nan
    return a


def _calls(a, b):
    return [
        lambda: trnsci.blas.gemm(a, b),
        lambda: trnsci.blas.gemv(a, b),
        lambda: trnsci.blas.dot(a, b),
        lambda: trnsci.blas.syrk(a),
        lambda: trnsci.blas.trsm(a, b),
        lambda: trnsci.fft.fft(a),
        lambda: trnsci.fft.rfftn(a),
        lambda: trnsci.fft.irfft(a),
        lambda: trnsci.tensor.einsum("ij,jk->ik", a, b),
        lambda: trnsci.tensor.einsum("...i->...", a),
        lambda: trnsci.solver.solve(a, b),
        lambda: trnsci.solver.eigh(a),
        lambda: trnsci.solver.qr(a),
        lambda: trnsci.bf16.to_float32(a),
    ]


def _run_all(calls, outcomes):
    for call in calls:
        try:
            call()
            outcomes["ok"] += 1
        except EXPECTED as exc:
            assert str(exc), "an exception without a reason"
            outcomes["raised"] += 1


def test_random_inputs_never_crash():
    rng = np.random.default_rng(20261205)
    outcomes = {"ok": 0, "raised": 0}
    for _ in range(60):
        a, b = _array(rng), _array(rng)
        _run_all(_calls(a, b), outcomes)
    assert outcomes["ok"] > 0 and outcomes["raised"] > 0


# ---- trnsci.sparse and the complex / full SVD solver bindings (issue #32, session 6) -------------------

def _sparse(rng):
    """A random scipy.sparse operand: CSR or BSR (random block shape), random dtype, sometimes with
    unsorted indices or an empty shape."""
    import scipy.sparse as sp
    m, n = (int(v) for v in rng.integers(0, 40, 2))
    dt = DTYPES[int(rng.integers(0, 4))]
    a = sp.random(m, n, density=float(rng.random()), format="csr", random_state=int(rng.integers(1 << 30)))
    a = a.astype(dt)
    if rng.random() < 0.3 and m and n:
        r, c = int(rng.choice([d for d in (1, 2, 4) if m % d == 0])), int(rng.choice([d for d in (1, 2, 4) if n % d == 0]))
        a = a.tobsr(blocksize=(r, c))
    elif rng.random() < 0.2 and a.nnz > 1:
        a.indices[:2] = a.indices[:2][::-1].copy()
        a.has_sorted_indices = False
    return a


def test_random_sparse_and_solver_inputs_never_crash():
    rng = np.random.default_rng(32)
    outcomes = {"ok": 0, "raised": 0}
    for _ in range(40):
        s, a, b = _sparse(rng), _array(rng), _array(rng)
        calls = [lambda: trnsci.sparse.spmv(s, a), lambda: trnsci.sparse.spmm(s, b, trans=bool(rng.random() < 0.5)),
                 lambda: trnsci.sparse.sddmm(a, b, s), lambda: trnsci.sparse.cg(s, a, maxiter=5),
                 lambda: trnsci.sparse.gmres(s, a, maxiter=2, restart=3, M="jacobi"),
                 lambda: trnsci.solver.svd(a, full_matrices=True), lambda: trnsci.solver.cholesky(a),
                 lambda: trnsci.solver.lu_factor(a)]
        _run_all(calls, outcomes)
    assert outcomes["ok"] > 0 and outcomes["raised"] > 0


# ---- the rest of the entry points: DCT/DST, Hermitian FFTs, Level 1, rand, refine=, explicit einsum paths -----

def test_random_inputs_to_the_other_entry_points_never_crash():
    rng = np.random.default_rng(3232)
    outcomes = {"ok": 0, "raised": 0}
    for _ in range(40):
        a, b = _array(rng), _array(rng)
        kind = int(rng.integers(0, 6))  # 0 and 5: invalid DCT/DST types
        n = int(rng.integers(-1, 5))
        size = tuple(int(v) for v in rng.integers(-1, 4, int(rng.integers(0, 3))))
        low = ["fp32", "fp16", "bf16", "tf32", "fp8", None][int(rng.integers(0, 6))]
        path = [tuple(int(v) for v in rng.integers(0, 3, int(rng.integers(1, 3)))) for _ in range(int(rng.integers(0, 3)))]
        gen = trnsci.rand.Generator(int(rng.integers(0, 1 << 20)))
        calls = [lambda: trnsci.fft.dct(a, kind, n=n or None, norm=["ortho", None, "forward", "bad"][int(rng.integers(0, 4))]),
                 lambda: trnsci.fft.idstn(a, kind, axes=tuple(int(v) for v in rng.integers(-3, 3, 2))),
                 lambda: trnsci.fft.hfft(a), lambda: trnsci.fft.ihfft2(a),
                 lambda: trnsci.blas.vdot(a, b), lambda: trnsci.blas.axpy(1.5, a, b), lambda: trnsci.blas.scal(2.0, a),
                 lambda: gen.normal(0.0, float(rng.standard_normal()), size),
                 lambda: gen.integers(int(rng.integers(-2, 4)), int(rng.integers(-2, 9)), size=size),
                 lambda: gen.poisson(float(rng.standard_normal() * 3), size),
                 lambda: trnsci.solver.solve(a, b, refine=low),
                 lambda: trnsci.tensor.einsum("ij,jk,k->i", a, b, b, optimize=path),
                 lambda: trnsci.tensor.einsum_path("ij,jk->ik", a, b)]
        _run_all(calls, outcomes)
    assert outcomes["ok"] > 0 and outcomes["raised"] > 0
