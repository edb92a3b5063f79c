"""trnsci.sparse's SpMM, SDDMM and Krylov solvers and trnsci.tensor.einsum_path against the C calls
they stand for (ctypes; descriptors built from the C API's documentation): the same bits, the same
plan.  (SpMV and einsum have theirs in test_sparse.py / test_tensor.py.)"""
import ctypes
from ctypes import byref, c_float, c_int, c_int64, c_size_t, c_void_p

import numpy as np
import pytest
import scipy.sparse as sp

import trnsci
from conftest import bits_equal
from test_tensor import c_operands

R32F, IDX32, BASE0, ROW, COL = 0, 2, 0, 2, 1


class Sparse:
    """A trnsparse handle and the descriptors of one call (destroyed by close())."""

    def __init__(self, capi):
        self.lib, self.ptr = capi.sparse, capi.ptr
        self.h = c_void_p()
        assert self.lib.trnsparseCreate(byref(self.h)) == 0
        self.mats, self.dns, self.vecs = [], [], []

    def csr(self, a):
        d, ip, ix = c_void_p(), a.indptr.astype(np.int32), a.indices.astype(np.int32)
        self.keep = getattr(self, "keep", []) + [ip, ix]
        assert self.lib.trnsparseCreateCsr(byref(d), c_int64(a.shape[0]), c_int64(a.shape[1]), c_int64(a.nnz),
                                           self.ptr(ip), self.ptr(ix), self.ptr(a.data), IDX32, IDX32, BASE0, R32F) == 0
        self.mats.append(d)
        return d

    def bsr(self, a):
        d, (br, bc) = c_void_p(), a.blocksize
        ip, ix = a.indptr.astype(np.int32), a.indices.astype(np.int32)
        self.keep = getattr(self, "keep", []) + [ip, ix]
        assert self.lib.trnsparseCreateBsr(byref(d), c_int64(a.shape[0] // br), c_int64(a.shape[1] // bc),
                                           c_int64(len(a.indices)), c_int64(br), c_int64(bc), self.ptr(ip), self.ptr(ix),
                                           self.ptr(a.data), IDX32, IDX32, BASE0, R32F, ROW) == 0
        self.mats.append(d)
        return d

    def dense(self, a):
        d, row = c_void_p(), a.flags.c_contiguous
        ld = a.shape[1] if row else a.shape[0]
        assert self.lib.trnsparseCreateDnMat(byref(d), c_int64(a.shape[0]), c_int64(a.shape[1]), c_int64(ld),
                                             self.ptr(a), R32F, ROW if row else COL) == 0
        self.dns.append(d)
        return d

    def vec(self, v):
        d = c_void_p()
        assert self.lib.trnsparseCreateDnVec(byref(d), c_int64(v.shape[0]), self.ptr(v), R32F) == 0
        self.vecs.append(d)
        return d

    def close(self):
        for d in self.mats:
            self.lib.trnsparseDestroySpMat(d)
        for d in self.dns:
            self.lib.trnsparseDestroyDnMat(d)
        for d in self.vecs:
            self.lib.trnsparseDestroyDnVec(d)
        self.lib.trnsparseDestroy(self.h)


def test_spmm_sddmm_bits_equal_c_api(capi, rng):
    a = sp.random(96, 80, density=0.08, format="csr", random_state=5, dtype=np.float32)
    b = rng.standard_normal((80, 24)).astype(np.float32)
    s = Sparse(capi)
    c = np.zeros((96, 24), dtype=np.float32)
    alpha, beta, nbytes = c_float(1.25), c_float(0.0), c_size_t()
    A, B, C = s.csr(a), s.dense(b), s.dense(c)
    assert s.lib.trnsparseSpMM_bufferSize(s.h, 0, 0, byref(alpha), A, B, byref(beta), C, R32F, 0, byref(nbytes)) == 0
    work = np.zeros(max(nbytes.value, 1), dtype=np.uint8)
    assert s.lib.trnsparseSpMM(s.h, 0, 0, byref(alpha), A, B, byref(beta), C, R32F, 0, s.ptr(work)) == 0
    assert bits_equal(trnsci.sparse.spmm(a, b, alpha=1.25), c)

    pattern = sp.random(96, 24, density=0.2, format="csr", random_state=9, dtype=np.float32)
    pattern.sort_indices()
    x = rng.standard_normal((96, 80)).astype(np.float32)
    out = pattern.copy()
    P, X, Bd = s.csr(out), s.dense(x), s.dense(b)
    assert s.lib.trnsparseSDDMM_bufferSize(s.h, 0, 0, byref(alpha), X, Bd, byref(beta), P, R32F, 0, byref(nbytes)) == 0
    work = np.zeros(max(nbytes.value, 1), dtype=np.uint8)
    assert s.lib.trnsparseSDDMM(s.h, 0, 0, byref(alpha), X, Bd, byref(beta), P, R32F, 0, s.ptr(work)) == 0
    s.close()
    got = trnsci.sparse.sddmm(x, b, pattern, alpha=1.25)
    assert bits_equal(got.data, out.data) and (got.indices == pattern.indices).all()


@pytest.mark.parametrize("which, precond", [("cg", 1), ("bicgstab", 0), ("gmres", 1)])
def test_krylov_bits_equal_c_api(capi, which, precond):
    n = 64
    lap = sp.diags([-1.0, 2.5, -1.0], [-1, 0, 1], shape=(n, n), format="csr", dtype=np.float32)
    a = lap.tobsr(blocksize=(16, 16))
    b = np.linspace(-1.0, 1.0, n).astype(np.float32)
    x = np.zeros(n, dtype=np.float32)
    restart, steps = 8, 40
    hist, iters, info = np.zeros(steps + 1, dtype=np.float32), c_int(), c_int()
    s = Sparse(capi)
    A, vb, vx = s.bsr(a), s.vec(b), s.vec(x)
    tol = c_float(1e-5)
    if which == "gmres":
        st = s.lib.trnsparseBsrGmres(s.h, A, vb, vx, tol, steps, restart, precond, byref(iters), s.ptr(hist), byref(info))
    else:
        fn = s.lib.trnsparseBsrCg if which == "cg" else s.lib.trnsparseBsrBicgstab
        st = fn(s.h, A, vb, vx, tol, steps, precond, byref(iters), s.ptr(hist), byref(info))
    s.close()
    assert st == 0
    M = "jacobi" if precond == 1 else None
    kw = dict(maxiter=steps // restart, restart=restart) if which == "gmres" else dict(maxiter=steps)
    got, code, h = getattr(trnsci.sparse, which)(a, b, rtol=1e-5, M=M, return_history=True, **kw)
    assert bits_equal(got, x)
    assert bits_equal(h, hist[:min(iters.value + 1, steps + 1)])
    assert code == (0 if info.value == 0 else iters.value if info.value == 1 else -1)


@pytest.mark.parametrize("optimize, mode", [("greedy", 1), ("optimal", 2), ("dp", 3)])
def test_einsum_path_equals_c_api(capi, rng, optimize, mode):
    ops = [rng.standard_normal(s).astype(np.float32) for s in ((8, 12), (12, 20), (20, 5), (5, 9))]
    lib = capi.tensor
    h = c_void_p()
    assert lib.trntensorCreate(byref(h)) == 0
    arr, keep = c_operands(ops)
    path = (ctypes.c_int32 * (2 * len(ops)))()
    naive, opt, largest = ctypes.c_double(), ctypes.c_double(), ctypes.c_double()
    st = lib.trntensorEinsumPath(h, b"ij,jk,kl,lm->im", len(ops), arr, mode, path, byref(naive), byref(opt),
                                 byref(largest))
    lib.trntensorDestroy(h)
    assert st == 0
    got = trnsci.tensor.einsum_path("ij,jk,kl,lm->im", *ops, optimize=optimize)
    assert got["path"] == [(path[2 * i], path[2 * i + 1]) for i in range(len(ops) - 1)]
    assert (got["naive_flops"], got["optimized_flops"], got["largest_intermediate"]) == (naive.value, opt.value,
                                                                                        largest.value)


# cudaDataType values (library_types.h) and the ctypes scalar each value type's alpha/beta take.
_VALUE_TYPES = {np.float64: (1, lambda z: ctypes.c_double(z.real)),
                np.complex64: (4, lambda z: (c_float * 2)(z.real, z.imag)),
                np.complex128: (5, lambda z: (ctypes.c_double * 2)(z.real, z.imag))}


@pytest.mark.parametrize("dtype", list(_VALUE_TYPES), ids=lambda t: t.__name__)
def test_sddmm_bits_equal_c_api_every_value_type(capi, rng, dtype):
    """SDDMM in fp64 / complex: trnsci.sparse.sddmm is trnsparseSDDMM's bits, and its values are
    alpha (x @ b) on the pattern within a loose bound (a check that the call did the product)."""
    code, scalar = _VALUE_TYPES[dtype]
    pattern = sp.random(40, 24, density=0.25, format="csr", random_state=3, dtype=np.float64).astype(dtype)
    pattern.sort_indices()
    x, b = (rng.standard_normal(s) + (1j * rng.standard_normal(s) if np.iscomplexobj(dtype(0)) else 0)
            for s in ((40, 16), (16, 24)))
    x, b = x.astype(dtype), b.astype(dtype)
    alpha = 1.25 - (0.5j if np.iscomplexobj(dtype(0)) else 0)
    lib, h, keep = capi.sparse, c_void_p(), []
    assert lib.trnsparseCreate(byref(h)) == 0
    out = pattern.copy()
    P, X, B = c_void_p(), c_void_p(), c_void_p()
    ip, ix = out.indptr.astype(np.int32), out.indices.astype(np.int32)
    keep += [ip, ix]
    assert lib.trnsparseCreateCsr(byref(P), c_int64(40), c_int64(24), c_int64(out.nnz), capi.ptr(ip), capi.ptr(ix),
                                  capi.ptr(out.data), IDX32, IDX32, BASE0, code) == 0
    for d, m in ((X, x), (B, b)):
        assert lib.trnsparseCreateDnMat(byref(d), c_int64(m.shape[0]), c_int64(m.shape[1]), c_int64(m.shape[1]),
                                        capi.ptr(m), code, ROW) == 0
    al, be, nbytes = scalar(alpha), scalar(0.0), c_size_t()
    assert lib.trnsparseSDDMM_bufferSize(h, 0, 0, byref(al), X, B, byref(be), P, code, 0, byref(nbytes)) == 0
    work = np.zeros(max(nbytes.value, 1), dtype=np.uint8)
    assert lib.trnsparseSDDMM(h, 0, 0, byref(al), X, B, byref(be), P, code, 0, capi.ptr(work)) == 0
    lib.trnsparseDestroySpMat(P)
    lib.trnsparseDestroyDnMat(X)
    lib.trnsparseDestroyDnMat(B)
    lib.trnsparseDestroy(h)
    got = trnsci.sparse.sddmm(x, b, pattern, alpha=alpha)
    assert got.dtype == dtype and bits_equal(got.data, out.data) and (got.indices == pattern.indices).all()
    want = (pattern != 0).multiply(alpha * (x.astype(np.complex128) @ b.astype(np.complex128))).tocsr()
    scale = np.finfo(dtype).eps * 16 * 4
    assert abs(got.astype(np.complex128) - want).max() <= scale * abs(want).max()
