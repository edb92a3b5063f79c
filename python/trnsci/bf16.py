"""bfloat16 without ml_dtypes: bf16 values travel as uint16 arrays of their bits.

    bits = trnsci.bf16.from_float32(x)   # round to nearest even, the emulator's own conversion
    x16 = trnsci.bf16.to_float32(bits)    # exact
"""
import numpy as np

from . import _core


def from_float32(x):
    """float32 array -> uint16 array of bfloat16 bits (round to nearest even)."""
    return _core.blas.bf16_from_float32(np.ascontiguousarray(x, dtype=np.float32))


def to_float32(bits):
    """uint16 array of bfloat16 bits -> float32 array (exact)."""
    return _core.blas.bf16_to_float32(np.ascontiguousarray(bits, dtype=np.uint16))


def round_float32(x):
    """x rounded to bfloat16 and back (float32)."""
    return to_float32(from_float32(x))
