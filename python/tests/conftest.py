"""pytest set-up of the trnsci Python tests: the package from PYTHONPATH (build/python under ctest),
and `capi`: the libraries' C APIs through ctypes (the same shared libraries _core links), so tests
compare every binding with the C call it stands for, bit for bit."""
import ctypes

import numpy as np
import pytest

import trnsci


class CApi:
    """ctypes access to the trnsci C libraries already loaded by trnsci._core."""

    def __init__(self):
        self.blas = ctypes.CDLL("libtrnblas.so.0")
        self.fft = ctypes.CDLL("libtrnfft.so.0")
        self.rand = ctypes.CDLL("libtrnrand.so.0")
        self.solver = ctypes.CDLL("libtrnsolver.so.0")
        self.sparse = ctypes.CDLL("libtrnsparse.so.0")
        self.tensor = ctypes.CDLL("libtrntensor.so.0")

    @staticmethod
    def ptr(a):
        return a.ctypes.data_as(ctypes.c_void_p)

    def blas_handle(self, target=1, cores=1):
        h = ctypes.c_void_p()
        assert self.blas.trnblasCreate(ctypes.byref(h)) == 0
        assert self.blas.trnblasSetTarget(h, target) == 0
        assert self.blas.trnblasSetNumCores(h, cores) == 0
        return h


@pytest.fixture(scope="session")
def capi():
    return CApi()


@pytest.fixture
def rng():
    return np.random.default_rng(12345)


def bits_equal(x, y):
    """Same shape, dtype and bits (layout-independent)."""
    x, y = np.ascontiguousarray(x), np.ascontiguousarray(y)
    return x.shape == y.shape and x.dtype == y.dtype and x.tobytes() == y.tobytes()
