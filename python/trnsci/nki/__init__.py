"""trnsci.nki: run NKI kernels on the emulated NeuronCore, with capacity checks and modeled time.

    import trnsci.nki as nki
    import trnsci.nki.language as nl
    import trnsci.nki.isa as nisa

    @nki.jit
    def kernel(a, b): ...
    out = kernel(a, b)                                # numpy in, numpy out
    out, profile = nki.simulate(kernel, a, b, target="trn1")
    out = kernel[2, 4](a, b)                          # SPMD grid

`install_alias()` makes `import neuronxcc.nki ...` and `import nki ...` resolve to this package, so an
NKI kernel file runs unmodified. Every nl/nisa call is one core instruction (docs/nki.md); what is not
supported raises NotImplementedError naming the call.
"""
from .. import _settings
from . import _runtime, isa, language, typing
from ._alias import install_alias, uninstall_alias
from ._tensor import Tensor

__all__ = ["jit", "simulate", "simulate_kernel", "install_alias", "uninstall_alias", "language", "isa", "typing",
           "Tensor", "benchmark", "baremetal", "profile"]

def _grid(g):
    """A grid subscript: ints and nl.spmd_dim(n, nl.nc(c)) (n * c programs over c NeuronCores)."""
    g = g if isinstance(g, tuple) else (g,)
    dims, cores = [], 1
    for d in g:
        if isinstance(d, language.spmd_dim):
            dims.append(d.size * d.cores)
            cores *= d.cores
        elif isinstance(d, language.nc):
            dims.append(d.n)
            cores *= d.n
        else:
            dims.append(int(d))
    return tuple(dims), cores


class Kernel:
    """An @nki.jit kernel: called inside another kernel it is its Python function; called from the
    host it is launched on the emulator (grid by subscript) and returns numpy arrays."""

    def __init__(self, fn, grid=(1,), cores=None, options=None):
        self.fn = fn
        self.grid = grid
        self.cores = cores
        self.options = options or {}
        self.__name__ = getattr(fn, "__name__", "kernel")
        self.__doc__ = getattr(fn, "__doc__", None)
        self.__wrapped__ = fn
        self.last_profile = None

    def __getitem__(self, grid):
        dims, cores = _grid(grid)
        return Kernel(self.fn, dims, cores if cores > 1 else None, self.options)

    def __call__(self, *args, **kwargs):
        if _runtime._state is not None:
            return self.fn(*args, **kwargs)
        out, profile = simulate(self, *args, **kwargs)
        self.last_profile = profile
        return out


def jit(fn=None, **options):
    """@nki.jit / @nki.jit(mode=...): options other than mode are NKI compiler flags and are ignored."""
    if fn is None:
        return lambda f: Kernel(f, options=options)
    return Kernel(fn, options=options)


def simulate(kernel, *args, target=None, numerics=None, cores=None, grid=None, execute=True, buffers=4,
             psum_buffers=8, **kwargs):
    """Runs `kernel` (an @nki.jit kernel or a plain function written with nl/nisa) on the emulator.

    Returns (outputs, profile): the kernel's return value with HBM tensors as numpy arrays, and the
    trnsci.Profile of the whole launch (core's one Report: modeled time, per-engine busy, roofline,
    to_perfetto, the SVG timeline). Settings come from `trnsci.settings(...)`; target ("trn1" | "trn2" |
    "trn3"), numerics and cores (NeuronCores the grid is spread over) override them for this call.
    grid: the SPMD grid (else the kernel's `kernel[g1, g2]` subscript, else one program).
    execute=False records and models the instructions without computing them (outputs meaningless:
    the modeled time of shapes too large to emulate). buffers / psum_buffers: the physical copies a
    tile allocated in a loop rotates through (docs/nki.md "Buffers")."""
    fn = kernel.fn if isinstance(kernel, Kernel) else kernel
    g, gc = _grid(grid if grid is not None else (kernel.grid if isinstance(kernel, Kernel) else (1,)))
    if cores is None:
        if isinstance(kernel, Kernel) and kernel.cores:
            cores = kernel.cores
        elif gc > 1:
            cores = gc
    settings = _settings.resolve(target=target, cores=cores, numerics=numerics)
    return _runtime.run(fn, args, kwargs, g, settings, execute=execute, buffers=buffers, psum_buffers=psum_buffers,
                        name=getattr(fn, "__name__", "kernel"))


def simulate_kernel(kernel, *args, **kwargs):
    """NKI's nki.simulate_kernel: the outputs only."""
    return simulate(kernel, *args, **kwargs)[0]


class _Unavailable:
    def __init__(self, name):
        self.name = name

    def __call__(self, *a, **k):
        raise NotImplementedError(f"trnsci.nki: nki.{self.name} is not supported (it needs Neuron hardware); "
                                  "use trnsci.nki.simulate for outputs and modeled time")


class _Space:
    def __init__(self, space):
        self.space = space

    def mod_alloc(self, *a, **kw):
        """nki.compiler.sbuf/psum.mod_alloc(base_addr= / base_bank=, num_free_tiles= / num_bank_tiles=):
        a manual modular placement (_runtime.placed: logical tiles folded onto the physical ones,
        placements sharing addresses alias)."""
        if a:
            language.unsupported(f"nki.compiler.{self.space}.mod_alloc with positional arguments")
        return _runtime.Placement(self.space, **kw)

    def alloc(self, *a, **kw):
        language.unsupported(f"nki.compiler.{self.space}.alloc", "allocation functions; mod_alloc is supported")


class compiler:
    """nki.compiler: compiler directives are accepted and have no effect on values."""
    sbuf = _Space("sbuf")
    psum = _Space("psum")

    @staticmethod
    def skip_middle_end_transformations(fn):
        return fn

    @staticmethod
    def no_reorder():
        return language.no_reorder()

    @staticmethod
    def enable_stack_allocator(*a, **k):
        return None


def baremetal(fn=None, **options):
    """nki.baremetal runs a kernel on the device: here on the emulated one (the same as nki.jit)."""
    return jit(fn, **options)


class _Latency:
    def __init__(self, us):
        self.us = us

    def get_latency_percentile(self, p):
        """The modeled latency in microseconds (the model is deterministic: every percentile)."""
        return self.us


class _BenchmarkResult:
    def __init__(self, profile):
        self.nc_latency = _Latency(profile.modeled_us)


class _Benchmarked(Kernel):
    def __call__(self, *args, **kwargs):
        out, p = simulate(self, *args, **kwargs)
        self.last_profile = p
        self.benchmark_result = _BenchmarkResult(p)
        return out


def benchmark(fn=None, **options):
    """nki.benchmark: runs the kernel once on the emulator; `.benchmark_result.nc_latency` holds the
    modeled latency (warmup/iters and the NEFF/NTFF file options are ignored)."""
    def wrap(f):
        k = f if isinstance(f, Kernel) else Kernel(f)
        return _Benchmarked(k.fn, k.grid, k.cores, options)
    return wrap if fn is None else wrap(fn)


profile = _Unavailable("profile")


def __getattr__(name):
    if name.startswith("__"):
        raise AttributeError(name)
    return language._Unsupported(f"nki.{name}")
