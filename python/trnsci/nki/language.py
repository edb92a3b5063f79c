"""trnsci.nki.language: the `nl` subset NKI kernels use, each call one core instruction.

The table of calls, the core instruction each becomes and what raises NotImplementedError is in
docs/nki.md. Loops: nl.affine_range / sequential_range / static_range are Python ranges here (the
kind is a hint to NKI's compiler; the emulator runs the program in the order written and the cost
model orders each engine's stream as written).
"""
import builtins
import contextlib
import sys

import numpy as np

from .. import _core
from . import _mask, _runtime
from ._tensor import (DType, Tensor, arange, bfloat16, core_dtype, ds, float8_e4m3, float8_e5m2,
                      is_float_dtype, mgrid, par_dim, tfloat32, unsupported)

_c = _core.nki

_REEXPORTED = (arange, mgrid, ds, par_dim, bfloat16, tfloat32, float8_e4m3, float8_e5m2)  # nl.<name>

# ---- dtypes and buffers ---------------------------------------------------------------------------
float32 = np.dtype(np.float32)
float16 = np.dtype(np.float16)
int8, int16, int32 = np.dtype(np.int8), np.dtype(np.int16), np.dtype(np.int32)
uint8, uint16, uint32 = np.dtype(np.uint8), np.dtype(np.uint16), np.dtype(np.uint32)
bool_ = np.dtype(np.uint8)

sbuf, psum, hbm, shared_hbm, private_hbm = "sbuf", "psum", "private_hbm", "shared_hbm", "private_hbm"
_HBM = ("private_hbm", "shared_hbm", "hbm")


def _target():
    return _runtime._state.target if _runtime._state is not None else "trn1"


class _TileSize:
    """nl.tile_size: the limits of the launch's target (core's HardwareSpec)."""

    def __getattr__(self, name):
        d = _c.tile_size(_target())
        if name not in d:
            unsupported(f"nl.tile_size.{name}")
        return d[name]


tile_size = _TileSize()


# ---- deferred matmul results ----------------------------------------------------------------------

class MatmulResult:
    """The value of nisa.nc_matmul / nl.matmul without dst: computed where it is used.

    `psum_tile[...] = result` is one nc_matmul into that region (accumulate=False);
    `psum_tile[...] += result` is one nc_matmul accumulating into it (accumulate=False when no matmul
    wrote the region yet and a memset(0) did, the compiler's reading of NKI's zero-initialised
    accumulators); any other use materialises it into a fresh fp32 PSUM tile.
    """

    def __init__(self, stationary, moving):
        self.stationary, self.moving = stationary, moving
        self.shape = (stationary.free_size_int(), moving.free_size_int())
        self.dtype = float32
        self._value = None

    def into(self, dst, accumulate):
        with _mask.suspended():   # a matmul is never masked (its operands are not on the index grid)
            _c.nc_matmul(dst.tile(), self.stationary.tile(), self.moving.tile(), accumulate, False)
        _mark_matmul(dst)

    def value(self):
        if self._value is None:
            self._value = ndarray(self.shape, dtype=float32, buffer=psum)
            self.into(self._value, False)
        return self._value

    def __getattr__(self, name):
        return getattr(self.value(), name)

    def __getitem__(self, key):
        return self.value()[key]


def _region(t):
    return (t.pfirst, t.offset, t.shape, tuple(t.axes))


def _mark_matmul(t):
    r = _region(t)
    t.owner.matmul_written.add(r)
    if getattr(t.owner, "read", None) is not None:
        t.owner.read.discard(r)


def _starts_group(dst):
    """mod_alloc PSUM tensors (one physical bank reused by every logical tile): `+=` of a matmul
    starts a new accumulation group (the first matmul overwrites, as NKI's compiler sets the
    matmul's start flag) when no matmul wrote the region yet or something read it since the last
    matmul; later ones add. None for other tensors (their rule: _iop)."""
    if getattr(dst.owner, "read", None) is None:
        return None
    r = _region(dst)
    return r not in dst.owner.matmul_written or r in dst.owner.read


def _accumulate_flag(dst):
    """accumulate=None semantics: the first matmul into a PSUM region overwrites, later ones add."""
    start = _starts_group(dst)
    return (not start) if start is not None else _region(dst) in dst.owner.matmul_written


