"""Programs, allocations and launches of trnsci.nki.

A kernel call runs the Python kernel once per SPMD program through core's trn::launch (on the calling
thread; programs run one after another). Each program starts with empty SBUF/PSUM.

Buffers. NKI allocates a tile declared in a loop body afresh every iteration and the compiler rotates
physical buffers under it. Here a tensor's allocation is released when the last Python reference to
it goes (CPython frees deterministically), but it is not handed back to core's allocator at once:
released allocations of one (buffer, dtype, shape) wait in a FIFO, stamped with their release batch
(the releases between two allocation phases of that shape: one loop iteration's tiles), and an
allocation reuses the oldest waiting one only when `buffers - 1` batches were released after it (SBUF;
PSUM: `psum_buffers`). So the tiles allocated in a loop body rotate through about `buffers` physical
copies (a tile the next iteration's allocation still sees alive adds one), which is what the compiler
does and what examples/nki_matmul_tutorial.cpp models (TutorialOptions::buffers = 4). When SBUF/PSUM is
full, waiting allocations are reused or returned first; only a request that cannot fit with nothing
waiting raises core's LimitError (capacity, naming the tensor).
"""
import collections

import numpy as np

from .. import _core
from ._tensor import Tensor, core_dtype, par_dim, storage_dtype, unsupported

_c = _core.nki


class Allocation:
    """One SBUF/PSUM allocation of the running program; released to the program's pools on last use."""

    def __init__(self, program, key, root):
        self.program = program
        self.key = key
        self.root = root
        self.matmul_written = set()   # PSUM: regions a matmul has written (accumulate=None semantics)
        self.zeroed = set()           # PSUM: regions only a memset(0) wrote

    def __del__(self):
        prog = self.program
        if prog is not None and prog.active:
            prog.release(self.key, self.root)


class HbmArray:
    """An HBM tensor: a C-contiguous numpy array and its core tile (one row of all elements)."""

    def __init__(self, array, dtype):
        self.array = array
        self.dtype = dtype
        self.root = _c.hbm_root(array.reshape(-1) if array.ndim else array.reshape(1), core_dtype(dtype))


