"""trnsci.sparse: bits equal to trnsparse's C calls (ctypes), values within docs/trnsparse.md's fp32
bound against scipy.sparse in float64, scipy.sparse.linalg-like Krylov solvers, errors as trnsci
exceptions carrying the status and parameter position."""
import ctypes

import numpy as np
import pytest
import scipy.sparse as sp

import trnsci
from conftest import bits_equal

U32 = 2.0 ** -24
I64 = ctypes.c_int64


def _bound(absA, absx, k):
    # docs/trnsparse.md "Accuracy": |y - y_exact| <= 2 (k + 2) u |A||x| elementwise (alpha 1, beta 0)
    return 2 * (k + 2) * U32 * (absA @ absx)


@pytest.fixture
def csr(rng):
    return sp.random(200, 150, density=0.05, format="csr", random_state=7, dtype=np.float32)


def test_spmv_bits_equal_c_api(capi, csr, rng):
    lib = capi.sparse
    x = rng.standard_normal(150).astype(np.float32)
    y = np.zeros(200, np.float32)
    h, A, vx, vy = (ctypes.c_void_p() for _ in range(4))
    assert lib.trnsparseCreate(ctypes.byref(h)) == 0
    ip, ix = csr.indptr.astype(np.int32), csr.indices.astype(np.int32)
    assert lib.trnsparseCreateCsr(ctypes.byref(A), I64(200), I64(150), I64(csr.nnz), capi.ptr(ip), capi.ptr(ix),
                                  capi.ptr(csr.data), 2, 2, 0, 0) == 0
    assert lib.trnsparseCreateDnVec(ctypes.byref(vx), I64(150), capi.ptr(x), 0) == 0
    assert lib.trnsparseCreateDnVec(ctypes.byref(vy), I64(200), capi.ptr(y), 0) == 0
    one, zero = ctypes.c_float(1.0), ctypes.c_float(0.0)
    assert lib.trnsparseSpMV(h, 0, ctypes.byref(one), A, vx, ctypes.byref(zero), vy, 0, 0, None) == 0
    for d in (vx, vy):
        lib.trnsparseDestroyDnVec(d)
    lib.trnsparseDestroySpMat(A)
    lib.trnsparseDestroy(h)
    ours, prof = trnsci.sparse.spmv(csr, x, profile=True)
    assert bits_equal(ours, y) and prof.modeled_ns > 0
    ref = csr.astype(np.float64) @ x.astype(np.float64)
    assert (np.abs(ours - ref) <= _bound(abs(csr).astype(np.float64), np.abs(x.astype(np.float64)), 150)).all()


@pytest.mark.parametrize("fmt", ["csr", "bsr"])
def test_spmv_spmm_within_bound(csr, rng, fmt):
    a = csr if fmt == "csr" else sp.random(192, 160, density=0.1, format="csr", random_state=3,
                                           dtype=np.float32).tobsr(blocksize=(16, 32))
    m, n = a.shape
    a64, abs64 = a.astype(np.float64), abs(a).astype(np.float64)
    x = rng.standard_normal(n).astype(np.float32)
    y = trnsci.sparse.spmv(a, x)
    assert (np.abs(y - a64 @ x) <= _bound(abs64, np.abs(x), n)).all()
    xt = rng.standard_normal(m).astype(np.float32)
    yt = trnsci.sparse.spmv(a, xt, trans="T")
    assert (np.abs(yt - a64.T @ xt) <= _bound(abs64.T, np.abs(xt), m)).all()
    b = np.asfortranarray(rng.standard_normal((n, 5)).astype(np.float32))
    c0 = rng.standard_normal((m, 5)).astype(np.float32)
    c = c0.copy()
    out = trnsci.sparse.spmm(a, b, c, alpha=2.0, beta=0.5)
    assert out is c
    ref = 2.0 * (a64 @ b) + 0.5 * c0
    bound = 2 * (n + 2) * U32 * (2.0 * (abs64 @ np.abs(b)) + 0.5 * np.abs(c0))
    assert (np.abs(c - ref) <= bound).all()


def test_spmv_fp64_and_complex_csr_host_path(csr, rng):
    a = csr.astype(np.float64)
    x = rng.standard_normal(150)
    assert np.abs(trnsci.sparse.spmv(a, x) - a @ x).max() < 1e-13
    az = (csr + 1j * csr).astype(np.complex128)
    xz = rng.standard_normal(200) + 1j * rng.standard_normal(200)
    assert np.abs(trnsci.sparse.spmv(az, xz, trans="C") - az.conj().T @ xz).max() < 1e-13


def test_sddmm_on_pattern(csr, rng):
    a = rng.standard_normal((200, 12)).astype(np.float32)
    b = rng.standard_normal((12, 150)).astype(np.float32)
    s = trnsci.sparse.sddmm(a, b, csr, alpha=1.0, beta=0.0)
    assert type(s) is type(csr) and (s.indices == csr.indices).all() and (s.indptr == csr.indptr).all()
    rows, cols = csr.nonzero()
    ref = (a.astype(np.float64) @ b.astype(np.float64))[rows, cols]
    bound = 2 * 14 * U32 * (np.abs(a.astype(np.float64)) @ np.abs(b.astype(np.float64)))[rows, cols]
    assert (np.abs(np.asarray(s[rows, cols]).ravel() - ref) <= bound).all()


