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
    with pytest.raises(trnsci.InvalidArgumentError, match="float32 or float64"):
        trnsci.solver.qr(np.zeros((3, 3), dtype=np.int64))
    with pytest.raises(trnsci.InvalidArgumentError, match="refine"):
        trnsci.solver.solve(np.eye(3), np.ones(3), refine="fp8")
