"""trnsci.blas: bits equal to the C calls (ctypes), values close to numpy's."""
import ctypes

import numpy as np
import pytest

import trnsci
from conftest import bits_equal

c_int64 = ctypes.c_int64


def c_gemm(capi, fn, a, b, alpha, beta, dtype, compute=None):
    """The column-major C call a C program makes for C = alpha A B + beta*0 (A, B Fortran-ordered)."""
    A, B = np.asfortranarray(a), np.asfortranarray(b)
    m, k = A.shape
    n = B.shape[1]
    C = np.zeros((m, n), dtype=dtype, order="F")
    h = capi.blas_handle()
    sa, sb = np.array([alpha], dtype=dtype), np.array([beta], dtype=dtype)
    if compute is None:
        st = getattr(capi.blas, fn)(h, 0, 0, c_int64(m), c_int64(n), c_int64(k), capi.ptr(sa), capi.ptr(A), c_int64(m),
                                   capi.ptr(B), c_int64(k), capi.ptr(sb), capi.ptr(C), c_int64(m))
    else:
        t = 0  # TRN_R_32F
        st = capi.blas.trnblasGemmEx_64(h, 0, 0, c_int64(m), c_int64(n), c_int64(k), capi.ptr(sa), capi.ptr(A), t,
                                        c_int64(m), capi.ptr(B), t, c_int64(k), capi.ptr(sb), capi.ptr(C), t, c_int64(m),
                                        compute, -1)
    capi.blas.trnblasDestroy(h)
    assert st == 0
    return C


@pytest.mark.parametrize("dtype, fn", [(np.float32, "trnblasSgemm_64"), (np.float64, "trnblasDgemm_64"),
                                       (np.complex64, "trnblasCgemm_64"), (np.complex128, "trnblasZgemm_64")])
def test_gemm_bits_equal_c_api(capi, rng, dtype, fn):
    a = rng.standard_normal((40, 30)).astype(dtype)
    b = rng.standard_normal((30, 20)).astype(dtype)
    if np.iscomplexobj(a):
        a = a + 1j * rng.standard_normal(a.shape).astype(dtype)
        b = b + 1j * rng.standard_normal(b.shape).astype(dtype)
    ref = c_gemm(capi, fn, a, b, 1.0, 0.0, dtype)
    # Fortran-ordered operands: the same C call, zero copies; C-ordered: read through op T.
    got_f = trnsci.blas.gemm(np.asfortranarray(a), np.asfortranarray(b))
    got_c = trnsci.blas.gemm(a, b)
    assert bits_equal(got_f, ref)
    assert bits_equal(got_c, ref)
    tol = 1e-5 if dtype in (np.float32, np.complex64) else 1e-13
    assert np.abs(got_c - a @ b).max() <= tol * np.abs(a).max() * np.abs(b).max() * 30


def test_dgemm_is_ozaki_fp64_class(rng):
    a, b = rng.standard_normal((64, 64)), rng.standard_normal((64, 64))
    c, prof = trnsci.blas.gemm(a, b, profile=True)
    assert np.linalg.norm(c - a @ b) / np.linalg.norm(a @ b) < 1e-14
    assert prof.busy_ns["tensor"] > 0  # the products ran on the emulated TensorE


@pytest.mark.parametrize("mode, compute", [("bf16", 75), ("bf16x3", 1002), ("tf32", 77), ("fp32", 69)])
def test_gemm_modes_bits_and_bands(capi, rng, mode, compute):
    a = rng.uniform(-1, 1, (48, 64)).astype(np.float32)
    b = rng.uniform(-1, 1, (64, 32)).astype(np.float32)
    got = trnsci.blas.gemm(np.asfortranarray(a), np.asfortranarray(b), mode=mode)
    assert bits_equal(got, c_gemm(capi, None, a, b, 1.0, 0.0, np.float32, compute))
    err = np.linalg.norm(got - a.astype(np.float64) @ b) / np.linalg.norm(a.astype(np.float64) @ b)
    assert err < {"bf16": 1e-2, "bf16x3": 3e-5, "tf32": 2e-3, "fp32": 1e-6}[mode]
    assert mode in trnsci.blas.modes()


