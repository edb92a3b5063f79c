"""Tensors, dtypes and index expressions of trnsci.nki.

A `Tensor` is an access pattern over one allocation: an emulated SBUF/PSUM allocation (a core tile
[P, F] made by trnsci._core.nki.alloc) or an HBM tensor (a C-contiguous numpy array). Indexing never
copies: `t[...]` returns another Tensor over the same bytes, and `Tensor.tile()` turns the pattern into
one core tile (core's `trn::access_pattern`, which checks that every element lies inside the allocation).

On-chip tensors have exactly one partition axis (the first axis, or the one given as `nl.par_dim`);
the other axes are free axes with element strides. An HBM tensor has element strides on every axis;
when it is an instruction operand (a DMA endpoint) its first axis becomes the partitions.

Index expressions: ints, slices (positive step), `nl.ds(start, size)`, `...`, and affine expressions
of `nl.arange` / `nl.mgrid` indices (`offset + nl.arange(128)[:, None]`, `i_f2 * F1 + i_f1`): each
becomes one stride per result axis of the pattern. Slices mixed with arange expressions in one
subscript and non-affine (data-dependent) indices raise NotImplementedError; masks (mask=) narrow the
operands of a call to a box of its index grid (_mask.py).
"""
import numpy as np

from .. import _core

_c = _core.nki


def unsupported(name, why=""):
    raise NotImplementedError(f"trnsci.nki: {name} is not supported" + (f" ({why})" if why else "")
                              + "; docs/nki.md lists the supported subset")


# ---- dtypes ------------------------------------------------------------------------------------

class DType:
    """A dtype numpy cannot represent (bfloat16, tfloat32, fp8): its core name and its numpy storage."""

    def __init__(self, name, storage):
        self.name = name
        self.storage = np.dtype(storage)
        self.itemsize = self.storage.itemsize

    def __repr__(self):
        return f"nl.{self.name}"

    def __eq__(self, other):
        return isinstance(other, DType) and other.name == self.name

    def __hash__(self):
        return hash(self.name)


bfloat16 = DType("bfloat16", np.uint16)
tfloat32 = DType("tfloat32", np.float32)
float8_e4m3 = DType("float8_e4m3", np.uint8)
float8_e5m2 = DType("float8_e5m2", np.uint8)

_NUMPY_CORE = {"float32": "float32", "float16": "float16", "int8": "int8", "int16": "int16", "int32": "int32",
               "uint8": "uint8", "uint16": "uint16", "uint32": "uint32", "bool": "uint8"}


def core_dtype(dt):
    """The core name of a dtype given as nl.<type>, a numpy dtype / type, or a name."""
    if isinstance(dt, DType):
        return dt.name
    try:
        name = np.dtype(dt).name
    except TypeError:
        unsupported(f"dtype {dt!r}")
    if name not in _NUMPY_CORE:
        unsupported(f"dtype {name}", "float64 and complex types do not exist on a NeuronCore")
    return _NUMPY_CORE[name]


def public_dtype(dt):
    """What `tensor.dtype` shows: a numpy dtype where numpy has the type, else the nl DType."""
    return dt if isinstance(dt, DType) else np.dtype(dt)


def storage_dtype(dt):
    return dt.storage if isinstance(dt, DType) else np.dtype(dt)


def is_float_dtype(dt):
    return isinstance(dt, DType) or np.issubdtype(np.dtype(dt), np.floating)


# ---- index expressions -------------------------------------------------------------------------

