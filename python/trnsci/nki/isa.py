"""trnsci.nki.isa: the `nisa` instructions NKI kernels use, each one core instruction.

Both NKI forms are accepted: the current one that writes `dst` (`nisa.tensor_copy(dst=t, src=x)`,
`nisa.nc_matmul(dst, stationary, moving)`) and neuronxcc's v1 form that returns a new tile
(`deltaU = nisa.tensor_tensor(delta, u, op=nl.multiply)`). docs/nki.md has the table.
"""
import numpy as np

from .. import _core
from . import _mask, _runtime
from . import language as nl
from ._tensor import IndexExpr, Tensor, unsupported

_c = _core.nki


class engine:
    unknown, tensor, scalar, gpsimd, dma, vector, sync = "unknown", "tensor", "scalar", "gpsimd", "dma", "vector", \
        "sync"


unknown_engine, tensor_engine, scalar_engine = engine.unknown, engine.tensor, engine.scalar
gpsimd_engine, vector_engine, dma_engine, sync_engine = engine.gpsimd, engine.vector, engine.dma, engine.sync


class reduce_cmd:
    idle, reset, reduce, reset_reduce, load_reduce = 0, 1, 2, 3, 4


_ALU = {}
for _name in ("add", "subtract", "multiply", "divide", "maximum", "minimum", "power", "equal", "not_equal",
              "greater", "greater_equal", "less", "less_equal", "logical_and", "logical_or", "logical_xor",
              "bitwise_and", "bitwise_or", "bitwise_xor", "left_shift", "right_shift"):
    _ALU[getattr(nl, _name)] = _name
    if hasattr(np, _name):
        _ALU[getattr(np, _name)] = _name
_ALU[np.true_divide] = "divide"
# reductions passed as the operator (nisa.tensor_reduce(op=nl.max), reduce_op=nl.add)
_ALU.update({nl.max: "maximum", nl.min: "minimum", nl.sum: "add", np.max: "maximum", np.min: "minimum",
             np.sum: "add", np.amax: "maximum", np.amin: "minimum"})

_ACT = {nl.copy: "copy", np.copy: "copy", nl.reciprocal: "reciprocal", np.reciprocal: "reciprocal"}
for _name in ("exp", "log", "tanh", "sigmoid", "relu", "gelu", "gelu_apprx_tanh", "silu", "softplus", "erf",
              "sqrt", "rsqrt", "square", "sin", "arctan", "sign", "abs"):
    _ACT[getattr(nl, _name)] = _name
    if hasattr(np, _name):
        _ACT[getattr(np, _name)] = _name


def _alu(op, who):
    if op is None:
        return "bypass"
    try:
        return _ALU[op]
    except (KeyError, TypeError):
        unsupported(f"{who}(op={getattr(op, '__name__', op)!r})")


def _act(op, who):
    try:
        return _ACT[op]
    except (KeyError, TypeError):
        unsupported(f"{who}(op={getattr(op, '__name__', op)!r})")


def _engine(e, default="vector"):
    return default if e in (None, engine.unknown) else e


def _split(args, kw, names, who, tensors=1):
    """Binds positional args. The current NKI form passes dst first, v1 does not: a call with more
    leading tensor arguments than the v1 signature's `tensors` leading tensor parameters has a dst."""
    args = list(args)
    dst = kw.pop("dst", None)
    lead = 0
    while lead < len(args) and isinstance(args[lead], (Tensor, nl.MatmulResult)):
        lead += 1
    if dst is None and lead > tensors:
        dst = args.pop(0)
    free = [n for n in names if n not in kw]
    bound = dict(zip(free, args))
    bound.update({k: kw.pop(k) for k in list(kw) if k in names})
    if kw.get("mask") is not None:
        unsupported(f"nisa.{who}(mask=...)", "masks are not supported; index with exact ranges")
    kw.pop("mask", None)
    return dst, bound, kw


def _reject(who, kw, allowed=()):
    bad = [k for k, v in kw.items() if k not in allowed and v not in (None, False, (), [])]
    if bad:
        unsupported(f"nisa.{who}(" + ", ".join(f"{k}=" for k in bad) + ")")