def _t(x):
    """A Tensor operand (materialising a deferred matmul)."""
    if isinstance(x, MatmulResult):
        return x.value()
    if isinstance(x, Tensor):
        return x
    raise TypeError(f"trnsci.nki: expected a tensor, got {type(x).__name__}")


# ---- creation ---------------------------------------------------------------------------------------

def ndarray(shape, dtype, buffer=None, name="", **kw):
    if kw:
        unsupported("nl.ndarray(" + ", ".join(kw) + "=...)")
    buffer = buffer or sbuf
    if isinstance(buffer, _runtime.Placement):  # nki.compiler.sbuf/psum.mod_alloc(...)
        return _runtime.placed(shape, dtype, buffer, name or None)
    if buffer in _HBM:
        return _runtime.hbm_ndarray(shape, dtype, buffer)
    if buffer not in (sbuf, psum):
        unsupported(f"buffer {buffer!r}")
    return _runtime.on_chip(shape, dtype, buffer, name or None)


def _filled(shape, dtype, value, buffer, name):
    t = ndarray(shape, dtype, buffer=buffer, name=name)
    _memset(t, value)
    return t


def _memset(t, value, engine="vector"):
    if t.buffer in _HBM:
        unsupported("memset of an HBM tensor")
    view = t if t.axes[0] is None else _whole(t)
    _c.memset(view.tile(), float(value), engine)
    if t.buffer == psum and float(value) == 0.0:
        t.owner.zeroed.add(_region(view))


def _whole(t):
    """The whole allocation of a block tensor (partition axis not first) as one [P, F] pattern."""
    p = t.axes.index(None)
    free = 1
    for i, n in enumerate(t.shape):
        if i != p:
            free *= n
    return Tensor(t.owner, t.buffer, t._dtype, (t.shape[p], free), [None, 1], t.offset, t.pfirst)


def zeros(shape, dtype, buffer=None, name="", **kw):
    return _filled(shape, dtype, 0.0, buffer, name)


def ones(shape, dtype, buffer=None, name="", **kw):
    return _filled(shape, dtype, 1.0, buffer, name)


def full(shape, fill_value, dtype, buffer=None, name="", **kw):
    return _filled(shape, dtype, fill_value, buffer, name)


def empty_like(x, dtype=None, buffer=None, **kw):
    x = _t(x)
    return ndarray(x.shape, dtype or x._dtype, buffer=buffer or (x.buffer if x.buffer not in _HBM else sbuf))


def zeros_like(x, dtype=None, buffer=None, **kw):
    x = _t(x)
    return zeros(x.shape, dtype or x._dtype, buffer=buffer or (x.buffer if x.buffer not in _HBM else sbuf))


def _like(x, dtype=None, buffer=sbuf, shape=None):
    """A fresh on-chip result with x's partitions and free shape."""
    shape = shape or ((x.partitions(),) + tuple(x.free_shape()))
    return ndarray(shape, dtype if dtype is not None else x._dtype, buffer=buffer)


def shared_constant(array, dtype=None):
    """nl.shared_constant: a constant HBM tensor made from a host array."""
    if _runtime._state is None:
        raise RuntimeError("trnsci.nki: nl.shared_constant called outside a kernel")
    a = np.asarray(array)
    if dtype is not None and not isinstance(dtype, DType):
        a = a.astype(np.dtype(dtype))
    elif isinstance(dtype, DType):
        unsupported(f"nl.shared_constant(dtype={dtype})", "HBM arrays of this dtype have no numpy type")
    return _runtime.hbm_tensor(np.ascontiguousarray(a))


def static_cast(array, dtype):
    """numpy-side cast (outside kernels): nl.bfloat16 rounds to bf16 values kept in float32 storage."""
    if isinstance(dtype, DType):
        if dtype != bfloat16:
            unsupported(f"nl.static_cast to {dtype}")
        f = np.ascontiguousarray(array, dtype=np.float32)
        u = f.view(np.uint32).astype(np.uint64)
        r = ((u + 0x7FFF + ((u >> 16) & 1)) & 0xFFFF0000).astype(np.uint32).view(np.float32)
        return np.where(np.isnan(f), f, r)
    return np.asarray(array).astype(np.dtype(dtype))


