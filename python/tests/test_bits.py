"""Every Python entry point against the C call it stands for, bit for bit (ctypes on the same shared
libraries): the BLAS Level 1/2/3 routines beyond GEMM, every FFT form (C2C/R2C/C2R, 2-D/n-D, the
Hermitian forms, DCT/DST through their symmetric extensions), and the solver's LU, LU solve,
mixed-precision refinement, QR, eigh and SVD.  GEMM, potrf/Zpotrf, SpMV, einsum and the trnrand
streams have their own bit tests in test_blas/test_solver/test_sparse/test_tensor/test_rand; SpMM,
SDDMM, the Krylov solvers and einsum_path are compared in test_sparse_bits.py.

The C calls are written here from the C API's documentation (column-major, the CUDA libraries'
argument order), independently of the binding's code: Fortran-ordered operands, so the C call is
the one a C program makes."""
import ctypes
from ctypes import byref, c_int, c_int64, c_longlong, c_size_t

import numpy as np
import pytest

import trnsci
from conftest import bits_equal

P = {np.float32: "S", np.float64: "D", np.complex64: "C", np.complex128: "Z"}
DTYPES = list(P)


def rand(rng, shape, dtype, order="F"):
    a = rng.standard_normal(shape)
    if np.issubdtype(dtype, np.complexfloating):
        a = a + 1j * rng.standard_normal(shape)
    return np.asarray(a, dtype=dtype, order=order)


def scalar(v, dtype):
    return np.array([v], dtype=dtype)


# ---- BLAS ------------------------------------------------------------------------------------------

def blas_call(capi, name, *args):
    h = capi.blas_handle()
    try:
        assert getattr(capi.blas, name)(h, *args) == 0, name
    finally:
        capi.blas.trnblasDestroy(h)


@pytest.mark.parametrize("dtype", DTYPES)
def test_syrk_trsm_gemv_bits(capi, rng, dtype):
    p, ptr = P[dtype], capi.ptr
    n, k = 20, 13
    a = rand(rng, (n, k), dtype)
    al, be = scalar(1.5, dtype), scalar(0.0, dtype)
    C = np.zeros((n, n), dtype=dtype, order="F")
    blas_call(capi, f"trnblas{p}syrk_64", 0, 0, c_int64(n), c_int64(k), ptr(al), ptr(a), c_int64(n), ptr(be), ptr(C),
              c_int64(n))
    got = trnsci.blas.syrk(a, np.zeros((n, n), dtype=dtype, order="F"), alpha=1.5)
    assert bits_equal(np.tril(got), np.tril(C))

    t = np.asfortranarray(np.tril(rand(rng, (n, n), dtype)) + 4 * np.eye(n, dtype=dtype))
    b = rand(rng, (n, 7), dtype)
    B = b.copy(order="F")
    blas_call(capi, f"trnblas{p}trsm_64", 0, 0, 0, 0, c_int64(n), c_int64(7), ptr(al), ptr(t), c_int64(n), ptr(B),
              c_int64(n))
    assert bits_equal(trnsci.blas.trsm(t, b, alpha=1.5, side="left", lower=True), B)

    m = rand(rng, (n, k), dtype)
    x = rand(rng, (k,), dtype)
    y = np.zeros(n, dtype=dtype)
    blas_call(capi, f"trnblas{p}gemv_64", 0, c_int64(n), c_int64(k), ptr(al), ptr(m), c_int64(n), ptr(x), c_int64(1),
              ptr(be), ptr(y), c_int64(1))
    assert bits_equal(trnsci.blas.gemv(m, x, alpha=1.5), y)