def _out(dst, like, dtype=None, buffer="sbuf", shape=None):
    if dst is not None:
        return nl._t(dst)
    return nl._like(like, dtype, buffer=buffer, shape=shape)


# ---- DMA ---------------------------------------------------------------------------------------------------

def dma_copy(*args, **kw):
    """nisa.dma_copy(dst, src): one dma_copy (HBM <-> SBUF, SBUF -> SBUF; casts through fp32)."""
    dst, b, rest = _split(args, kw, ["dst", "src"], "dma_copy", tensors=2)
    dst = dst if dst is not None else b.get("dst")
    _reject("dma_copy", rest, ("dge_mode", "engine"))
    _c.dma_copy(nl._t(dst).tile(), nl._t(b["src"]).tile())
    return dst


def dma_transpose(*args, **kw):
    dst, b, rest = _split(args, kw, ["src"], "dma_transpose")
    src = nl._t(b["src"])
    out = _out(dst, src, shape=(src.free_size_int(), src.partitions()))
    _c.dma_transpose(out.tile(), src.tile())
    return out


# ---- TensorE -----------------------------------------------------------------------------------------------

def nc_matmul(*args, **kw):
    """nisa.nc_matmul: one nc_matmul, dst[M, N] (+)= stationary[K, M]^T @ moving[K, N].

    With dst and accumulate=None the first matmul into a PSUM region overwrites and later ones add;
    without dst the result is deferred (language.MatmulResult)."""
    dst, b, rest = _split(args, kw, ["stationary", "moving"], "nc_matmul", tensors=2)
    acc = rest.pop("accumulate", None)
    perf = rest.pop("perf_mode", None)
    rest.pop("is_stationary_onezero", None)   # performance hints: the values are the same
    rest.pop("is_moving_onezero", None)
    transpose = rest.pop("is_transpose", False)
    _reject("nc_matmul", rest)
    if perf not in (None, "none", 0):
        unsupported(f"nisa.nc_matmul(perf_mode={perf!r})")
    if transpose:
        # TensorE transpose mode: stationary^T through the identity `moving` = core's nc_transpose
        # on TensorE (bit-accurate on trn2+; the identity matmul of trn1 there).
        x, ident = nl._t(b["stationary"]), nl._t(b["moving"])
        if _runtime._state.execute:   # the mode multiplies by `moving`: only the identity is a transpose
            m = ident.tile().read()
            if m.shape[0] != m.shape[1] or not np.array_equal(m, np.eye(m.shape[0], dtype=m.dtype)):
                unsupported("nisa.nc_matmul(is_transpose=True) with a moving operand other than the identity")
        out = _out(dst, x, nl.float32, "psum", (x.free_size_int(), x.partitions()))
        _c.nc_transpose(out.tile(), x.tile(), "tensor")
        return out
    r = nl.MatmulResult(nl._t(b["stationary"]), nl._t(b["moving"]))
    if dst is None:
        return r
    dst = nl._t(dst)
    r.into(dst, nl._accumulate_flag(dst) if acc is None else bool(acc))
    return dst


def nc_transpose(*args, **kw):
    """nisa.nc_transpose: one nc_transpose, TensorE into PSUM (default) or VectorE (<= 32 x 32)."""
    dst, b, rest = _split(args, kw, ["data"], "nc_transpose")
    eng = _engine(rest.pop("engine", None), "tensor")
    dtype = rest.pop("dtype", None)
    _reject("nc_transpose", rest)
    x = nl._t(b["data"])
    if dtype is None and eng == "tensor" and _c.tile_size(nl._target()).get("tensor_transpose_fp32_only"):
        dtype = nl.float32     # trn1's TensorE transposes through the multiplier into fp32 PSUM
    out = _out(dst, x, dtype, "psum" if eng == "tensor" else "sbuf", (x.free_size_int(), x.partitions()))
    _c.nc_transpose(out.tile(), x.tile(), eng)
    return out


# ---- VectorE / ScalarE / GpSimdE ---------------------------------------------------------------------------