class IndexExpr:
    """const + sum(coef * i_r): an affine index over result axes r of an R-dimensional index grid."""

    def __init__(self, ndim, terms, const=0):
        self.ndim = ndim            # rank of the index grid (numpy broadcasting rank)
        self.terms = dict(terms)    # result axis -> (coefficient, extent)
        self.const = const

    @staticmethod
    def _lift(x, ndim):
        if isinstance(x, IndexExpr):
            return x
        if isinstance(x, (int, np.integer)):
            return IndexExpr(ndim, {}, int(x))
        unsupported(f"index arithmetic with {type(x).__name__}", "indices are affine in nl.arange / nl.mgrid")

    def _combine(self, other, sign):
        o = IndexExpr._lift(other, self.ndim)
        ndim = max(self.ndim, o.ndim)
        # numpy broadcasting aligns trailing axes
        terms = {r + ndim - self.ndim: t for r, t in self.terms.items()}
        for r, (c, n) in o.terms.items():
            r += ndim - o.ndim
            c0, n0 = terms.get(r, (0, n))
            if n0 != n:
                raise IndexError(f"trnsci.nki: index axes of extent {n0} and {n} do not broadcast")
            terms[r] = (c0 + sign * c, n)
        return IndexExpr(ndim, terms, self.const + sign * o.const)

    def __add__(self, o):
        return self._combine(o, 1)

    __radd__ = __add__

    def __sub__(self, o):
        return self._combine(o, -1)

    def __rsub__(self, o):
        return (-self)._combine(o, 1)

    def __neg__(self):
        return IndexExpr(self.ndim, {r: (-c, n) for r, (c, n) in self.terms.items()}, -self.const)

    def __mul__(self, k):
        if not isinstance(k, (int, np.integer)):
            unsupported("a product of two index expressions", "indices are affine")
        return IndexExpr(self.ndim, {r: (c * int(k), n) for r, (c, n) in self.terms.items()}, self.const * int(k))

    __rmul__ = __mul__

    def __getitem__(self, key):
        """numpy-style reshaping of an index vector: arange(n)[:, None], arange(n)[None, :, None] ..."""
        key = key if isinstance(key, tuple) else (key,)
        if self.ndim != 1 or sum(k is not None for k in key) != 1:
            unsupported("this subscript of an index expression")
        (axis,) = [i for i, k in enumerate(key) if k is not None]
        if key[axis] != slice(None):
            unsupported("slicing an index expression")
        return IndexExpr(len(key), {axis: self.terms[0]} if self.terms else {}, self.const)

    def extent(self, r):
        return self.terms[r][1] if r in self.terms else 1

    def bounds(self):
        lo = hi = self.const
        for c, n in self.terms.values():
            lo += min(0, c * (n - 1))
            hi += max(0, c * (n - 1))
        return lo, hi


def arange(*args):
    r = range(*args)
    if r.step <= 0 or len(r) == 0:
        raise IndexError("trnsci.nki: nl.arange needs a positive step and a non-empty range")
    return IndexExpr(1, {0: (r.step, len(r))}, r.start)


class _MGrid:
    def __getitem__(self, key):
        key = key if isinstance(key, tuple) else (key,)
        out = []
        for axis, s in enumerate(key):
            r = range(s.start or 0, s.stop, s.step or 1)
            out.append(IndexExpr(len(key), {axis: (r.step, len(r))}, r.start))
        return out if len(out) > 1 else out[0]


mgrid = _MGrid()


class ds:
    """nl.ds(start, size): a dynamic slice, the same as start:start+size here."""

    def __init__(self, start, size):
        self.start, self.size = int(start), int(size)


class par_dim:
    """nl.par_dim(n) in a shape marks the partition axis; axes before it are block axes."""

    def __init__(self, n):
        self.n = int(n)

    def __index__(self):
        return self.n

    def __int__(self):
        return self.n


# ---- tensors -----------------------------------------------------------------------------------

def _take(t, axis, k):
    """Block k of the folded axis of a PSUM tensor folded by liveness is used (_runtime.Allocation.take;
    only the declared tensor's outermost block axis is folded, so a folded axis of a view is that one)."""
    if t.fold[axis] is not None and getattr(t.owner, "folded", None) is not None:
        t.owner.take(int(k))