@pytest.mark.parametrize("dtype", DTYPES)
def test_level1_bits(capi, rng, dtype):
    p, ptr = P[dtype], capi.ptr
    n = 300
    x, y = rand(rng, (n,), dtype), rand(rng, (n,), dtype)
    complex_ = np.issubdtype(dtype, np.complexfloating)
    for conj, name in ((False, "dotu" if complex_ else "dot"), (True, "dotc" if complex_ else "dot")):
        r = np.zeros(1, dtype=dtype)
        blas_call(capi, f"trnblas{p}{name}_64", c_int64(n), ptr(x), c_int64(1), ptr(y), c_int64(1), ptr(r))
        got = trnsci.blas.vdot(x, y) if conj else trnsci.blas.dot(x, y)
        assert bits_equal(got.reshape(1), r)
    al = scalar(0.75 - (0.5j if complex_ else 0), dtype)
    Y = y.copy()
    blas_call(capi, f"trnblas{p}axpy_64", c_int64(n), ptr(al), ptr(x), c_int64(1), ptr(Y), c_int64(1))
    assert bits_equal(trnsci.blas.axpy(al[0], x, y), Y)
    X = x.copy()
    blas_call(capi, f"trnblas{p}scal_64", c_int64(n), ptr(al), ptr(X), c_int64(1))
    assert bits_equal(trnsci.blas.scal(al[0], x), X)


# ---- FFT -------------------------------------------------------------------------------------------

_FFT_TYPES = {("c2c", np.complex64): 0x29, ("c2c", np.complex128): 0x69, ("r2c", np.float32): 0x2a,
              ("r2c", np.float64): 0x6a, ("c2r", np.complex64): 0x2c, ("c2r", np.complex128): 0x6c}


def c_fft(capi, kind, x, rank, direction=-1, n_last=None):
    """One MakePlanMany64 over the trailing `rank` dims of a C-contiguous x (batch: the leading dims)."""
    lib, x = capi.fft, np.ascontiguousarray(x)
    dims = list(x.shape[x.ndim - rank:])
    if kind == "c2r":
        dims[-1] = n_last
    batch = int(np.prod(x.shape[:x.ndim - rank]))
    cdt = np.complex64 if x.dtype in (np.float32, np.complex64) else np.complex128
    rdt = np.float32 if cdt == np.complex64 else np.float64
    oshape = list(x.shape)
    if kind == "r2c":
        oshape[-1], odt = dims[-1] // 2 + 1, cdt
    elif kind == "c2r":
        oshape[-1], odt = n_last, rdt
    else:
        odt = cdt
    out = np.zeros(oshape, dtype=odt)
    plan, work = ctypes.c_void_p(), c_size_t()
    assert lib.trnfftCreate(byref(plan)) == 0
    n = (c_longlong * rank)(*dims)
    t = _FFT_TYPES[(kind, x.dtype.type)]
    assert lib.trnfftMakePlanMany64(plan, rank, n, None, 1, 0, None, 1, 0, t, c_longlong(batch), byref(work)) == 0
    ptr = capi.ptr
    if kind == "c2c":
        fn = lib.trnfftExecC2C if cdt == np.complex64 else lib.trnfftExecZ2Z
        st = fn(plan, ptr(x), ptr(out), direction)
    elif kind == "r2c":
        st = (lib.trnfftExecR2C if rdt == np.float32 else lib.trnfftExecD2Z)(plan, ptr(x), ptr(out))
    else:
        st = (lib.trnfftExecC2R if rdt == np.float32 else lib.trnfftExecZ2D)(plan, ptr(x), ptr(out))
    lib.trnfftDestroy(plan)
    assert st == 0
    return out


@pytest.mark.parametrize("cdt", [np.complex64, np.complex128])
def test_fft_family_bits(capi, rng, cdt):
    rdt = np.float32 if cdt == np.complex64 else np.float64
    z = rand(rng, (3, 12, 10), cdt, order="C")
    r = rand(rng, (3, 12, 10), rdt, order="C")
    f = trnsci.fft
    # norm="backward" forward transforms and norm="forward" inverse ones are unscaled: the C call's bits.
    assert bits_equal(f.fft(z), c_fft(capi, "c2c", z, 1))
    assert bits_equal(f.ifft(z, norm="forward"), c_fft(capi, "c2c", z, 1, +1))
    assert bits_equal(f.fft2(z), c_fft(capi, "c2c", z, 2))
    assert bits_equal(f.fftn(z), c_fft(capi, "c2c", z, 3))
    assert bits_equal(f.ifftn(z, norm="forward"), c_fft(capi, "c2c", z, 3, +1))
    assert bits_equal(f.rfft(r), c_fft(capi, "r2c", r, 1))
    assert bits_equal(f.rfft2(r), c_fft(capi, "r2c", r, 2))
    assert bits_equal(f.rfftn(r), c_fft(capi, "r2c", r, 3))
    h = f.rfftn(r)
    assert bits_equal(f.irfft(h, 10, norm="forward"), c_fft(capi, "c2r", h, 1, n_last=10))
    assert bits_equal(f.irfft2(h, (12, 10), norm="forward"), c_fft(capi, "c2r", h, 2, n_last=10))
    assert bits_equal(f.irfftn(h, (3, 12, 10), norm="forward"), c_fft(capi, "c2r", h, 3, n_last=10))
    # hfft = irfft of the conjugate (exact), ihfft = conj of rfft (scipy's definitions)
    assert bits_equal(f.hfft(h, 10), c_fft(capi, "c2r", np.conj(h), 1, n_last=10))  # backward: irfft unscaled
    assert bits_equal(f.ihfft(r, norm="forward"), np.conj(c_fft(capi, "r2c", r, 1)))
    # an axis that is not the last: moved to the end (a copy), the same C call
    assert bits_equal(f.fft(z, axis=1), np.moveaxis(c_fft(capi, "c2c", np.moveaxis(z, 1, -1), 1), -1, 1))


