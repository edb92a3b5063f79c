"""trnsci.rand: the same bits as the same sequence of trnrand C calls (ctypes); numpy-like shapes."""
import ctypes

import numpy as np
import pytest

import trnsci
from conftest import bits_equal


class CGen:
    def __init__(self, capi, rng_type, seed):
        self.lib = capi.rand
        self.g = ctypes.c_void_p()
        assert self.lib.trnrandCreateGenerator(ctypes.byref(self.g), rng_type) == 0
        assert self.lib.trnrandSetPseudoRandomGeneratorSeed(self.g, ctypes.c_ulonglong(seed)) == 0

    def call(self, fn, n, dtype, *args):
        out = np.zeros(n, dtype=dtype)
        assert getattr(self.lib, fn)(self.g, out.ctypes.data_as(ctypes.c_void_p), ctypes.c_size_t(n), *args) == 0
        return out

    def __del__(self):
        self.lib.trnrandDestroyGenerator(self.g)


@pytest.mark.parametrize("rng, code", [("philox", 161), ("xorwow", 101), ("mrg32k3a", 121), ("mt19937", 142)])
def test_stream_equals_c_calls(capi, rng, code):
    g = trnsci.rand.Generator(42, rng=rng)
    c = CGen(capi, code, 42)
    assert bits_equal(g.random(10, dtype=np.float32), c.call("trnrandGenerateUniform", 10, np.float32))
    assert bits_equal(g.random(6), c.call("trnrandGenerateUniformDouble", 6, np.float64))
    assert bits_equal(g.normal(1.5, 2.0, 8, dtype=np.float32),
                      c.call("trnrandGenerateNormal", 8, np.float32, ctypes.c_float(1.5), ctypes.c_float(2.0)))
    assert bits_equal(g.bits32(5), c.call("trnrandGenerate", 5, np.uint32))
    assert bits_equal(g.poisson(4.0, 7), c.call("trnrandGeneratePoisson", 7, np.uint32, ctypes.c_double(4.0)))


def test_odd_normal_drops_one_value(capi):
    g = trnsci.rand.Generator(7)
    c = CGen(capi, 161, 7)
    x = g.standard_normal((3, 3))
    ref = c.call("trnrandGenerateNormalDouble", 10, np.float64, ctypes.c_double(0.0), ctypes.c_double(1.0))
    assert x.shape == (3, 3) and bits_equal(x.reshape(-1), ref[:9])


def test_distributions_statistics():
    g = trnsci.rand.default_rng(2024)
    u = g.random(20000)
    assert 0.0 < u.min() and u.max() <= 1.0 and abs(u.mean() - 0.5) < 0.01
    n = g.normal(3.0, 2.0, 20000)
    assert abs(n.mean() - 3.0) < 0.05 and abs(n.std() - 2.0) < 0.05
    i = g.integers(5, 9, size=10000)
    assert i.min() == 5 and i.max() == 8
    e = g.exponential(2.0, 20000)
    assert abs(e.mean() - 2.0) < 0.08
    assert g.random().shape == () and g.random((2, 3)).shape == (2, 3)
    assert g.last_profile.modeled_ns > 0


def test_rand_errors():
    with pytest.raises(ValueError):
        trnsci.rand.Generator(rng="lcg")
    g = trnsci.rand.Generator()
    with pytest.raises(trnsci.InvalidValueError) as info:
        g.poisson(-1.0, 4)
    assert info.value.status.startswith("TRNRAND_STATUS_")
    with pytest.raises(TypeError):
        g.random(3, dtype=np.int32)


def test_remaining_methods_equal_c_calls(capi):
    """lognormal, exponential, bernoulli, integers, uniform(low, high), set_offset, set_seed and the
    constructor's offset=: the same C calls in the same order (one stream)."""
    g = trnsci.rand.Generator(9, offset=3)
    c = CGen(capi, 161, 9)
    assert c.lib.trnrandSetGeneratorOffset(c.g, ctypes.c_ulonglong(3)) == 0
    f, d = ctypes.c_float, ctypes.c_double
    assert bits_equal(g.lognormal(0.5, 0.25, 6, dtype=np.float32),
                      c.call("trnrandGenerateLogNormal", 6, np.float32, f(0.5), f(0.25)))
    assert bits_equal(g.lognormal(0.5, 0.25, 4), c.call("trnrandGenerateLogNormalDouble", 4, np.float64, d(0.5), d(0.25)))
    assert bits_equal(g.exponential(2.0, 5), c.call("trnrandGenerateExponentialDouble", 5, np.float64, d(0.5)))
    assert bits_equal(g.exponential(4.0, 3, dtype=np.float32),
                      c.call("trnrandGenerateExponential", 3, np.float32, f(0.25)))
    assert bits_equal(g.bernoulli(0.3, 9), c.call("trnrandGenerateBernoulli", 9, np.uint32, d(0.3)))
    assert bits_equal(g.integers(5, 17, size=8),
                      c.call("trnrandGenerateUniformInt", 8, np.uint32, ctypes.c_uint(5), ctypes.c_uint(16)))
    u = c.call("trnrandGenerateUniformDouble", 7, np.float64)
    assert bits_equal(g.uniform(-2.0, 3.0, 7), u * 5.0 + -2.0)
    g.set_offset(100)
    assert c.lib.trnrandSetGeneratorOffset(c.g, ctypes.c_ulonglong(100)) == 0
    assert bits_equal(g.bits32(4), c.call("trnrandGenerate", 4, np.uint32))
    g.set_seed(77)
    assert c.lib.trnrandSetPseudoRandomGeneratorSeed(c.g, ctypes.c_ulonglong(77)) == 0
    assert bits_equal(g.random(5, dtype=np.float32), c.call("trnrandGenerateUniform", 5, np.float32))


def test_sobol64_bits64_equal_c_calls(capi):
    """bits64 (curandGenerateLongLong) on a 3-dimensional SOBOL64 generator, as the C calls make it."""
    g = trnsci.rand.Generator(rng="sobol64", dimensions=3)
    lib, h = capi.rand, ctypes.c_void_p()
    assert lib.trnrandCreateGenerator(ctypes.byref(h), 203) == 0
    assert lib.trnrandSetQuasiRandomGeneratorDimensions(h, ctypes.c_uint(3)) == 0
    out = np.zeros(12, dtype=np.uint64)
    assert lib.trnrandGenerateLongLong(h, out.ctypes.data_as(ctypes.c_void_p), ctypes.c_size_t(12)) == 0
    lib.trnrandDestroyGenerator(h)
    assert bits_equal(g.bits64(12), out)
