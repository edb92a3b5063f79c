"""trnsci.tensor.einsum: bits equal to trntensorEinsum called through ctypes; numpy's semantics."""
import ctypes

import numpy as np
import pytest

import trnsci
from conftest import bits_equal


class Operand(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("rank", ctypes.c_int32), ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64))]


def c_operands(ops):
    """(the trntensorEinsumOperand_t array of C-contiguous ops, the objects it points into)."""
    keep, structs = [], []
    for a in ops:
        a = np.ascontiguousarray(a)
        shape = (ctypes.c_int64 * max(a.ndim, 1))(*a.shape)
        keep += [a, shape]
        structs.append(Operand(a.ctypes.data, a.ndim, shape, None))
    return (Operand * len(structs))(*structs), keep


def c_einsum(capi, subscripts, ops, out_shape):
    lib = capi.tensor
    h = ctypes.c_void_p()
    assert lib.trntensorCreate(ctypes.byref(h)) == 0
    arr, keep = c_operands(ops)
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
    with pytest.raises(ValueError, match="positions"):
        trnsci.tensor.einsum("ij,jk->ik", a, a.T, optimize=["einsum_path", (0, 2)])
    with pytest.raises(ValueError, match="leaves 2"):
        trnsci.tensor.einsum("ij,jk->ik", a, a.T, optimize=["einsum_path"])
    with pytest.raises(trnsci.InvalidArgumentError, match="dtype"):
        trnsci.tensor.einsum("ij->ji", a.astype(np.int32))


@pytest.mark.parametrize("subscripts, shapes, path", [
    ("ij,jk,kl->il", [(6, 7), (7, 8), (8, 3)], ["einsum_path", (1, 2), (0, 1)]),
    ("ij,jk,kl->li", [(6, 7), (7, 8), (8, 3)], [(0, 1), (0, 1)]),
    ("...ij,...jk,k->...i", [(2, 4, 5), (2, 5, 3), (3,)], ["einsum_path", (0, 2), (0, 1)]),
    ("ab,bc,cd,de->ea", [(3, 4), (4, 5), (5, 6), (6, 2)], [(2, 3), (0, 1), (0, 1)]),
    ("ii,ij->j", [(5, 5), (5, 4)], [(0, 1)]),
])
def test_einsum_explicit_path(capi, rng, subscripts, shapes, path):
    """numpy's explicit path: the steps in the caller's order, each one trntensorEinsum (the C call's bits),
    the result within fp64 rounding of numpy.einsum with the same path."""
    ops = [rng.standard_normal(s) for s in shapes]
    got, plan, profs = trnsci.tensor.einsum(subscripts, *ops, optimize=path, return_plan=True, profile=True)
    ref = np.einsum(subscripts, *ops, optimize=path if path[0] == "einsum_path" else ["einsum_path"] + path)
    assert got.shape == ref.shape and np.abs(got - ref).max() <= 1e-12 * max(1.0, np.abs(ref).max())
    steps = [s for s in path if s != "einsum_path"]
    assert plan["path"] == steps and len(profs) == len(steps) and all(p.modeled_ns > 0 for p in profs)
    if subscripts == "ij,jk,kl->il":  # step by step through the C API: the same bits
        o32 = [o.astype(np.float32) for o in ops]
        got32 = trnsci.tensor.einsum(subscripts, *o32, optimize=path)
        bc = c_einsum(capi, "jk,kl->jl", [o32[1], o32[2]], (7, 3))
        assert bits_equal(got32, c_einsum(capi, "ij,jl->il", [o32[0], bc], (6, 3)))
