"""trnsci.fft.scipy_backend: trnfft as a SciPy FFT backend (SciPy's uarray protocol).

    import scipy.fft, trnsci
    with scipy.fft.set_backend(trnsci.fft.scipy_backend, only=True):
        y = scipy.fft.fft(x)          # runs on the emulated NeuronCore

Implements fft, ifft, rfft, irfft, hfft, ihfft and their 2-D / n-D forms (hfft2/ihfft2, hfftn/ihfftn
included), dct/idct/dst/idst and their n-D forms (types 1-4, norm=, orthogonalize=: one trnfft R2C
of a symmetric extension each, trnsci.fft), and fht/ifht (SciPy's FFTLog, whose rfft/irfft run
here).  Long double runs the FP64 (Ozaki) plans (fp64 accuracy, long double result types:
trnsci.fft); plan= raises SciPy's own NotImplementedError("Passing a precomputed plan ...").  workers= and overwrite_x= are accepted and ignored (the emulator's host threads come from
TRN_NUM_THREADS).  Settings (target, cores, ...) come from the enclosing trnsci.settings.
"""
import os

import numpy as np

__ua_domain__ = "numpy.scipy.fft"

_NAMES = ("fft", "ifft", "rfft", "irfft", "hfft", "ihfft", "fft2", "ifft2", "rfft2", "irfft2", "hfft2", "ihfft2",
          "fftn", "ifftn", "rfftn", "irfftn", "hfftn", "ihfftn", "dct", "idct", "dst", "idst", "dctn", "idctn", "dstn",
          "idstn")


def _implementations():
    from scipy.fft import _fftlog

    from . import fft as _fft
    impl = {name: getattr(_fft, name) for name in _NAMES}
    # FFTLog: SciPy's own fht/ifht, whose transforms (rfft/irfft through scipy.fft) come back here.
    impl["fht"], impl["ifht"] = _fftlog.fht, _fftlog.ifht
    return impl


_IMPL = None


def _supported(x):
    try:
        dt = np.asarray(x).dtype
    except Exception:
        return False
    return dt.kind in "fcbiu"


def _check_workers(workers):
    # SciPy's own checks (scipy.fft._pocketfft.helper._workers); the value itself changes nothing here.
    if workers is None:
        return
    workers = int(workers)
    if workers == 0:
        raise ValueError("workers must not be zero")
    if workers < -os.cpu_count():
        raise ValueError("workers value out of range; got {}, must not be less than {}".format(workers, -os.cpu_count()))


def __ua_function__(method, args, kwargs):
    global _IMPL
    if _IMPL is None:
        _IMPL = _implementations()
    fn = _IMPL.get(method.__name__)
    if fn is None:
        return NotImplemented
    kwargs = dict(kwargs)
    _check_workers(kwargs.pop("workers", None))
    kwargs.pop("overwrite_x", None)
    if kwargs.pop("plan", None) is not None:  # SciPy's own backend's error (it propagates through uarray)
        raise NotImplementedError("Passing a precomputed plan is not yet supported by scipy.fft functions")
    if args and not _supported(args[0]):
        return NotImplemented
    return fn(*args, **kwargs)