def _dct2_extension(x):
    """DCT-II's input to the R2C: z_{2n+1} = z_{4N-2n-1} = x_n (written out for the test)."""
    n = x.shape[-1]
    z = np.zeros(x.shape[:-1] + (4 * n,), dtype=x.dtype)
    for i in range(n):
        z[..., 2 * i + 1] = x[..., i]
        z[..., 4 * n - 2 * i - 1] = x[..., i]
    return z


def _dst4_extension(x):
    """DST-IV's input: z_{2n+1} = -x_n, z_{8N-2n-1} = x_n."""
    n = x.shape[-1]
    z = np.zeros(x.shape[:-1] + (8 * n,), dtype=x.dtype)
    for i in range(n):
        z[..., 2 * i + 1] = -x[..., i]
        z[..., 8 * n - 2 * i - 1] = x[..., i]
    return z


@pytest.mark.parametrize("rdt", [np.float32, np.float64])
def test_dct_dst_bits_equal_the_r2c_of_the_extension(capi, rng, rdt):
    x = rand(rng, (5, 9), rdt, order="C")
    ref = np.ascontiguousarray(c_fft(capi, "r2c", _dct2_extension(x), 1)[..., :9].real)
    assert bits_equal(trnsci.fft.dct(x, 2), ref)
    ref = np.ascontiguousarray(c_fft(capi, "r2c", _dst4_extension(x), 1)[..., 1:18:2].imag)
    assert bits_equal(trnsci.fft.dst(x, 4), ref)


def dct_dst_reference(x, cosine, kind):
    """scipy.fft's unnormalised definitions (the scipy.fft.dct/dst docstrings), evaluated in float64."""
    n = x.shape[-1]
    k = np.arange(n)[:, None]
    j = np.arange(n)[None, :]
    if cosine:
        if kind == 1:
            m = 2 * np.cos(np.pi * k * j / (n - 1))
            m[:, 0], m[:, -1] = 1, (-1.0) ** np.arange(n)
        elif kind == 2:
            m = 2 * np.cos(np.pi * k * (2 * j + 1) / (2 * n))
        elif kind == 3:
            m = 2 * np.cos(np.pi * j * (2 * k + 1) / (2 * n))
            m[:, 0] = 1
        else:
            m = 2 * np.cos(np.pi * (2 * j + 1) * (2 * k + 1) / (4 * n))
    else:
        if kind == 1:
            m = 2 * np.sin(np.pi * (k + 1) * (j + 1) / (n + 1))
        elif kind == 2:
            m = 2 * np.sin(np.pi * (k + 1) * (2 * j + 1) / (2 * n))
        elif kind == 3:
            m = 2 * np.sin(np.pi * (j + 1) * (2 * k + 1) / (2 * n))
            m[:, -1] = (-1.0) ** np.arange(n)
        else:
            m = 2 * np.sin(np.pi * (2 * j + 1) * (2 * k + 1) / (4 * n))
    return x.astype(np.float64) @ m.T


