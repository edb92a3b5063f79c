"""trnsci.solver: bits equal to trnsolver's C calls (ctypes) and numpy/scipy references."""
import ctypes

import numpy as np
import pytest
import scipy.linalg

import trnsci
from conftest import bits_equal


@pytest.fixture
def spd(rng):
    a = rng.standard_normal((24, 24))
    return a @ a.T + 24 * np.eye(24)


def test_cholesky_bits_equal_c_potrf(capi, spd):
    lib = capi.solver
    h = ctypes.c_void_p()
    assert lib.trnsolverDnCreate(ctypes.byref(h)) == 0
    A = np.asfortranarray(spd.copy())
    lwork, info = ctypes.c_int(), ctypes.c_int()
    assert lib.trnsolverDnDpotrf_bufferSize(h, 0, 24, capi.ptr(A), 24, ctypes.byref(lwork)) == 0
    work = np.zeros(max(lwork.value, 1))
    assert lib.trnsolverDnDpotrf(h, 0, 24, capi.ptr(A), 24, capi.ptr(work), lwork, ctypes.byref(info)) == 0
    lib.trnsolverDnDestroy(h)
    L = trnsci.solver.cholesky(spd)
    assert bits_equal(L, np.tril(A))
    assert np.abs(L @ L.T - spd).max() < 1e-12 * np.abs(spd).max()


@pytest.mark.parametrize("dtype, tol", [(np.float64, 1e-11), (np.float32, 2e-3)])
def test_factorisations_against_numpy(rng, spd, dtype, tol):
    a = rng.standard_normal((24, 24)).astype(dtype)
    b = rng.standard_normal((24, 2)).astype(dtype)
    x = trnsci.solver.solve(a, b)
    assert np.abs(a @ x - b).max() < tol * 100
    lu, piv = trnsci.solver.lu_factor(a)
    lu_ref, piv_ref = scipy.linalg.lu_factor(a)
    assert (piv == piv_ref).all() and np.abs(lu - lu_ref).max() < tol * 100
    q, r = trnsci.solver.qr(rng.standard_normal((30, 12)).astype(dtype))
    assert q.shape == (30, 12) and r.shape == (12, 12) and np.abs(q.T @ q - np.eye(12)).max() < tol
    s = spd.astype(dtype)
    w, v = trnsci.solver.eigh(s)
    assert np.abs(w - np.linalg.eigvalsh(spd)).max() < tol * np.abs(w).max()
    assert np.abs(s @ v - v * w).max() < tol * np.abs(w).max() * 10
    u, sv, vh = trnsci.solver.svd(a[:, :15])
    assert np.abs(sv - np.linalg.svd(a[:, :15].astype(np.float64), compute_uv=False)).max() < tol * 10
    assert np.abs((u * sv) @ vh - a[:, :15]).max() < tol * 10


def test_mixed_precision_refinement(rng):
    a = rng.standard_normal((32, 32)) + 8 * np.eye(32)
    b = rng.standard_normal(32)
    for low in ("fp32", "bf16", "tf32"):
        (x, iters), prof = trnsci.solver.solve(a, b, refine=low, return_iterations=True, profile=True)
        assert np.abs(a @ x - b).max() < 1e-12 and iters >= 0 and prof.modeled_ns > 0


def test_solver_errors():
    with pytest.raises(trnsci.LinAlgError) as info:
        trnsci.solver.cholesky(-np.eye(4))
    assert info.value.code == 1 and isinstance(info.value, np.linalg.LinAlgError)
    with pytest.raises(trnsci.InvalidArgumentError, match="square"):
        trnsci.solver.eigh(np.zeros((3, 4)))
    with pytest.raises(trnsci.InvalidArgumentError, match="float32, float64"):
        trnsci.solver.qr(np.zeros((3, 3), dtype=np.int64))
    with pytest.raises(trnsci.InvalidArgumentError, match="refine"):
        trnsci.solver.solve(np.eye(3), np.ones(3), refine="fp8")


# ---- complex routines (C/Z potrf, getrf/getrs, geqrf/ungqr, heevd, gesvdj) and full_matrices SVD ----

def test_complex_cholesky_bits_equal_c_zpotrf(capi, rng):
    lib = capi.solver
    a = rng.standard_normal((16, 16)) + 1j * rng.standard_normal((16, 16))
    herm = a @ a.conj().T + 16 * np.eye(16)
    h = ctypes.c_void_p()
    assert lib.trnsolverDnCreate(ctypes.byref(h)) == 0
    A = np.asfortranarray(herm.copy())
    lwork, info = ctypes.c_int(), ctypes.c_int()
    assert lib.trnsolverDnZpotrf_bufferSize(h, 0, 16, capi.ptr(A), 16, ctypes.byref(lwork)) == 0
    work = np.zeros(max(lwork.value, 1), np.complex128)
    assert lib.trnsolverDnZpotrf(h, 0, 16, capi.ptr(A), 16, capi.ptr(work), lwork, ctypes.byref(info)) == 0
    lib.trnsolverDnDestroy(h)
    L = trnsci.solver.cholesky(herm)
    assert info.value == 0 and bits_equal(L, np.tril(A))