class Tensor:
    """An access pattern over an SBUF/PSUM allocation or an HBM numpy array (see module doc)."""

    def __init__(self, owner, buffer, dtype, shape, axes, offset, pfirst=0, fold=None):
        self.owner = owner          # _runtime.Allocation (on-chip) or _runtime.HbmArray
        self.buffer = buffer        # 'sbuf' | 'psum' | 'hbm'
        self._dtype = dtype
        self.shape = tuple(int(s) for s in shape)
        self.axes = list(axes)      # per axis: element stride, or None for the partition axis
        self.offset = int(offset)   # element offset inside a partition row (HBM: in the array)
        self.pfirst = int(pfirst)   # first partition row (on-chip)
        # per axis: None, or the modulus of a mod_alloc block axis (index i addresses tile i % fold)
        self.fold = list(fold) if fold is not None else [None] * len(self.shape)

    # -- properties NKI code reads --
    @property
    def dtype(self):
        return public_dtype(self._dtype)

    @property
    def ndim(self):
        return len(self.shape)

    def __len__(self):
        return self.shape[0]

    def __repr__(self):
        return f"<trnsci.nki tensor {self.buffer} {self.shape} {core_dtype(self._dtype)}>"

    def _same_region(self, other):
        return (isinstance(other, Tensor) and other.owner.root is self.owner.root and other.shape == self.shape
                and other.axes == self.axes and other.offset == self.offset and other.pfirst == self.pfirst
                and other.fold == self.fold)

    # -- indexing --
    def _key(self, key):
        key = key if isinstance(key, tuple) else (key,)
        if any(k is Ellipsis for k in key):
            i = [k is Ellipsis for k in key].index(True)
            key = key[:i] + (slice(None),) * (self.ndim - len(key) + 1) + key[i + 1:]
        if len(key) > self.ndim:
            raise IndexError(f"trnsci.nki: {len(key)} indices for a tensor of rank {self.ndim}")
        return key + (slice(None),) * (self.ndim - len(key))

    def __getitem__(self, key):
        key = self._key(key)
        if any(isinstance(k, IndexExpr) for k in key):
            return self._advanced(key)
        return self._basic(key)

    def _check_range(self, axis, lo, hi):
        if lo < 0 or hi >= self.shape[axis]:
            raise IndexError(f"trnsci.nki: index range [{lo}, {hi}] outside axis {axis} of extent "
                             f"{self.shape[axis]} (tensor {self.shape})")

    def _basic(self, key):
        shape, axes, fold, offset, pfirst = [], [], [], self.offset, self.pfirst
        for d, k in enumerate(key):
            st, m = self.axes[d], self.fold[d]
            if isinstance(k, ds):
                k = slice(k.start, k.start + k.size)
            if isinstance(k, (int, np.integer)):
                k = int(k) + (self.shape[d] if k < 0 else 0)
                self._check_range(d, k, k)
                if m is not None:   # a mod_alloc block axis: logical tile k is physical tile k % m
                    _take(self, d, k)
                    k %= m
                if st is None:      # the partition axis stays (one partition)
                    pfirst += k
                    shape.append(1)
                    axes.append(None)
                    fold.append(None)
                else:
                    offset += k * st
                continue
            if not isinstance(k, slice):
                unsupported(f"index of type {type(k).__name__}")
            for end in (k.start, k.stop):
                if end is not None and not -self.shape[d] <= end <= self.shape[d]:
                    raise IndexError(f"trnsci.nki: slice bound {end} outside axis {d} of extent {self.shape[d]} "
                                     f"(tensor {self.shape})")
            start, stop, step = k.indices(self.shape[d])
            if step <= 0:
                unsupported("a negative slice step")
            n = max(0, (stop - start + step - 1) // step)
            if n == 0:
                raise IndexError(f"trnsci.nki: empty slice on axis {d} of {self.shape}")
            if m is not None:
                for kk in range(start, start + n * step, step):
                    _take(self, d, kk)
            if m is not None and (start // m == (start + (n - 1) * step) // m):
                start, m = start % m, None   # inside one period of a mod_alloc block axis: plain strides
            if m is not None and (start, step) != (0, 1):
                unsupported("a slice of a mod_alloc block axis across its tile count")
            if st is None:
                if step != 1:
                    unsupported("a strided partition slice", "partitions are contiguous (ARCH2)")
                pfirst += start
                axes.append(None)
            else:
                offset += start * st
                axes.append(st * step)
            shape.append(n)
            fold.append(m)
        return Tensor(self.owner, self.buffer, self._dtype, shape, axes, offset, pfirst, fold)

    def _advanced(self, key):
        if any(isinstance(k, (slice, ds)) for k in key):
            unsupported("a subscript mixing slices with nl.arange/nl.mgrid expressions")
        rank = max(k.ndim for k in key if isinstance(k, IndexExpr))
        extents = [1] * rank
        strides = [0] * rank
        offset, pfirst, par_axis = self.offset, self.pfirst, None
        for d, k in enumerate(key):
            e = IndexExpr._lift(k, rank)
            lo, hi = e.bounds()
            self._check_range(d, lo, hi)
            if self.fold[d] is not None:
                if e.terms:
                    unsupported("an nl.arange index on a mod_alloc block axis")
                _take(self, d, e.const)
                e = IndexExpr(e.ndim, {}, e.const % self.fold[d])
            terms = {r + rank - e.ndim: t for r, t in e.terms.items()}
            for r, (c, n) in terms.items():
                if extents[r] not in (1, n):
                    raise IndexError("trnsci.nki: index axes do not broadcast")
                extents[r] = n
            if self.axes[d] is None:
                if len(terms) > 1 or any(c != 1 for c, _ in terms.values()):
                    unsupported("a partition index other than start + nl.arange(n)",
                                "partitions are contiguous (ARCH2)")
                pfirst += e.const
                par_axis = next(iter(terms), None)
                continue
            offset += e.const * self.axes[d]
            for r, (c, _) in terms.items():
                strides[r] += c * self.axes[d]
        axes = [None if r == par_axis else strides[r] for r in range(rank)]
        if self.buffer != "hbm" and par_axis is None:
            axes = [None] + axes    # one partition
            extents = [1] + extents
        return Tensor(self.owner, self.buffer, self._dtype, extents, axes, offset, pfirst)

    # -- as a core tile --
    def tile(self):
        """This pattern as one core tile: partition axis first, the other axes as free dims (narrowed
        to the box of the mask= of the call being run, _mask.py)."""
        self = narrowed(self)  # noqa: PLW0642
        if any(m is not None and n > m for n, m in zip(self.shape, self.fold)):
            unsupported("an operand spanning more logical tiles of a mod_alloc block axis than its tile count")
        if getattr(self.owner, "read", None) is not None:   # mod_alloc PSUM accumulation groups (language._iop)
            self.owner.read.add((self.pfirst, self.offset, self.shape, tuple(self.axes)))
        if self.buffer == "psum" and getattr(self.owner, "touched", None) is not None:   # language._iop
            self.owner.touched.add((self.pfirst, self.offset, self.shape, tuple(self.axes)))
        if self.buffer == "hbm":
            shape = self.shape if self.ndim > 0 else (1,)
            axes = self.axes if self.ndim > 0 else [1]
            pcount, pstep = shape[0], axes[0] or 1
            free = list(zip(shape[1:], axes[1:]))
            pfirst = 0
        else:
            p = self.axes.index(None)
            pcount, pstep, pfirst = self.shape[p], 0, self.pfirst
            free = [(n, s) for i, (n, s) in enumerate(zip(self.shape, self.axes)) if i != p]
        dims = _merge_dims(free)
        t = self.owner.root.pattern(pfirst, pcount, pstep, self.offset, dims)
        return t

    def free_shape(self):
        """The non-partition extents (on-chip) or all but the first (HBM)."""
        if self.buffer == "hbm":
            return self.shape[1:]
        p = self.axes.index(None)
        return self.shape[:p] + self.shape[p + 1:]

    def partitions(self):
        if self.buffer == "hbm":
            return self.shape[0] if self.shape else 1
        return self.shape[self.axes.index(None)]

    # -- NKI methods --
    def reshape(self, shape):
        unsupported("Tensor.reshape")

    def ap(self, *a, **k):
        unsupported("Tensor.ap")

    # arithmetic and broadcast_to: see language.py (bound there, so this module does not import it)


def _merge_dims(free):
    """Free dims (size, stride) without unit axes, adjacent ones merged; at most 4 (core checks)."""
    dims = [(n, s) for n, s in free if n != 1]
    merged = []
    for n, s in dims:
        if merged and merged[-1][1] == n * s:
            merged[-1] = (merged[-1][0] * n, s)
        else:
            merged.append((n, s))
    return merged or [(1, 1)]


# The narrowing box of the masked call being run ({axis from the end: (lo, hi, extent)}), set by
# _mask.masked (NKI's mask=, see _mask.py); Tensor.tile() narrows every operand to it.
mask_box = [None]


def narrowed(t):
    """Tensor t narrowed to the active mask's box (t itself when no masked call runs)."""
    b = mask_box[0]
    if not b:
        return t
    key = [slice(None)] * t.ndim
    for axis, (lo, hi, n) in b.items():
        d = t.ndim + axis
        if d < 0 or t.shape[d] == 1 and n != 1:
            continue      # an operand broadcast along this grid axis ([P, 1] scalars, reduction results)
        if t.shape[d] != n:
            unsupported(f"mask over an operand of shape {t.shape}: axis {d} has extent {t.shape[d]}, the index "
                        f"grid {n}")
        key[d] = slice(lo, hi + 1)
    return t._basic(tuple(key))