def test_gemm_c_ordered_output_alpha_beta_trans(rng):
    a = rng.standard_normal((20, 30)).astype(np.float32)
    b = rng.standard_normal((40, 30)).astype(np.float32)
    c0 = rng.standard_normal((20, 40)).astype(np.float32)
    c = c0.copy()
    out = trnsci.blas.gemm(a, b, c, alpha=2.0, beta=0.5, trans_b=True)
    assert out is c or np.shares_memory(out, c)
    assert np.allclose(c, 2 * a @ b.T + 0.5 * c0, atol=1e-4)
    x = (rng.standard_normal((8, 5)) + 1j * rng.standard_normal((8, 5))).astype(np.complex64)
    assert np.allclose(trnsci.blas.gemm(x, x, trans_a="C"), x.conj().T @ x, atol=1e-4)


def test_bf16_gemm_and_helpers(rng):
    a = rng.uniform(-1, 1, (32, 16)).astype(np.float32)
    b = rng.uniform(-1, 1, (16, 24)).astype(np.float32)
    a16, b16 = trnsci.bf16.from_float32(a), trnsci.bf16.from_float32(b)
    assert a16.dtype == np.uint16 and a16.shape == a.shape
    ar, br = trnsci.bf16.to_float32(a16), trnsci.bf16.to_float32(b16)
    assert np.abs(ar - a).max() <= 2.0 ** -8
    c = trnsci.blas.gemm(a16, b16)
    assert c.dtype == np.float32
    assert np.allclose(c, ar.astype(np.float64) @ br, atol=1e-5)
    # bf16 x bf16 products are exact, so bf16 inputs and mode='bf16' of their float32 values agree
    assert bits_equal(c, trnsci.blas.gemm(ar, br, mode="bf16"))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_level3_and_level2(rng, dtype):
    a = rng.standard_normal((24, 10)).astype(dtype)
    tol = 1e-4 if dtype == np.float32 else 1e-11
    s = trnsci.blas.syrk(a)
    assert np.allclose(np.tril(s), np.tril(a @ a.T), atol=tol)
    s_up = trnsci.blas.syrk(a, trans=True, lower=False)
    assert np.allclose(np.triu(s_up), np.triu(a.T @ a), atol=tol)
    t = np.tril(rng.standard_normal((12, 12))).astype(dtype) + 4 * np.eye(12, dtype=dtype)
    rhs = rng.standard_normal((12, 5)).astype(dtype)
    x = trnsci.blas.trsm(t, rhs)
    assert np.allclose(t @ x, rhs, atol=tol * 10)
    x2 = trnsci.blas.trsm(t, rhs.T.copy(), side="right", trans=True, alpha=2.0)
    assert np.allclose(x2 @ t.T, 2 * rhs.T, atol=tol * 10)
    v = rng.standard_normal(10).astype(dtype)
    w = rng.standard_normal(24).astype(dtype)
    assert np.allclose(trnsci.blas.gemv(a, v), a @ v, atol=tol)
    assert np.allclose(trnsci.blas.gemv(a, w, trans=True), a.T @ w, atol=tol)
    assert np.allclose(trnsci.blas.dot(w, w), w @ w, rtol=tol)
    assert np.allclose(trnsci.blas.axpy(3.0, w, w), 4 * w, atol=tol)
    assert np.allclose(trnsci.blas.scal(0.5, w), 0.5 * w)


def test_complex_dot_vdot(rng):
    x = (rng.standard_normal(50) + 1j * rng.standard_normal(50)).astype(np.complex128)
    y = (rng.standard_normal(50) + 1j * rng.standard_normal(50)).astype(np.complex128)
    assert np.allclose(trnsci.blas.dot(x, y), np.dot(x, y), atol=1e-12)
    assert np.allclose(trnsci.blas.vdot(x, y), np.vdot(x, y), atol=1e-12)


def test_blas_bad_inputs(rng):
    a = rng.standard_normal((8, 8)).astype(np.float32)
    with pytest.raises(trnsci.InvalidArgumentError, match="inner dimensions"):
        trnsci.blas.gemm(a, rng.standard_normal((7, 3)).astype(np.float32))
    with pytest.raises(trnsci.InvalidArgumentError, match="differs"):
        trnsci.blas.gemm(a, a.astype(np.float64))
    with pytest.raises(trnsci.InvalidArgumentError, match="unknown GEMM mode"):
        trnsci.blas.gemm(a, a, mode="fp128")
    with pytest.raises(trnsci.InvalidArgumentError, match="read-only"):
        c = np.zeros((8, 8), np.float32)
        c.setflags(write=False)
        trnsci.blas.gemm(a, a, c)
    with pytest.raises(trnsci.InvalidArgumentError, match="complex scalar"):
        trnsci.blas.gemm(a, a, alpha=1j)