@pytest.mark.parametrize("dtype, tol", [(np.complex128, 1e-11), (np.complex64, 2e-3)])
def test_complex_factorisations_against_numpy(rng, dtype, tol):
    n = 20
    a = (rng.standard_normal((n, n)) + 1j * rng.standard_normal((n, n))).astype(dtype)
    herm = (a @ a.conj().T + n * np.eye(n, dtype=dtype)).astype(dtype)
    L = trnsci.solver.cholesky(herm)
    assert L.dtype == dtype and np.abs(L @ L.conj().T - herm).max() < tol * np.abs(herm).max()
    b = (rng.standard_normal((n, 3)) + 1j * rng.standard_normal((n, 3))).astype(dtype)
    x = trnsci.solver.solve(a, b)
    assert x.dtype == dtype and np.abs(x - np.linalg.solve(a, b)).max() < tol * 100 * np.abs(x).max()
    lu, piv = trnsci.solver.lu_factor(a)
    lu_ref, piv_ref = scipy.linalg.lu_factor(a)
    assert (piv == piv_ref).all() and np.abs(lu - lu_ref).max() < tol * 100
    q, r = trnsci.solver.qr(a[:, :12])
    assert q.shape == (n, 12) and np.abs(q.conj().T @ q - np.eye(12)).max() < tol
    assert np.abs(q @ r - a[:, :12]).max() < tol * 10 and np.allclose(r, np.triu(r))
    w, v = trnsci.solver.eigh(herm)
    w_ref = np.linalg.eigvalsh(herm.astype(np.complex128))
    assert w.dtype == np.finfo(dtype).dtype and np.abs(w - w_ref).max() < tol * np.abs(w_ref).max()
    assert np.abs(herm @ v - v * w).max() < tol * np.abs(w_ref).max() * 10
    u, s, vh = trnsci.solver.svd(a[:, :15])
    s_ref = np.linalg.svd(a[:, :15].astype(np.complex128), compute_uv=False)
    assert s.dtype == np.finfo(dtype).dtype and np.abs(s - s_ref).max() < tol * 10 * s_ref[0]
    assert np.abs((u * s) @ vh - a[:, :15]).max() < tol * 10


@pytest.mark.parametrize("dtype, tol", [(np.float64, 1e-12), (np.complex64, 2e-5)])
@pytest.mark.parametrize("shape", [(20, 12), (9, 14)])
def test_svd_full_matrices(rng, dtype, tol, shape):
    m, n = shape
    a = rng.standard_normal(shape).astype(dtype)
    if np.iscomplexobj(a):
        a = a + 1j * rng.standard_normal(shape).astype(dtype)
    (u, s, vh), prof = trnsci.solver.svd(a, full_matrices=True, profile=True)
    u_ref, s_ref, vh_ref = np.linalg.svd(a, full_matrices=True)
    k = min(m, n)
    assert u.shape == u_ref.shape == (m, m) and vh.shape == vh_ref.shape == (n, n) and s.shape == (k,)
    assert np.abs(u.conj().T @ u - np.eye(m)).max() < tol * 10 and np.abs(vh @ vh.conj().T - np.eye(n)).max() < tol * 10
    assert np.abs((u[:, :k] * s) @ vh[:k] - a).max() < tol * 10 * s_ref[0]
    assert np.abs(s - s_ref).max() < tol * 10 * s_ref[0]
    assert prof.routine == "svd"


def test_complex_errors():
    with pytest.raises(trnsci.LinAlgError):
        trnsci.solver.cholesky(-np.eye(4, dtype=np.complex64))
    with pytest.raises(trnsci.InvalidArgumentError, match="refine"):
        trnsci.solver.solve(np.eye(3, dtype=np.complex64), np.ones(3, np.complex64), refine="fp32")
    with pytest.raises(trnsci.InvalidArgumentError, match="complex128"):
        trnsci.solver.svd(np.zeros((3, 3), dtype=np.float16))


@pytest.mark.parametrize("dtype, low, tol", [(np.complex128, "fp32", 1e-12), (np.complex128, "bf16", 1e-12),
                                             (np.complex64, "tf32", 1e-5), (np.complex64, "fp16", 1e-5)])
def test_complex_mixed_precision_refinement(rng, dtype, low, tol):
    """Z<low>gesv / C<low>gesv: the refined solution meets the I/O precision's residual (numpy reference)."""
    n = 32
    a = (rng.standard_normal((n, n)) + 1j * rng.standard_normal((n, n)) + 8 * np.eye(n)).astype(dtype)
    b = (rng.standard_normal((n, 2)) + 1j * rng.standard_normal((n, 2))).astype(dtype)
    (x, iters), prof = trnsci.solver.solve(a, b, refine=low, return_iterations=True, profile=True)
    assert x.dtype == dtype and iters >= 0 and prof.modeled_ns > 0
    ref = np.linalg.solve(a.astype(np.complex128), b.astype(np.complex128))
    assert np.abs(x - ref).max() <= tol * np.abs(ref).max() * 10