# ---- data movement ----------------------------------------------------------------------------------

def load(src, dtype=None, mask=None, **kw):
    """nl.load: one dma_copy HBM -> a new SBUF tile (partition axis = the view's first axis)."""
    _no_mask("nl.load", mask, kw)
    src = _t(src)
    shape = src.shape if src.ndim >= 2 else (src.shape[0] if src.ndim else 1, 1)
    dst = ndarray(shape, dtype if dtype is not None else src._dtype, buffer=sbuf)
    _c.dma_copy(dst.tile(), src.tile())
    return dst


def store(dst, value, mask=None, **kw):
    """nl.store: one dma_copy of an SBUF tile to an HBM view (a PSUM value is first copied to SBUF)."""
    _no_mask("nl.store", mask, kw)
    value = _sbuf(_t(value))
    _c.dma_copy(_t(dst).tile(), value.tile())


def load_transpose2d(src, dtype=None, mask=None, **kw):
    """nl.load_transpose2d: one dma_copy from the HBM view read transposed (a strided load)."""
    _no_mask("nl.load_transpose2d", mask, kw)
    src = _t(src)
    if src.ndim != 2 or src.buffer not in _HBM:
        unsupported("nl.load_transpose2d of a non-2-D or on-chip tensor")
    view = Tensor(src.owner, src.buffer, src._dtype, (src.shape[1], src.shape[0]), [src.axes[1], src.axes[0]],
                  src.offset)
    dst = ndarray(view.shape, dtype if dtype is not None else src._dtype, buffer=sbuf)
    _c.dma_copy(dst.tile(), view.tile())
    return dst


def _no_mask(name, mask, kw):
    if mask is not None:
        unsupported(f"{name}(mask=...)", "masks are not supported; index with exact ranges")
    if kw:
        unsupported(f"{name}(" + ", ".join(kw) + "=...)")


def broadcast_to(x, shape):
    """Partition broadcast of a one-partition tile: one SBUF -> SBUF dma_copy (stride-0 source)."""
    x = _t(x)
    shape = tuple(int(s) for s in shape)
    if x.partitions() != 1 or tuple(x.free_shape()) != shape[1:]:
        unsupported(f"nl.broadcast_to from {x.shape} to {shape}", "only the partition axis of a [1, F] tile")
    dst = ndarray(shape, x._dtype, buffer=sbuf)
    _c.dma_copy(dst.tile(), x.tile().broadcast_partitions(shape[0]))
    return dst


def copy(x, dtype=None, **kw):
    """nl.copy: one tensor_copy (VectorE) into a new SBUF tile."""
    if kw.pop("mask", None) is not None or kw:
        unsupported("nl.copy(mask=/...)")
    x = _t(x)
    dst = _like(x, dtype)
    _c.tensor_copy(dst.tile(), x.tile(), "vector")
    return dst


# ---- element-wise arithmetic ------------------------------------------------------------------------

def _result_dtype(a, b, dtype):
    if dtype is not None:
        return dtype
    da = a._dtype if isinstance(a, Tensor) else None
    db = b._dtype if isinstance(b, Tensor) else None
    if da is None or db is None or core_dtype(da) == core_dtype(db):
        return da if da is not None else db
    if isinstance(da, DType) or isinstance(db, DType):
        return float32 if is_float_dtype(da) or is_float_dtype(db) else da
    return np.result_type(da, db)


