"""trnsci.rand: trnrand's cuRAND-identical generators with numpy-like methods (docs/python.md).

    g = trnsci.rand.Generator(seed=1234)                 # Philox4x32-10, as curandCreateGenerator(161)
    x = g.standard_normal(1000, dtype=np.float32)        # = curandGenerateNormal(g, x, 1000, 0, 1)

Consecutive calls continue one stream, exactly as consecutive C calls on one generator do: the
values are cuRAND's bits (the tests compare with trnrand's C API).  Differences from numpy, all
cuRAND's: uniforms are in (0, 1] (not [0, 1)); integers(low, high) draws [low, high) through
trnrandGenerateUniformInt (32-bit range); normal/lognormal of odd sizes generate one value more (cuRAND
requires even counts) and drop it, so the stream advances by the even count.  rng: "philox"
(default), "xorwow", "mrg32k3a", "mtgp32", "mt19937", "sobol32", "sobol64" (quasi: dimensions=).
"""
import math

import numpy as np

from . import _core
from ._call import settings_of

RNG_TYPES = {"default": 100, "xorwow": 101, "mrg32k3a": 121, "mtgp32": 141, "mt19937": 142, "philox": 161,
             "sobol32": 201, "sobol64": 203}
_D = _core.rand.Dist


def _size(size):
    if size is None:
        return (), 1
    shape = (int(size),) if np.isscalar(size) else tuple(int(v) for v in size)
    if any(v < 0 for v in shape):
        raise ValueError("negative dimensions are not allowed")
    return shape, math.prod(shape)


def _float(dtype):
    dt = np.dtype(dtype)
    if dt not in (np.float32, np.float64):
        raise TypeError(f"dtype must be float32 or float64, got {dt}")
    return dt == np.float64


class Generator:
    """A trnrand generator (cuRAND semantics) with numpy-like methods."""

    def __init__(self, seed=0, *, rng="philox", offset=0, ordering=None, dimensions=0):
        if rng not in RNG_TYPES:
            raise ValueError(f"rng must be one of {sorted(RNG_TYPES)}, got {rng!r}")
        self.rng = rng
        self._g = _core.rand.Generator(RNG_TYPES[rng], int(seed), int(offset), int(ordering or 0), int(dimensions))
        self.last_profile = None

    def _gen(self, dist, size, f64, p1=0.0, p2=0.0, even=False, target=None, cores=None):
        shape, n = _size(size)
        count = n + (n % 2) if even else n
        out, self.last_profile = self._g.generate(dist, count, f64, float(p1), float(p2), settings_of(target, cores))
        out = out[:n].reshape(shape)
        return out[()] if size is None else out

    def bits32(self, size=None, **kw):
        """Raw 32-bit words (curandGenerate)."""
        return self._gen(_D.u32, size, False, **kw)

    def bits64(self, size=None, **kw):
        """Raw 64-bit words (curandGenerateLongLong; SOBOL64 generators)."""
        return self._gen(_D.u64, size, False, **kw)

    def random(self, size=None, dtype=np.float64, **kw):
        """Uniform on (0, 1] (curandGenerateUniform[Double])."""
        return self._gen(_D.uniform, size, _float(dtype), **kw)

    def uniform(self, low=0.0, high=1.0, size=None, dtype=np.float64, **kw):
        """low + (high - low) * random() (the affine map in numpy, after the C call)."""
        u = self.random(size, dtype, **kw)
        return u * (high - low) + low

    def standard_normal(self, size=None, dtype=np.float64, **kw):
        return self.normal(0.0, 1.0, size, dtype, **kw)

    def normal(self, loc=0.0, scale=1.0, size=None, dtype=np.float64, **kw):
        """curandGenerateNormal[Double](mean=loc, stddev=scale)."""
        return self._gen(_D.normal, size, _float(dtype), loc, scale, even=True, **kw)

    def lognormal(self, mean=0.0, sigma=1.0, size=None, dtype=np.float64, **kw):
        """curandGenerateLogNormal[Double]."""
        return self._gen(_D.lognormal, size, _float(dtype), mean, sigma, even=True, **kw)

    def exponential(self, scale=1.0, size=None, dtype=np.float64, **kw):
        """Exponential with mean `scale` (trnrandGenerateExponential with rate 1/scale)."""
        return self._gen(_D.exponential, size, _float(dtype), 1.0 / scale, **kw)

    def poisson(self, lam=1.0, size=None, **kw):
        """curandGeneratePoisson (uint32)."""
        return self._gen(_D.poisson, size, False, lam, **kw)

    def bernoulli(self, p=0.5, size=None, **kw):
        """1 with probability p (uint32; trnrandGenerateBernoulli)."""
        return self._gen(_D.bernoulli, size, False, p, **kw)

    def integers(self, low, high=None, size=None, endpoint=False, **kw):
        """Uniform integers in [low, high) ([low, high] with endpoint=True), uint32, no modulo bias."""
        if high is None:
            low, high = 0, low
        top = high if endpoint else high - 1
        if not 0 <= low <= top < 2 ** 32:
            raise ValueError("need 0 <= low <= high - 1 < 2**32")
        return self._gen(_D.uniform_int, size, False, low, top, **kw)

    def set_offset(self, offset):
        """curandSetGeneratorOffset."""
        self._g.set_offset(int(offset))

    def set_seed(self, seed):
        """curandSetPseudoRandomGeneratorSeed."""
        self._g.set_seed(int(seed))


def default_rng(seed=0, **kw):
    """A Philox Generator (numpy.random.default_rng's shape)."""
    return Generator(seed, **kw)
