"""trnsci: numpy bindings of the emulated-Trainium libraries (docs/python.md).

    import numpy as np, trnsci
    with trnsci.settings(target="trn2", cores=2):
        c, prof = trnsci.blas.gemm(a, b, mode="bf16x3", profile=True)
    print(prof.modeled_us, prof.roofline); prof.to_perfetto("gemm.json")

Submodules: blas, fft, rand, solver, tensor, sparse (each numpy in, numpy out; every call's
Profile via profile=True or trnsci.last_profile()).  Errors: trnsci.Error and its subclasses
(trnsci.errors).  Built against Debian's /usr/bin/python3; point PYTHONPATH at build/python (build
tree) or <prefix>/lib/python3.X/site-packages (install).
"""
from . import _core
from ._settings import current as current_settings
from ._settings import settings
from .errors import (AllocFailedError, Error, ExecutionFailedError, InternalError, InvalidArgumentError, LinAlgError,
                     InvalidValueError, LimitError, NotInitializedError, NotSupportedError, UsageError)
from .profile import Profile

__version__ = "0.1.0"


def last_profile():
    """The Profile of the last library call made on this thread (None before any)."""
    return _core.last_profile()


def hardware(target="trn1"):
    """The emulated generation's hardware table row (a dict)."""
    return _core.hardware(target)


def _load_submodules():
    # Every submodule this package ships is imported eagerly, so `import trnsci` alone gives
    # trnsci.blas etc.; a missing one is a broken install and raises, never a silent skip.
    import importlib
    for name in ("bf16", "blas", "fft", "rand", "solver", "sparse", "tensor"):
        importlib.import_module(f"{__name__}.{name}")


_load_submodules()
from . import _scipy_backend, fft  # noqa: E402

fft.scipy_backend = _scipy_backend  # trnsci.fft.scipy_backend: the backend imports fft, so it is bound here
