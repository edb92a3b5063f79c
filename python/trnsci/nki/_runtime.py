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
from ..errors import LimitError
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
        self.touched = set()          # PSUM: regions any instruction used (else fresh: `+=` opens a group)
        self.folded = None            # PSUM folded by liveness: (blocks, m, block elements, name)

    def fold_by_liveness(self, blocks, m, block_elems, name):
        """This allocation holds m of a block tensor's `blocks` outer blocks (_folded_psum): PSUM
        accumulation groups then follow mod_alloc's rule (self.read, language._starts_group)."""
        self.folded = (blocks, m, block_elems, name)
        self.read = set()
        self.holder, self.retired = {}, {}

    def take(self, k):
        """Block k of a liveness-folded tensor is used: it takes physical block k % m from the block
        holding it (whose regions' accumulation state is dropped: the space is fresh for k); a block
        used again after losing its space raises LimitError."""
        blocks, m, elems, name = self.folded
        slot = k % m
        held = self.holder.get(slot)
        if held == k:
            return
        if k in self.retired.setdefault(slot, set()):
            raise LimitError(f"PSUM alloc: block {k} of {name or 'a PSUM block tensor'} ({blocks} blocks declared, "
                             f"{m} fit in PSUM: folded by liveness) is used again after block {held} took its "
                             "space; NKI's compiler could not fold it either: declare fewer blocks or place them "
                             "with nki.compiler.psum.mod_alloc")
        if held is not None:
            self.retired[slot].add(held)
        self.holder[slot] = k
        lo, hi = slot * elems, (slot + 1) * elems
        for regions in (self.matmul_written, self.zeroed, self.read, self.touched):
            for r in [r for r in regions if lo <= r[1] < hi]:
                regions.discard(r)

    def __del__(self):
        prog = self.program
        if prog is not None and prog.active:
            prog.release(self.key, self.root)


class Placement:
    """nki.compiler.sbuf/psum.mod_alloc(...): a manual placement (see `placed`)."""

    def __init__(self, space, base_addr=None, base_bank=None, base_partition=0, num_par_tiles=(), num_free_tiles=(),
                 num_bank_tiles=(), **kw):
        if kw:
            unsupported(f"nki.compiler.{space}.mod_alloc(" + ", ".join(kw) + "=...)")
        if base_partition or any(n != 1 for n in num_par_tiles):
            unsupported(f"nki.compiler.{space}.mod_alloc(base_partition=/num_par_tiles=)", "partition placement")
        self.space = space
        self.base = int(base_bank or 0) if space == "psum" else int(base_addr or 0)
        self.tiles = tuple(int(n) for n in (num_bank_tiles if space == "psum" else num_free_tiles))
        if any(n < 1 for n in self.tiles):
            raise ValueError(f"trnsci.nki: mod_alloc tile counts {self.tiles} must be >= 1")


class Region:
    """The allocation behind mod_alloc placements of one program: placed tensors whose address ranges
    lie inside it are views of it (aliasing as on the device); it lives until the program ends."""

    def __init__(self, start, end, root, itemsize):
        self.start, self.end, self.root, self.itemsize = start, end, root, itemsize
        self.matmul_written, self.zeroed, self.read = set(), set(), set()