def _binary(op, x, y, dtype=None, dst=None):
    if isinstance(x, MatmulResult):
        x = x.value()
    if isinstance(y, MatmulResult):
        y = y.value()
    if not isinstance(x, Tensor) and not isinstance(y, Tensor):
        unsupported(f"nl.{op} of two scalars")
    t = x if isinstance(x, Tensor) else y
    out = dst if dst is not None else _like(t, _result_dtype(x, y, dtype))
    if isinstance(x, Tensor) and isinstance(y, Tensor):
        fx, fy = np.prod(x.free_shape(), dtype=int), np.prod(y.free_shape(), dtype=int)
        if x.partitions() == y.partitions() and fx == fy:
            _c.tensor_tensor(out.tile(), x.tile(), y.tile(), op, "vector")
        elif fy == 1 and y.partitions() == x.partitions():
            _c.tensor_scalar(out.tile(), x.tile(), op, y.tile(), "bypass", 0.0, "vector", False, False)
        elif fx == 1 and y.partitions() == x.partitions():
            _c.tensor_scalar(out.tile(), y.tile(), op, x.tile(), "bypass", 0.0, "vector", True, False)
        else:
            unsupported(f"broadcasting {x.shape} with {y.shape} in nl.{op}",
                        "free-axis broadcast of a [P, 1] tile only; use broadcast_to for partitions")
    elif isinstance(x, Tensor):
        _c.tensor_scalar(out.tile(), x.tile(), op, float(y), "bypass", 0.0, "vector", False, False)
    else:
        _c.tensor_scalar(out.tile(), y.tile(), op, float(x), "bypass", 0.0, "vector", True, False)
    return out


def _make_binary(op):
    def f(x, y, dtype=None, mask=None, **kw):
        if mask is not None or kw:
            unsupported(f"nl.{op}(mask=/...)")
        return _binary(op, x, y, dtype)
    f.__name__ = op
    f.__doc__ = f"nl.{op}: tensor_tensor (or tensor_scalar with a scalar / [P, 1] operand) on VectorE."
    return f


add, subtract, multiply, divide = (_make_binary(o) for o in ("add", "subtract", "multiply", "divide"))
maximum, minimum, power = (_make_binary(o) for o in ("maximum", "minimum", "power"))
equal, not_equal, greater, greater_equal, less, less_equal = (
    _make_binary(o) for o in ("equal", "not_equal", "greater", "greater_equal", "less", "less_equal"))
logical_and, logical_or, logical_xor = (_make_binary(o) for o in ("logical_and", "logical_or", "logical_xor"))
bitwise_and, bitwise_or, bitwise_xor = (_make_binary(o) for o in ("bitwise_and", "bitwise_or", "bitwise_xor"))
left_shift, right_shift = _make_binary("left_shift"), _make_binary("right_shift")


def _make_activation(func):
    def f(x, dtype=None, mask=None, **kw):
        if mask is not None or kw:
            unsupported(f"nl.{func}(mask=/...)")
        x = _t(x)
        out = _like(x, dtype)
        _c.activation(out.tile(), x.tile(), func, 0.0, 1.0, None)
        return out
    f.__name__ = func
    f.__doc__ = f"nl.{func}: one ScalarE activation ({func})."
    return f


exp, log, tanh, sigmoid, relu = (_make_activation(f) for f in ("exp", "log", "tanh", "sigmoid", "relu"))
gelu, gelu_apprx_tanh, silu, softplus, erf = (_make_activation(f) for f in ("gelu", "gelu_apprx_tanh", "silu",
                                                                                 "softplus", "erf"))
sqrt, rsqrt, square, sin, arctan, sign = (_make_activation(f) for f in ("sqrt", "rsqrt", "square", "sin", "arctan",
                                                                         "sign"))
abs = _make_activation("abs")  # noqa: A001 (NKI's name)


def reciprocal(x, dtype=None, mask=None, **kw):
    """nl.reciprocal: one VectorE reciprocal."""
    if mask is not None or kw:
        unsupported("nl.reciprocal(mask=/...)")
    x = _t(x)
    out = _like(x, dtype)
    _c.reciprocal(out.tile(), x.tile())
    return out


def negative(x, dtype=None, **kw):
    """nl.negative: tensor_scalar multiply by -1."""
    return _binary("multiply", _t(x), -1.0, dtype)


# ---- reductions ---------------------------------------------------------------------------------------