@pytest.mark.parametrize("cosine", [True, False])
@pytest.mark.parametrize("kind", [1, 2, 3, 4])
@pytest.mark.parametrize("rdt, tol", [(np.float64, 1e-13), (np.float32, 2e-6)])
def test_dct_dst_against_the_definitions(rng, cosine, kind, rdt, tol):
    x = rand(rng, (4, 17), rdt, order="C")
    got = (trnsci.fft.dct if cosine else trnsci.fft.dst)(x, kind)
    ref = dct_dst_reference(x, cosine, kind)
    assert got.dtype == rdt
    assert np.abs(got - ref).max() <= tol * np.abs(x).sum(axis=-1).max() * 2
    # the inverse (idct/idst, norm backward) returns x
    back = (trnsci.fft.idct if cosine else trnsci.fft.idst)(got, kind)
    assert np.abs(back - x).max() <= tol * 50 * np.abs(x).max()


# ---- solver ----------------------------------------------------------------------------------------

class Dn:
    def __init__(self, capi):
        self.lib = capi.solver
        self.h = ctypes.c_void_p()
        assert self.lib.trnsolverDnCreate(byref(self.h)) == 0

    def __call__(self, name, *args):
        st = getattr(self.lib, "trnsolverDn" + name)(self.h, *args)
        assert st == 0, name

    def close(self):
        self.lib.trnsolverDnDestroy(self.h)


@pytest.mark.parametrize("dtype", DTYPES)
def test_lu_solve_qr_bits(capi, rng, dtype):
    p, ptr = P[dtype], capi.ptr
    n = 20
    a = rand(rng, (n, n), dtype) + 3 * np.eye(n, dtype=dtype)
    b = rand(rng, (n, 3), dtype)
    dn = Dn(capi)
    A, lw, info = a.copy(order="F"), c_int(), c_int()
    ipiv = np.zeros(n, dtype=np.int32)
    dn(f"{p}getrf_bufferSize", n, n, ptr(A), n, byref(lw))
    work = np.zeros(max(lw.value, 1), dtype=dtype)
    dn(f"{p}getrf", n, n, ptr(A), n, ptr(work), ptr(ipiv), byref(info))
    lu, piv = trnsci.solver.lu_factor(a)
    assert bits_equal(lu, A) and (piv == ipiv - 1).all()
    B = b.copy(order="F")
    dn(f"{p}getrs", 0, n, 3, ptr(A), n, ptr(ipiv), ptr(B), n, byref(info))
    assert bits_equal(trnsci.solver.solve(a, b), B)

    m, k = 25, 12
    q_in = rand(rng, (m, k), dtype)
    Q, tau = q_in.copy(order="F"), np.zeros(k, dtype=dtype)
    dn(f"{p}geqrf_bufferSize", m, k, ptr(Q), m, byref(lw))
    work = np.zeros(max(lw.value, 1), dtype=dtype)
    dn(f"{p}geqrf", m, k, ptr(Q), m, ptr(tau), ptr(work), lw, byref(info))
    R = np.triu(Q[:k])
    org = "ungqr" if np.issubdtype(dtype, np.complexfloating) else "orgqr"
    dn(f"{p}{org}_bufferSize", m, k, k, ptr(Q), m, ptr(tau), byref(lw))
    work = np.zeros(max(lw.value, 1), dtype=dtype)
    dn(f"{p}{org}", m, k, k, ptr(Q), m, ptr(tau), ptr(work), lw, byref(info))
    q, r = trnsci.solver.qr(q_in)
    dn.close()
    assert bits_equal(q, Q) and bits_equal(r, R)