def hbm_tensor(array, dtype=None):
    dtype = dtype if dtype is not None else array.dtype
    owner = HbmArray(array, dtype)
    strides = [s // array.itemsize for s in array.strides]
    return Tensor(owner, "hbm", dtype, array.shape, strides, 0)


class _Pool:
    """Released allocations of one (buffer, dtype, shape), oldest first, stamped with their release batch."""

    def __init__(self):
        self.waiting = collections.deque()
        self.batch = 0             # release batches so far (a batch: releases after an allocation)
        self.allocating = True

    def reusable(self, depth):
        return bool(self.waiting) and self.batch - self.waiting[0][1] >= depth - 1


class Program:
    """State of the program being run: pools of released allocations, shared HBM outputs."""

    def __init__(self, launch_state):
        self.launch = launch_state
        self.active = True
        self.pools = collections.defaultdict(_Pool)
        self.shared_index = 0
        self.serial = 0

    def depth(self, space):
        return self.launch.psum_buffers if space == "psum" else self.launch.buffers

    def release(self, key, root):
        pool = self.pools[key]
        if pool.allocating:
            pool.batch += 1
            pool.allocating = False
        pool.waiting.append((root, pool.batch))

    def _flush(self):
        for pool in self.pools.values():
            while pool.waiting:
                _c.free(pool.waiting.popleft()[0])

    def allocate(self, space, dtype, partitions, free, name):
        key = (space, core_dtype(dtype), partitions, free)
        pool = self.pools[key]
        pool.allocating = True
        if pool.reusable(self.depth(space)):
            return Allocation(self, key, pool.waiting.popleft()[0])
        self.serial += 1
        label = name or f"{space} tensor #{self.serial} [{partitions}, {free}] {core_dtype(dtype)}"
        try:
            root = _c.alloc(space, core_dtype(dtype), partitions, [free], label)
        except Exception:
            if pool.waiting:      # full: rotate through fewer copies
                return Allocation(self, key, pool.waiting.popleft()[0])
            if not any(p.waiting for p in self.pools.values()):
                raise
            self._flush()         # return every waiting buffer to the allocator and try once more
            try:
                root = _c.alloc(space, core_dtype(dtype), partitions, [free], label)
            except Exception as exc:
                raise exc from None
        return Allocation(self, key, root)

    def end(self):
        self.active = False
        self.pools.clear()


class LaunchState:
    def __init__(self, buffers, psum_buffers, execute, target):
        self.target = target
        self.buffers = max(1, int(buffers))
        self.psum_buffers = max(1, int(psum_buffers))
        self.execute = execute
        self.shared = []      # HBM outputs created with buffer=shared_hbm, shared by every program
        self.program = None


_state = None   # the LaunchState of the kernel being run


def current_program(who):
    if _state is None or _state.program is None or not _c.in_kernel():
        raise RuntimeError(f"trnsci.nki: {who} called outside a kernel")
    return _state.program


def on_chip(shape, dtype, buffer, name=None):
    """nl.ndarray in SBUF/PSUM: shape with an optional nl.par_dim axis (axes before it are blocks)."""
    prog = current_program("nl.ndarray")
    shape = list(shape)
    marks = [i for i, s in enumerate(shape) if isinstance(s, par_dim)]
    p = marks[0] if marks else 0
    dims = [int(s) for s in shape]
    if any(d < 1 for d in dims):
        raise ValueError(f"trnsci.nki: tensor shape {tuple(dims)} has an empty axis")
    free = 1
    for i, d in enumerate(dims):
        if i != p:
            free *= d
    alloc = prog.allocate(buffer, dtype, dims[p], free, name)
    # element strides of the free axes, row-major over the non-partition axes
    axes, st = [None] * len(dims), 1
    for i in reversed(range(len(dims))):
        if i != p:
            axes[i] = st
            st *= dims[i]
    return Tensor(alloc, buffer, dtype, dims, axes, 0, 0)


def hbm_ndarray(shape, dtype, buffer):
    """nl.ndarray in HBM: a numpy array; buffer=shared_hbm is one array for the whole grid."""
    prog = current_program("nl.ndarray")
    shape = tuple(int(s) for s in shape)
    st = storage_dtype(dtype)
    fill = np.nan if np.issubdtype(st, np.floating) and _state.execute else 0
    if buffer == "shared_hbm":
        i = prog.shared_index
        prog.shared_index += 1
        if i < len(_state.shared):
            arr = _state.shared[i]
            if arr.shape != shape or arr.dtype != st:
                raise ValueError("trnsci.nki: programs of one grid created different shared_hbm tensors")
        else:
            arr = np.full(shape, fill, st) if _state.execute else np.empty(shape, st)
            _state.shared.append(arr)
    else:
        arr = np.full(shape, fill, st) if _state.execute else np.empty(shape, st)
    return hbm_tensor(arr, dtype)


def _to_numpy(x):
    if isinstance(x, Tensor):
        if x.buffer != "hbm":
            raise TypeError("trnsci.nki: a kernel returns HBM tensors (nl.ndarray(..., buffer=nl.shared_hbm))")
        return _host_view(x.owner)
    if isinstance(x, (tuple, list)):
        return type(x)(_to_numpy(v) for v in x)
    if isinstance(x, dict):
        return {k: _to_numpy(v) for k, v in x.items()}
    return x


def _host_view(owner):
    """An output as numpy: bfloat16 widened exactly to float32 (numpy has no bf16); fp8 raises."""
    name = core_dtype(owner.dtype)
    if name == "bfloat16":
        return (owner.array.astype(np.uint32) << 16).view(np.float32)
    if name.startswith("float8"):
        unsupported(f"returning an {name} HBM tensor", "numpy has no fp8 type")
    return owner.array


def _wrap_arg(a):
    if isinstance(a, np.ndarray):
        if a.dtype == np.float64 or a.dtype.kind == "c":
            raise TypeError(f"trnsci.nki: kernel argument of dtype {a.dtype}: a NeuronCore has no "
                            "float64/complex (cast to float32, float16 or nl.bfloat16 storage)")
        a = np.ascontiguousarray(a)   # a strided or read-only argument is uploaded as a copy
        return hbm_tensor(a if a.flags.writeable else a.copy())
    return a


def run(fn, args, kwargs, grid, settings, execute=True, buffers=4, psum_buffers=8, name="kernel"):
    """Runs fn over the grid under `settings` (a trnsci._core.EmuSettings); returns (outputs as numpy,
    the launch's trnsci.Profile)."""
    global _state
    if _state is not None:
        raise RuntimeError("trnsci.nki: a kernel launch is already running (call the kernel's Python "
                           "function directly to reuse it inside a kernel)")
    grid = tuple(int(g) for g in grid) + (1,) * (3 - len(grid))
    if len(grid) > 3 or any(g < 1 for g in grid):
        raise ValueError(f"trnsci.nki: SPMD grid {grid} (at most 3 axes, each >= 1)")
    wrapped = [_wrap_arg(a) for a in args]
    wkw = {k: _wrap_arg(v) for k, v in kwargs.items()}
    target = {1: "trn1", 2: "trn2", 3: "trn3"}[settings.target]
    state = LaunchState(buffers, psum_buffers, execute, target)
    results = {}

    def program(p0, p1, p2):
        state.program = Program(state)
        try:
            out = fn(*wrapped, **wkw)
            if (p0, p1, p2) == (0, 0, 0):
                results["out"] = _to_numpy(out)
            del out
        finally:
            state.program.end()
            state.program = None

    _state = state
    try:
        profile = _c.launch(program, list(grid), settings, execute, name)
    finally:
        _state = None
    return results.get("out"), profile