def tensor_tensor(*args, **kw):
    """nisa.tensor_tensor: one tensor_tensor (VectorE; GpSimdE with engine=gpsimd)."""
    dst, b, rest = _split(args, kw, ["data1", "data2", "op"], "tensor_tensor", tensors=2)
    eng = _engine(rest.pop("engine", None))
    dtype = rest.pop("dtype", None)
    _reject("tensor_tensor", rest)
    x, y = nl._t(b["data1"]), nl._t(b["data2"])
    out = _out(dst, x, nl._result_dtype(x, y, dtype))
    _c.tensor_tensor(out.tile(), x.tile(), y.tile(), _alu(b["op"], "nisa.tensor_tensor"), eng)
    return out


def _scalar_operand(v):
    if isinstance(v, (Tensor, nl.MatmulResult)):
        return nl._t(v).tile()
    return float(v)


def tensor_scalar(*args, **kw):
    """nisa.tensor_scalar: one tensor_scalar, dst = (data op0 operand0) op1 operand1."""
    dst, b, rest = _split(args, kw, ["data", "op0", "operand0", "reverse0", "op1", "operand1", "reverse1"],
                          "tensor_scalar")
    eng = _engine(rest.pop("engine", None))
    dtype = rest.pop("dtype", None)
    _reject("tensor_scalar", rest)
    x = nl._t(b["data"])
    out = _out(dst, x, dtype)
    op1 = b.get("op1")
    _c.tensor_scalar(out.tile(), x.tile(), _alu(b["op0"], "nisa.tensor_scalar"), _scalar_operand(b["operand0"]),
                     _alu(op1, "nisa.tensor_scalar"), _scalar_operand(b.get("operand1") or 0.0), eng,
                     bool(b.get("reverse0", False)), bool(b.get("reverse1", False)))
    return out


def tensor_reduce(*args, **kw):
    """nisa.tensor_reduce: tensor_reduce over free axes (see nl.sum for a subset of axes)."""
    dst, b, rest = _split(args, kw, ["op", "data", "axis", "negate", "keepdims"], "tensor_reduce",
                          tensors=0)
    dtype = rest.pop("dtype", None)
    _reject("tensor_reduce", rest)
    r = nl._reduce(_alu(b["op"], "nisa.tensor_reduce"), b["data"], b["axis"], dtype, bool(b.get("keepdims")),
                   bool(b.get("negate")))
    if dst is None:
        return r
    nl._setitem(nl._t(dst), Ellipsis, r)
    return dst


def tensor_tensor_scan(*args, **kw):
    """nisa.tensor_tensor_scan: one scan, r[:, i] = op1(op0(data0[:, i], r[:, i-1]), data1[:, i])."""
    dst, b, rest = _split(args, kw, ["data0", "data1", "initial", "op0", "op1", "reverse0", "reverse1"],
                          "tensor_tensor_scan", tensors=2)
    dtype = rest.pop("dtype", None)
    _reject("tensor_tensor_scan", rest)
    if b.get("reverse0") or b.get("reverse1"):
        unsupported("nisa.tensor_tensor_scan(reverse0/reverse1=True)")
    d0, d1 = nl._t(b["data0"]), nl._t(b["data1"])
    out = _out(dst, d0, nl._result_dtype(d0, d1, dtype))
    _c.tensor_tensor_scan(out.tile(), d0.tile(), d1.tile(), _scalar_operand(b["initial"]),
                          _alu(b["op0"], "nisa.tensor_tensor_scan"), _alu(b["op1"], "nisa.tensor_tensor_scan"))
    return out


def tensor_copy(*args, **kw):
    """nisa.tensor_copy: one tensor_copy (VectorE default; GpSimdE; ScalarE as activation(copy))."""
    dst, b, rest = _split(args, kw, ["src"], "tensor_copy")
    eng = _engine(rest.pop("engine", None))
    dtype = rest.pop("dtype", None)
    _reject("tensor_copy", rest)
    x = nl._t(b["src"])
    out = _out(dst, x, dtype)
    if eng == "scalar":
        _c.activation(out.tile(), x.tile(), "copy", 0.0, 1.0, None)
    else:
        _c.tensor_copy(out.tile(), x.tile(), eng)
    return out


