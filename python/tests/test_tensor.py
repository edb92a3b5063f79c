"""trnsci.tensor.einsum: bits equal to trntensorEinsum called through ctypes; numpy's semantics."""
import ctypes

import numpy as np
import pytest

import trnsci
from conftest import bits_equal


class Operand(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("rank", ctypes.c_int32), ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64))]


def c_einsum(capi, subscripts, ops, out_shape):
    lib = capi.tensor
    h = ctypes.c_void_p()
    assert lib.trntensorCreate(ctypes.byref(h)) == 0
    keep, structs = [], []
    for a in ops:
        a = np.ascontiguousarray(a)
        shape = (ctypes.c_int64 * max(a.ndim, 1))(*a.shape)
        keep += [a, shape]
        structs.append(Operand(a.ctypes.data, a.ndim, shape, None))
    arr = (Operand * len(structs))(*structs)
    out = np.zeros(out_shape, dtype=ops[0].dtype)
    oshape = (ctypes.c_int64 * max(len(out_shape), 1))(*out_shape)
    desc = ctypes.c_void_p.in_dll(lib, "TRNTENSOR_COMPUTE_DESC_32F")
    st = lib.trntensorEinsum(h, subscripts.encode(), len(ops), arr, out.ctypes.data_as(ctypes.c_void_p), len(out_shape),
                             oshape, None, 0, desc, 0)
    lib.trntensorDestroy(h)
    assert st == 0
    return out


def test_einsum_bits_equal_c_api(capi, rng):
    a = rng.standard_normal((4, 6, 5)).astype(np.float32)
    b = rng.standard_normal((4, 5, 7)).astype(np.float32)
    got = trnsci.tensor.einsum("bij,bjk->bik", a, b)
    assert bits_equal(got, c_einsum(capi, "bij,bjk->bik", [a, b], (4, 6, 7)))
    assert np.abs(got - np.einsum("bij,bjk->bik", a, b)).max() < 1e-5


@pytest.mark.parametrize("subscripts, shapes", [
    ("ij,jk->ik", [(8, 9), (9, 4)]),
    ("ij,jk", [(8, 9), (9, 4)]),
    ("ii->i", [(5, 5)]),
    ("ii", [(5, 5)]),
    ("...ij,...jk->...ik", [(2, 3, 4, 5), (2, 3, 5, 2)]),
    ("ijk->kji", [(2, 3, 4)]),
    ("i,i->", [(7,), (7,)]),
    ("ij,jk,kl->il", [(6, 7), (7, 8), (8, 3)]),
])
@pytest.mark.parametrize("dtype, tol", [(np.float64, 1e-12), (np.complex64, 1e-5)])
def test_einsum_numpy_semantics(rng, subscripts, shapes, dtype, tol):
    ops = [rng.standard_normal(s).astype(dtype) for s in shapes]
    if np.iscomplexobj(ops[0]):
        ops = [o + 1j * rng.standard_normal(o.shape).astype(dtype) for o in ops]
    ref = np.einsum(subscripts, *ops)
    got = trnsci.tensor.einsum(subscripts, *ops)
    assert got.shape == ref.shape and got.dtype == ref.dtype
    assert np.abs(got - ref).max() <= tol * max(1.0, np.abs(ref).max()) * 10


def test_einsum_strided_plan_and_modes(rng):
    a = rng.standard_normal((10, 12)).astype(np.float32)
    b = rng.standard_normal((12, 6)).astype(np.float32)
    c = rng.standard_normal((6, 3)).astype(np.float32)
    # non-contiguous views are read in place
    assert np.allclose(trnsci.tensor.einsum("ij,jk->ik", a[::2], b), a[::2] @ b, atol=1e-5)
    y, plan, prof = trnsci.tensor.einsum("ij,jk,kl->il", a, b, c, optimize="optimal", return_plan=True, profile=True)
    assert len(plan["path"]) == 2 and plan["optimized_flops"] <= plan["naive_flops"] and prof.modeled_ns > 0
    y16 = trnsci.tensor.einsum("ij,jk->ik", a, b, mode="bf16")
    assert 1e-6 < np.abs(y16 - a @ b).max() < 0.1


def test_einsum_errors(rng):
    a = rng.standard_normal((3, 4)).astype(np.float32)
    with pytest.raises(ValueError):
        trnsci.tensor.einsum("ij,jk->ik", a, a)
    with pytest.raises(trnsci.InvalidArgumentError, match="differs"):
        trnsci.tensor.einsum("ij,jk->ik", a, a.T.astype(np.float64))
    with pytest.raises(NotImplementedError):
        trnsci.tensor.einsum("ij,jk->ik", a, a.T, optimize=["einsum_path", (0, 1)])
    with pytest.raises(trnsci.InvalidArgumentError, match="dtype"):
        trnsci.tensor.einsum("ij->ji", a.astype(np.int32))