def _laplacian(n):
    return sp.diags([-1.0, 4.0, -1.0], [-1, 0, 1], shape=(n, n), format="csr", dtype=np.float32)


@pytest.mark.parametrize("solver", ["cg", "bicgstab", "gmres"])
@pytest.mark.parametrize("M", [None, "jacobi"])
def test_krylov_like_scipy(rng, solver, M):
    import scipy.sparse.linalg as sla
    n = 96
    A = _laplacian(n) + sp.diags([0.5], [3], shape=(n, n), format="csr", dtype=np.float32) * (solver != "cg")
    b = rng.standard_normal(n).astype(np.float32)
    (x, info, hist), prof = getattr(trnsci.sparse, solver)(A.tocsr(), b, rtol=1e-5, M=M, return_history=True,
                                                           profile=True)
    assert info == 0 and prof.modeled_ns > 0 and hist[0] == pytest.approx(1.0) and hist[-1] <= 1e-5
    ref, ref_info = getattr(sla, solver)(A.astype(np.float64), b.astype(np.float64), tol=1e-10, atol=0.0)
    assert ref_info == 0
    assert np.linalg.norm(A.astype(np.float64) @ x - b) <= 2e-5 * np.linalg.norm(b)
    assert np.abs(x - ref).max() <= 1e-4 * np.abs(ref).max()


def test_krylov_not_converged_and_breakdown():
    n = 64
    b = np.ones(n, np.float32)
    x, info = trnsci.sparse.cg(_laplacian(n), b, maxiter=2)
    assert info == 2  # scipy: > 0 = iterations done without converging
    indefinite = sp.diags([1.0, -3.0, 1.0], [-1, 0, 1], shape=(n, n), format="csr", dtype=np.float32)
    assert trnsci.sparse.cg(indefinite, b)[1] == -1  # breakdown (p^T A p <= 0)


def test_sparse_errors(csr):
    x = np.ones(150, np.float32)
    with pytest.raises(trnsci.InvalidArgumentError) as e:
        trnsci.sparse.spmv(csr, np.ones(149, np.float32))
    assert e.value.param == 2 and "length" in str(e.value)
    with pytest.raises(trnsci.InvalidArgumentError, match="CSR or BSR"):
        trnsci.sparse.spmv(csr.tocoo(), x)
    with pytest.raises(trnsci.InvalidArgumentError, match="differs"):
        trnsci.sparse.spmv(csr, x.astype(np.float64))
    with pytest.raises(trnsci.InvalidArgumentError, match="trans"):
        trnsci.sparse.spmv(csr, x, trans="X")
    # a float64 BSR SpMV runs (trnsparse's Ozaki block path), and so do the BSR Krylov solvers since
    # s10/spgaps (their SpMV is that path); block Jacobi stays the float32 tile path's: NOT_SUPPORTED,
    # raised with the C status name
    bsr64 = sp.random(64, 64, density=0.2, format="csr", random_state=1).tobsr(blocksize=(16, 16))
    y = trnsci.sparse.spmv(bsr64, np.ones(64))
    assert np.allclose(y, bsr64 @ np.ones(64), rtol=1e-13, atol=1e-13)
    spd64 = (bsr64 @ bsr64.T + 10 * sp.eye(64)).tobsr(blocksize=(16, 16))
    x64, info = trnsci.sparse.cg(spd64, np.ones(64), rtol=1e-10)
    assert info == 0 and x64.dtype == np.float64
    assert np.linalg.norm(spd64 @ x64 - np.ones(64)) <= 1e-9 * np.sqrt(64)
    with pytest.raises(trnsci.NotSupportedError) as e:
        trnsci.sparse.cg(spd64, np.ones(64), M="block_jacobi")
    assert e.value.status == "TRNSPARSE_STATUS_NOT_SUPPORTED" and e.value.library == "trnsparse"
    # a zero diagonal with Jacobi: INVALID_VALUE at matA (C parameter 1)
    zero_diag = sp.diags([1.0, 0.0, 1.0], [-1, 0, 1], shape=(64, 64), format="csr", dtype=np.float32)
    with pytest.raises(trnsci.InvalidValueError) as e:
        trnsci.sparse.cg(zero_diag, np.ones(64, np.float32), M="jacobi")
    assert e.value.status == "TRNSPARSE_STATUS_INVALID_VALUE" and e.value.param == 1
    with pytest.raises(trnsci.InvalidArgumentError, match="atol"):
        trnsci.sparse.cg(_laplacian(8), np.ones(8, np.float32), atol=1e-3)
    with pytest.raises(trnsci.InvalidArgumentError, match="'jacobi'"):
        trnsci.sparse.gmres(_laplacian(8), np.ones(8, np.float32), M="ilu")


def test_inconsistent_arrays_raise_before_the_c_call(csr):
    import types
    bad = types.SimpleNamespace(format="csr", shape=csr.shape, indptr=csr.indptr[:-5], indices=csr.indices,
                                data=csr.data, has_sorted_indices=True)
    with pytest.raises(trnsci.InvalidArgumentError, match="indptr"):
        trnsci.sparse.spmv(bad, np.ones(150, np.float32))
    bad = types.SimpleNamespace(format="csr", shape=csr.shape, indptr=csr.indptr, indices=csr.indices,
                                data=csr.data[:-1], has_sorted_indices=True)
    with pytest.raises(trnsci.InvalidArgumentError, match="differ in length"):
        trnsci.sparse.spmv(bad, np.ones(150, np.float32))