def memset(*args, **kw):
    """nisa.memset(dst, value) or v1 memset(shape, value, dtype): one memset (VectorE)."""
    dst = kw.pop("dst", None)
    args = list(args)
    if dst is None and args and isinstance(args[0], Tensor):
        dst = args.pop(0)
    if dst is None:
        shape = kw.pop("shape", None) if "shape" in kw else args.pop(0)
        value = kw.pop("value", None) if "value" in kw else args.pop(0)
        dtype = kw.pop("dtype", None) if "dtype" in kw else args.pop(0)
        dst = nl.ndarray(shape, dtype, buffer=kw.pop("buffer", "sbuf"))
    else:
        value = kw.pop("value", None) if "value" in kw else args.pop(0)
    eng = _engine(kw.pop("engine", None))
    _reject("memset", kw)
    nl._memset(nl._t(dst), value, eng)
    return dst


def activation(*args, **kw):
    """nisa.activation: one ScalarE activation, op(data * scale + bias), optionally summing each row
    into reduce_res (reduce_op=nl.add)."""
    args = list(args)
    dst = kw.pop("dst", None)
    if dst is None and args and isinstance(args[0], Tensor):
        dst = args.pop(0)
    names = ["op", "data", "bias", "scale", "reduce_op", "reduce_res", "reduce_cmd"]
    b = dict(zip([n for n in names if n not in kw], args))
    b.update({k: kw.pop(k) for k in list(kw) if k in names})
    dtype = kw.pop("dtype", None)
    _reject("activation", kw)
    x = nl._t(b["data"])
    red = b.get("reduce_res")
    if red is not None and b.get("reduce_op") not in (nl.add, np.add):
        unsupported("nisa.activation(reduce_op other than nl.add)")
    if b.get("reduce_cmd") not in (None, reduce_cmd.idle, reduce_cmd.reset_reduce):
        unsupported(f"nisa.activation(reduce_cmd={b.get('reduce_cmd')})")
    out = _out(dst, x, dtype)
    bias = b.get("bias")
    _c.activation(out.tile(), x.tile(), _act(b["op"], "nisa.activation"),
                  _scalar_operand(0.0 if bias is None else bias), _scalar_operand(b.get("scale", 1.0)),
                  None if red is None else nl._t(red).tile())
    return out


def tensor_scalar_reduce(*args, **kw):
    """nisa.tensor_scalar_reduce: core has no fused form, so TWO instructions: tensor_scalar, then
    tensor_reduce of its result into reduce_res (values as the fused instruction; one more VectorE
    instruction in the modeled time)."""
    dst, b, rest = _split(args, kw, ["data", "op0", "operand0", "reduce_op", "reduce_res", "reverse0"],
                          "tensor_scalar_reduce")
    dtype = rest.pop("dtype", None)
    _reject("tensor_scalar_reduce", rest)
    x = nl._t(b["data"])
    out = _out(dst, x, dtype)
    _c.tensor_scalar(out.tile(), x.tile(), _alu(b["op0"], "nisa.tensor_scalar_reduce"),
                     _scalar_operand(b["operand0"]), "bypass", 0.0, "vector", bool(b.get("reverse0", False)), False)
    _c.tensor_reduce(nl._t(b["reduce_res"]).tile(), out.tile(), _alu(b["reduce_op"], "nisa.tensor_scalar_reduce"),
                     False)
    return out


def activation_reduce(*args, **kw):
    return activation(*args, **kw)


def _one_input(name, instr, free=None, dtype_default=None):
    """nisa.<name>(data) / (dst, data): one core instruction `instr` on one input tile."""
    def f(*args, **kw):
        dst, b, rest = _split(args, kw, ["data"], name)
        dtype = rest.pop("dtype", None)
        _reject(name, rest)
        x = nl._t(b["data"])
        shape = None if free is None else (x.partitions(), free)
        out = _out(dst, x, dtype or dtype_default, shape=shape)
        instr(out.tile(), x.tile())
        return out
    f.__name__ = name
    return f