@pytest.mark.parametrize("dtype", DTYPES)
def test_eigh_svd_bits(capi, rng, dtype):
    p, ptr = P[dtype], capi.ptr
    rdt = np.float32 if dtype in (np.float32, np.complex64) else np.float64
    n = 16
    g = rand(rng, (n, n), dtype)
    s = np.asfortranarray(g + g.conj().T)
    dn = Dn(capi)
    A, w, lw, info = s.copy(order="F"), np.zeros(n, dtype=rdt), c_int(), c_int()
    ev = "heevd" if np.issubdtype(dtype, np.complexfloating) else "syevd"
    dn(f"{p}{ev}_bufferSize", 1, 0, n, ptr(A), n, ptr(w), byref(lw))
    work = np.zeros(max(lw.value, 1), dtype=dtype)
    dn(f"{p}{ev}", 1, 0, n, ptr(A), n, ptr(w), ptr(work), lw, byref(info))
    w_py, v_py = trnsci.solver.eigh(s)
    assert bits_equal(w_py, w) and bits_equal(v_py, A)

    m, k = 14, 9
    a = rand(rng, (m, k), dtype)
    A = a.copy(order="F")
    sv, U, V = np.zeros(k, dtype=rdt), np.zeros((m, k), dtype=dtype, order="F"), np.zeros((k, k), dtype=dtype, order="F")
    params = ctypes.c_void_p()
    assert capi.solver.trnsolverDnCreateGesvdjInfo(byref(params)) == 0
    dn(f"{p}gesvdj_bufferSize", 1, 1, m, k, ptr(A), m, ptr(sv), ptr(U), m, ptr(V), k, byref(lw), params)
    work = np.zeros(max(lw.value, 1), dtype=dtype)
    dn(f"{p}gesvdj", 1, 1, m, k, ptr(A), m, ptr(sv), ptr(U), m, ptr(V), k, ptr(work), lw, byref(info), params)
    capi.solver.trnsolverDnDestroyGesvdjInfo(params)
    dn.close()
    u, s_py, vh = trnsci.solver.svd(a)
    assert bits_equal(u, U) and bits_equal(s_py, sv) and bits_equal(vh, V.conj().T)


@pytest.mark.parametrize("dtype, low, fn", [(np.float64, "fp32", "DSgesv"), (np.float64, "bf16", "DBgesv"),
                                            (np.float32, "tf32", "SXgesv"), (np.complex128, "fp32", "ZCgesv"),
                                            (np.complex128, "tf32", "ZYgesv"), (np.complex64, "bf16", "CEgesv")])
def test_refinement_bits(capi, rng, dtype, low, fn):
    ptr, n = capi.ptr, 24
    a = rand(rng, (n, n), dtype) + 6 * np.eye(n, dtype=dtype)
    b = rand(rng, (n, 2), dtype)
    dn = Dn(capi)
    A, B, X = a.copy(order="F"), b.copy(order="F"), np.zeros((n, 2), dtype=dtype, order="F")
    ipiv, nbytes, it, info = np.zeros(n, dtype=np.int32), c_size_t(), c_int(), c_int()
    dn(f"{fn}_bufferSize", n, 2, ptr(A), n, ptr(ipiv), ptr(B), n, ptr(X), n, None, byref(nbytes))
    work = np.zeros(max(nbytes.value, 1), dtype=np.uint8)
    dn(fn, n, 2, ptr(A), n, ptr(ipiv), ptr(B), n, ptr(X), n, ptr(work), nbytes, byref(it), byref(info))
    dn.close()
    x, iters = trnsci.solver.solve(a, b, refine=low, return_iterations=True)
    assert bits_equal(x, X) and iters == it.value


# ---- bf16 helpers (core's f32_to_bf16_rne; no C API: an independent numpy round-to-nearest-even) ----------

def test_bf16_helpers_round_to_nearest_even(rng):
    x = np.concatenate([rng.standard_normal(2000).astype(np.float32) * 1e3,
                        np.array([1.0 + 2.0 ** -8, 1.0 + 3 * 2.0 ** -8, -0.0, np.inf, -np.inf, 3.4e38, 1e-40],
                                 dtype=np.float32)])   # ties to even both ways, signed zero, infinities, overflow
    u = x.view(np.uint32).astype(np.uint64)
    ref = ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)   # RNE on the bits (no NaN in x)
    bits = trnsci.bf16.from_float32(x)
    assert bits.dtype == np.uint16 and (bits == ref).all()
    back = trnsci.bf16.to_float32(bits)
    assert bits_equal(back, (bits.astype(np.uint32) << 16).view(np.float32))
    nan = trnsci.bf16.from_float32(np.array([np.nan], dtype=np.float32))
    assert np.isnan(trnsci.bf16.to_float32(nan)).all()   # a NaN stays a NaN (never rounds to infinity)
    assert bits_equal(trnsci.bf16.round_float32(x), back)