def _reduce(op, x, axis, dtype=None, keepdims=False, negate=False):
    x = _t(x)
    if x.buffer in _HBM or x.axes[0] is not None:
        unsupported("a reduction of an HBM or block tensor")
    axes = sorted({a % x.ndim for a in ([axis] if isinstance(axis, (int, np.integer)) else axis)})
    if 0 in axes:
        unsupported(f"nl reduction over the partition axis (axis 0) of {x.shape}",
                    "VectorE reduces free axes only; use a matmul against ones")
    kept = [a for a in range(1, x.ndim) if a not in axes]
    out_shape = tuple(1 if a in axes else x.shape[a] for a in range(x.ndim)) if keepdims else \
        tuple(x.shape[a] for a in range(x.ndim) if a not in axes)
    out = ndarray(out_shape if len(out_shape) > 1 else (out_shape[0], 1), dtype or x._dtype, buffer=sbuf)
    if not kept:
        _c.tensor_reduce(out.tile(), x.tile(), op, negate)
        return out
    # Core's tensor_reduce reduces every free axis of its operand: one instruction per kept position.
    for pos in np.ndindex(*[x.shape[a] for a in kept]):
        src_key, dst_key, it = [slice(None)], [slice(None)], iter(pos)
        for a in range(1, x.ndim):
            if a in axes:
                src_key.append(slice(None))
                if keepdims:
                    dst_key.append(0)
            else:
                v = next(it)
                src_key.append(v)
                dst_key.append(v)
        _c.tensor_reduce(out[tuple(dst_key)].tile(), x[tuple(src_key)].tile(), op, negate)
    return out


def sum(x, axis, dtype=None, keepdims=False, mask=None, **kw):  # noqa: A001
    """nl.sum over free axes: tensor_reduce(add) (one per kept position when some free axes stay)."""
    return _reduce("add", x, axis, dtype, keepdims)


def max(x, axis, dtype=None, keepdims=False, mask=None, **kw):  # noqa: A001
    return _reduce("maximum", x, axis, dtype, keepdims)


def min(x, axis, dtype=None, keepdims=False, mask=None, **kw):  # noqa: A001
    return _reduce("minimum", x, axis, dtype, keepdims)


# ---- TensorE ------------------------------------------------------------------------------------------

def matmul(x, y, transpose_x=False, mask=None, **kw):
    """nl.matmul: nc_matmul (x^T @ y with transpose_x=True); otherwise x is first transposed on TensorE
    (nc_transpose to PSUM + tensor_copy to SBUF). The result is deferred (MatmulResult)."""
    if mask is not None or kw:
        unsupported("nl.matmul(mask=/...)")
    x, y = _sbuf(_t(x)), _sbuf(_t(y))
    if not transpose_x:
        x = _transpose_to_sbuf(x)
    return MatmulResult(x, y)


def _sbuf(x):
    """An operand NKI's compiler stages through SBUF (a PSUM tile read by nl.matmul / nl.store): one
    tensor_copy on VectorE."""
    if x.buffer != psum:
        return x
    s = _like(x)
    _c.tensor_copy(s.tile(), x.tile(), "vector")
    return s


def _transpose_to_sbuf(x):
    t = transpose(x)
    s = ndarray(t.shape, dtype=x._dtype, buffer=sbuf)
    _c.tensor_copy(s.tile(), t.tile(), "vector")
    return s


def transpose(x, dtype=None, mask=None, **kw):
    """nl.transpose: nc_transpose on TensorE into PSUM (fp32 on trn1)."""
    x = _t(x)
    if dtype is None and _c.tile_size(_target()).get("tensor_transpose_fp32_only"):
        dtype = float32
    out = ndarray((x.free_size_int(), x.partitions()), dtype=dtype or x._dtype, buffer=psum)
    _c.nc_transpose(out.tile(), x.tile(), "tensor")
    return out


# ---- SPMD and loops --------------------------------------------------------------------------------------

def program_id(axis):
    """nl.program_id: the running program's index on grid axis `axis` (core's NeuronCore::program_id)."""
    return _c.program_id(int(axis))


def num_programs(axes=0):
    return _c.num_programs(int(axes))


def program_ndim():
    return builtins.sum(1 for a in range(3) if _c.num_programs(a) > 1) or 1


class nc:
    """nl.nc(n): spread a grid axis over n NeuronCores."""

    def __init__(self, n):
        self.n = int(n)


class spmd_dim:
    """nl.spmd_dim(size, nl.nc(n)): a grid axis of size * n programs over n NeuronCores."""

    def __init__(self, size, cores):
        self.size = int(size)
        self.cores = cores.n if isinstance(cores, nc) else int(cores)


