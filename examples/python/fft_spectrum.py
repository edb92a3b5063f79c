"""trnsci.fft: a noisy two-tone signal's spectrum, numpy-style and through SciPy's backend protocol.

    PYTHONPATH=build/python /usr/bin/python3 examples/python/fft_spectrum.py
"""
import numpy as np
import scipy.fft

import trnsci

t = np.arange(4096) / 4096.0
x = np.sin(2 * np.pi * 440 * t) + 0.5 * np.sin(2 * np.pi * 1000 * t)
x = (x + 0.1 * np.random.default_rng(1).standard_normal(t.size)).astype(np.float32)
spec, prof = trnsci.fft.rfft(x, norm="forward", profile=True)
peaks = np.argsort(np.abs(spec))[-2:]
print("peaks at bins", sorted(peaks.tolist()), "| modeled", round(prof.modeled_us, 2), "us on", prof.target)
print("max |trnsci - numpy|:", np.abs(spec - np.fft.rfft(x, norm="forward")).max())
with scipy.fft.set_backend(trnsci.fft.scipy_backend, only=True):
    y = scipy.fft.irfft(scipy.fft.rfft(x), n=x.size)  # existing SciPy code, run on the emulator
print("round trip through scipy.fft + trnsci:", np.abs(y - x).max())
# DCT-II (orthonormal) through the backend too: one trnfft R2C of a symmetric extension per row
with scipy.fft.set_backend(trnsci.fft.scipy_backend, only=True):
    c = scipy.fft.dct(x[:256], type=2, norm="ortho")
    back = scipy.fft.idct(c, type=2, norm="ortho")
print("DCT-II energy kept:", float(np.sum(c * c) / np.sum(x[:256].astype(np.float64) ** 2)), "| idct error", np.abs(back - x[:256]).max())