reciprocal = _one_input("reciprocal", _c.reciprocal)
reciprocal.__doc__ = "nisa.reciprocal: one VectorE reciprocal."
bn_stats = _one_input("bn_stats", _c.bn_stats, 6, nl.float32)
bn_stats.__doc__ = "nisa.bn_stats: one bn_stats, [P, F <= 512] -> [P, 6]."
bn_aggr = _one_input("bn_aggr", _c.bn_aggr, 2, nl.float32)
bn_aggr.__doc__ = "nisa.bn_aggr: one bn_aggr, [P, 6k] -> [P, 2] (mean, variance)."


def _pattern(expr, who):
    """An index expression [P, free...] as iota's (pattern, offset, channel_multiplier)."""
    if not isinstance(expr, IndexExpr):
        unsupported(f"nisa.{who} of a {type(expr).__name__}", "an affine nl.arange / nl.mgrid expression")
    pcoef, pext = expr.terms.get(0, (0, 1))
    pattern = [[expr.terms.get(r, (0, 1))[0], expr.terms.get(r, (0, 1))[1]] for r in range(1, max(expr.ndim, 2))]
    return pext, pattern, expr.const, pcoef


def iota(*args, **kw):
    """nisa.iota(expr, dtype): one GpSimdE iota writing the affine index expression."""
    args = list(args)
    dst = kw.pop("dst", None)
    if dst is None and args and isinstance(args[0], Tensor):
        dst = args.pop(0)
    expr = kw.pop("expr", None) if "expr" in kw else args.pop(0)
    dtype = kw.pop("dtype", None) if "dtype" in kw else (args.pop(0) if args else nl.int32)
    _reject("iota", kw)
    p, pattern, offset, cm = _pattern(expr, "iota")
    out = nl._t(dst) if dst is not None else nl.ndarray([p] + [n for _, n in pattern], dtype)
    _c.iota(out.tile(), pattern, offset, cm)
    return out


_CMP = {"__ge__": "greater_equal", "__gt__": "greater", "__le__": "less_equal", "__lt__": "less",
        "__eq__": "equal", "__ne__": "not_equal"}


class Predicate:
    """`expr >= 0` etc. of an index expression: affine_select's predicate."""

    def __init__(self, expr, cmp):
        self.expr, self.cmp = expr, cmp


def _cmp(name):
    def f(self, other):
        return Predicate(self - other, _CMP[name])
    return f


for _n in _CMP:
    setattr(IndexExpr, _n, _cmp(_n))
IndexExpr.__hash__ = object.__hash__


def affine_select(*args, **kw):
    """nisa.affine_select(pred, on_true_tile, on_false_value): one GpSimdE affine_select."""
    args = list(args)
    dst = kw.pop("dst", None)
    if dst is None and args and isinstance(args[0], Tensor):
        dst = args.pop(0)
    names = ["pred", "on_true_tile", "on_false_value"]
    b = dict(zip([n for n in names if n not in kw], args))
    b.update({k: kw.pop(k) for k in list(kw) if k in names})
    dtype = kw.pop("dtype", None)
    _reject("affine_select", kw)
    pred = b["pred"]
    if not isinstance(pred, Predicate):
        unsupported("nisa.affine_select with a predicate other than an affine index comparison")
    _, pattern, offset, cm = _pattern(pred.expr, "affine_select")
    on_true = nl._t(b["on_true_tile"])
    out = _out(dst, on_true, dtype)
    _c.affine_select(out.tile(), pattern, offset, cm, pred.cmp, on_true.tile(), float(b["on_false_value"]))
    return out


# ---- mask= (_mask.py): the calls that take it ------------------------------------------------------------
Predicate.__and__ = _mask.conjoin
for _name in ("dma_copy", "tensor_tensor", "tensor_scalar", "tensor_reduce", "tensor_copy", "memset", "activation",
              "tensor_scalar_reduce", "activation_reduce", "reciprocal"):
    globals()[_name] = _mask.masked(globals()[_name], f"nisa.{_name}")


def __getattr__(name):
    if name.startswith("__"):
        raise AttributeError(name)
    return nl._Unsupported(f"nisa.{name}")