def affine_range(*args, **kw):
    """A Python range (the loop kind is a hint to NKI's compiler; see the module doc)."""
    return range(*args)


sequential_range = affine_range
static_range = affine_range


@contextlib.contextmanager
def _noop():
    yield


def no_reorder():
    return _noop()


def device_print(prefix, x, **kw):
    print(prefix, _t(x).tile().read() if isinstance(x, (Tensor, MatmulResult)) else x, file=sys.stderr)


def __getattr__(name):
    if name.startswith("__"):
        raise AttributeError(name)
    return _Unsupported(f"nl.{name}")


class _Unsupported:
    """Stands for an nl/nisa name trnsci.nki lacks: using it raises NotImplementedError naming it."""

    def __init__(self, name):
        self.name = name

    def __call__(self, *a, **k):
        unsupported(self.name)

    def __getattr__(self, attr):
        if attr.startswith("__"):
            raise AttributeError(attr)
        return _Unsupported(f"{self.name}.{attr}")

    def __repr__(self):
        return f"<unsupported {self.name}>"


# ---- operators on tensors ---------------------------------------------------------------------------------

def _free_size_int(self):
    return int(np.prod(self.free_shape(), dtype=np.int64))


def _iop(op):
    def f(self, other):
        if isinstance(other, MatmulResult) and op == "add" and self.buffer == psum:
            r = _region(self)
            start = _starts_group(self)
            # the first matmul into a region no instruction used yet opens an accumulation group (NKI:
            # an accumulation group opens with a matmul write; the compiler sets its start flag), onto a
            # region only memset(0) wrote it overwrites (the same value), else it adds
            fresh = r not in getattr(self.owner, "touched", {r})
            acc = (not start) if start is not None else (r in self.owner.matmul_written or
                                                         (r not in self.owner.zeroed and not fresh))
            other.into(self, acc)
            return self
        return _binary(op, self, other, dst=self)
    return f


def _setitem(self, key, value):
    view = self[key]
    if isinstance(value, MatmulResult):
        value.into(view, False)
        return
    if isinstance(value, Tensor):
        if view._same_region(value):
            return
        if self.buffer in _HBM:
            _c.dma_copy(view.tile(), value.tile())
        elif value.buffer in _HBM:
            _c.dma_copy(view.tile(), value.tile())
        else:
            _c.tensor_copy(view.tile(), value.tile(), "vector")
        return
    _memset(view, value)


Tensor.free_size_int = _free_size_int
for _cls in (Tensor, MatmulResult):
    for _dunder, _op in (("add", "add"), ("sub", "subtract"), ("mul", "multiply"), ("truediv", "divide")):
        setattr(_cls, f"__{_dunder}__", lambda s, o, _op=_op: _binary(_op, s, o))
        setattr(_cls, f"__r{_dunder}__", lambda s, o, _op=_op: _binary(_op, o, s))
Tensor.__neg__ = lambda s: negative(s)
Tensor.broadcast_to = lambda s, shape: broadcast_to(s, shape)
Tensor.__iadd__ = _iop("add")
Tensor.__isub__ = _iop("subtract")
Tensor.__imul__ = _iop("multiply")
Tensor.__itruediv__ = _iop("divide")
Tensor.__setitem__ = _setitem
MatmulResult.__setitem__ = lambda s, k, v: _setitem(s.value(), k, v)


# ---- mask= (_mask.py): the calls that take it ------------------------------------------------------------
for _name in ("load", "store", "load_transpose2d", "copy", "reciprocal", "sum", "max", "min", "add", "subtract",
              "multiply", "divide", "maximum", "minimum", "power", "equal", "not_equal", "greater", "greater_equal",
              "less", "less_equal", "logical_and", "logical_or", "logical_xor", "bitwise_and", "bitwise_or",
              "bitwise_xor", "left_shift", "right_shift", "exp", "log", "tanh", "sigmoid", "relu", "gelu",
              "gelu_apprx_tanh", "silu", "softplus", "erf", "sqrt", "rsqrt", "square", "sin", "arctan", "sign", "abs"):
    globals()[_name] = _mask.masked(globals()[_name], f"nl.{_name}")