class PlacedView:
    """A placed tensor's owner: the region read in the tensor's dtype; region state shared."""

    def __init__(self, region, root):
        self.root = root
        self.matmul_written, self.zeroed, self.read = region.matmul_written, region.zeroed, region.read


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
        self.regions = {}          # mod_alloc regions per space

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

    def region(self, space, start, end, dtype, name):
        """The mod_alloc region holding [start, end) bytes per partition (a new one when none does)."""
        regions = self.regions.setdefault(space, [])
        for r in regions:
            if r.start <= start and end <= r.end:
                return r
            if start < r.end and r.start < end:
                unsupported(f"nki.compiler.{space}.mod_alloc placements overlapping partially "
                            f"([{start}, {end}) and [{r.start}, {r.end}) bytes)")
        item = storage_dtype(dtype).itemsize
        pmax = _c.tile_size(self.launch.target)["pmax"]
        label = name or f"{space} mod_alloc [{start}, {end}) bytes"
        r = Region(start, end, _c.alloc(space, core_dtype(dtype), pmax, [(end - start) // item], label), item)
        regions.append(r)
        return r

    def end(self):
        self.active = False
        self.pools.clear()
        self.regions = {}


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
    fold = None
    try:
        alloc = prog.allocate(buffer, dtype, dims[p], free, name)
    except LimitError:
        if buffer != "psum" or p == 0 or dims[0] < 2:
            raise
        alloc, fold = _folded_psum(prog, dtype, dims, p, free, name)
    # element strides of the free axes, row-major over the non-partition axes
    axes, st = [None] * len(dims), 1
    for i in reversed(range(len(dims))):
        if i != p:
            axes[i] = st
            st *= dims[i]
    if fold is not None:
        alloc.fold_by_liveness(dims[0], fold, axes[0], name)
    return Tensor(alloc, buffer, dtype, dims, axes, 0, 0, None if fold is None else [fold] + [None] * (len(dims) - 1))


def _folded_psum(prog, dtype, dims, p, free, name):
    """A PSUM block tensor larger than PSUM: its outermost block axis folded to the most blocks that
    fit (block k in physical block k % m), as NKI's compiler folds block dimensions by liveness.
    Allocation.take() checks every use: a block is live from its first use until another block takes
    its physical space, and a block used again after that raises (never a silently shared value)."""
    per_block = free // dims[0]
    for m in range(dims[0] - 1, 0, -1):
        try:
            return prog.allocate("psum", dtype, dims[p], per_block * m, name), m
        except LimitError:
            continue
    raise LimitError(f"PSUM alloc: block tensor {name or tuple(dims)} does not fit even with its outermost block "
                     f"axis folded to one block (liveness folding, docs/nki.md)")


def placed(shape, dtype, placement, name=None):
    """nl.ndarray(..., buffer=nki.compiler.<space>.mod_alloc(...)): logical tile b (the block indices,
    axes before the partition axis) lives in physical tile sum_d (b_d % n_d) prod(n_{d+1..}) of
    prod(n) tiles starting at base_addr bytes (SBUF; tiles packed) or base_bank (PSUM; a tile takes
    whole banks); a tensor without block axes is one tile. Placements whose byte ranges nest share one
    allocation (the same bytes); the absolute address is core's allocator's choice."""
    prog = current_program("nl.ndarray")
    space = placement.space
    dims = [int(s) for s in shape]
    marks = [i for i, s in enumerate(shape) if isinstance(s, par_dim)]
    p = marks[0] if marks else 0
    if any(d < 1 for d in dims):
        raise ValueError(f"trnsci.nki: tensor shape {tuple(dims)} has an empty axis")
    item = storage_dtype(dtype).itemsize
    tile_elems = int(np.prod(dims[p + 1:], dtype=np.int64))
    tile_bytes = tile_elems * item
    bank = _c.tile_size(prog.launch.target)["psum_fmax"] * 4
    stride_bytes = -(-tile_bytes // bank) * bank if space == "psum" else tile_bytes
    tiles = placement.tiles if p > 0 else ()
    if p > 0 and len(tiles) != p:
        unsupported(f"nki.compiler.{space}.mod_alloc with {len(tiles)} tile counts for {p} block axes")
    count = int(np.prod(tiles, dtype=np.int64)) if tiles else 1
    start = placement.base * (bank if space == "psum" else 1)
    end = start + count * stride_bytes
    limits = _c.tile_size(prog.launch.target)
    capacity = limits["psum_partition_bytes" if space == "psum" else "sbuf_partition_bytes"]
    if start < 0 or end > capacity:
        raise LimitError(f"nki.compiler.{space}.mod_alloc: bytes [{start}, {end}) per partition violates "
                         f"partition capacity {capacity} ({prog.launch.target})")
    region = prog.region(space, start, end, dtype, name)
    if region.itemsize != item:
        unsupported(f"nki.compiler.{space}.mod_alloc placements of {region.itemsize}- and {item}-byte elements "
                    "sharing addresses")
    root = region.root if core_dtype(dtype) == region.root.dtype else region.root.bitcast(core_dtype(dtype))
    if (start - region.start) % item:
        unsupported(f"nki.compiler.{space}.mod_alloc at a byte offset not a multiple of the element size")
    axes, fold, st = [None] * len(dims), [None] * len(dims), 1
    for i in reversed(range(p + 1, len(dims))):
        axes[i] = st
        st *= dims[i]
    block = stride_bytes // item
    for i in reversed(range(p)):
        axes[i], fold[i] = block, tiles[i]
        block *= tiles[i]
    return Tensor(PlacedView(region, root), space, dtype, dims, axes, (start - region.start) // item, 0, fold)


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
