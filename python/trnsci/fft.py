"""trnsci.fft: trnfft with numpy.fft / scipy.fft semantics (docs/python.md).

fft/ifft/rfft/irfft/hfft/ihfft, fft2/ifft2/rfft2/irfft2, fftn/ifftn/rfftn/irfftn take numpy's n / s,
axis / axes and norm ("backward", "ortho", "forward").  Precision follows scipy.fft: float32 and
complex64 run fp32 plans (complex64 out); float64, complex128 and integers run the FP64 (Ozaki)
plans (complex128 out); precision="bf16" selects trnfft's bf16 plans for single precision.  The
requested axes are moved to the end (a copy unless they already are the trailing axes of a
C-contiguous array) and transformed by one batched MakePlanMany64 per group of at most 3 axes.  The
norm scaling is one numpy multiply after the C call (cuFFT's transforms are unnormalised).

scipy_backend: this module as a SciPy FFT backend (uarray protocol):
    with scipy.fft.set_backend(trnsci.fft.scipy_backend): scipy.fft.fft(x)
"""
import math
import operator

import numpy as np

from . import _core
from ._call import settings_of

_NORMS = ("backward", "ortho", "forward")


def _is_long(dt):
    return dt in (np.longdouble, np.clongdouble) and np.dtype(np.longdouble) != np.dtype(np.float64)


def _complex_dtype(dt):
    """The transform's computed complex dtype (scipy.fft's: complex64 for single precision, else
    complex128; long double computes in complex128, _widen restores the type)."""
    if dt in (np.float32, np.complex64, np.float16):
        return np.dtype(np.complex64)
    if dt.kind in "fcbiu" and (dt.itemsize <= 16 or _is_long(dt)):
        return np.dtype(np.complex128)
    raise TypeError(f"trnsci.fft: unsupported dtype {dt} (float16/32/64, long double, complex64/128/256, integers)")


def _real_dtype(dt):
    if dt.kind == "c":
        raise TypeError("x must be a real sequence")
    if dt in (np.float32, np.float16):
        return np.dtype(np.float32)
    if dt.kind in "fbiu":
        return np.dtype(np.float64)
    raise TypeError(f"trnsci.fft: unsupported dtype {dt} (float16/32/64, long double, integers)")


def _widen(y, long_in):
    """Long double inputs (float128 / complex256) run the FP64 (Ozaki) plans: the input rounded to
    float64, the result widened back to long double (exactly), so the accuracy is fp64's, not long
    double's (docs/python.md)."""
    if not long_in:
        return y
    return y.astype(np.clongdouble if y.dtype.kind == "c" else np.longdouble)


def _scale(norm, n, inverse):
    if norm is None:
        norm = "backward"
    if norm not in _NORMS:
        raise ValueError(f'Invalid norm value {norm!r}; should be "backward", "ortho" or "forward".')
    if norm == "ortho":
        return 1.0 / math.sqrt(n)
    if (norm == "backward") == inverse:
        return 1.0 / n
    return 1.0


def _swap(norm):
    return {None: "forward", "backward": "forward", "ortho": "ortho", "forward": "backward"}[norm]


def _cook(x, s, axes, last_default=None):
    """numpy's (s, axes) normalisation: axes as non-negative unique ints, s one size per axis."""
    if s is not None:
        s = [operator.index(v) for v in np.atleast_1d(s)] if not np.isscalar(s) else [operator.index(s)]
    if axes is None:
        axes = list(range(x.ndim - (len(s) if s is not None else x.ndim), x.ndim))
    else:
        axes = [operator.index(a) for a in np.atleast_1d(axes)] if not np.isscalar(axes) else [operator.index(axes)]
    if s is None:
        s = [x.shape[a] for a in axes]
        if last_default is not None and axes:
            s[-1] = last_default(x.shape[axes[-1]])
    if len(s) != len(axes):
        raise ValueError("when given, axes and shape arguments have to be of the same length")
    norm_axes = []
    for a in axes:
        if not -x.ndim <= a < x.ndim:
            raise ValueError(f"axes exceeds dimensionality of input (axis {a}, ndim {x.ndim})")
        norm_axes.append(a % x.ndim)
    if len(set(norm_axes)) != len(norm_axes):
        raise ValueError("all axes must be unique")
    for v in s:
        if v < 1:
            raise ValueError(f"invalid number of data points ({v}) specified")
    return list(s), norm_axes


def _fit(x, axis, n):
    """x cropped or zero-padded to n along axis."""
    have = x.shape[axis]
    if have == n:
        return x
    if have > n:
        idx = [slice(None)] * x.ndim
        idx[axis] = slice(0, n)
        return x[tuple(idx)]
    shape = list(x.shape)
    shape[axis] = n
    z = np.zeros(shape, dtype=x.dtype)
    idx = [slice(None)] * x.ndim
    idx[axis] = slice(0, have)
    z[tuple(idx)] = x
    return z


class _Run:
    """One public call: the settings, the precision and the profiles of its C calls."""

    def __init__(self, precision, target, cores):
        if precision not in (None, "fp32", "bf16"):
            raise ValueError("precision must be None, 'fp32' or 'bf16'")
        self.bf16 = precision == "bf16"
        self.settings = settings_of(target, cores)
        self.profile = None

    def call(self, fn, *args):
        out, prof = fn(*args, self.bf16, self.settings)
        self.profile = prof if prof is not None else self.profile
        return out


def _trailing(x, axes):
    """x with `axes` moved to the end, C-contiguous (no copy when already so)."""
    k = len(axes)
    moved = np.moveaxis(x, axes, list(range(x.ndim - k, x.ndim)))
    return np.ascontiguousarray(moved)


def _restore(y, axes):
    k = len(axes)
    return np.moveaxis(y, list(range(y.ndim - k, y.ndim)), axes)


def _c2c_trailing(run, y, k, direction):
    """C2C over the last k axes of a C-contiguous y, in groups of at most 3 axes."""
    done = 0
    while done < k:
        g = min(3, k - done)
        if done:
            # bring the next group to the end: axes [-(done+g), -done) -> trailing
            y = np.ascontiguousarray(np.moveaxis(y, list(range(y.ndim - done - g, y.ndim - done)),
                                                 list(range(y.ndim - g, y.ndim))))
        y = run.call(_core.fft.c2c, y, g, direction)
        if done:
            y = np.moveaxis(y, list(range(y.ndim - g, y.ndim)), list(range(y.ndim - done - g, y.ndim - done)))
        done += g
    return np.ascontiguousarray(y)


def _finish(y, factor, run, profile, long_in=False):
    if factor != 1.0:
        y *= y.real.dtype.type(factor)
    y = _widen(y, long_in)
    return (y, run.profile) if profile else y


def _c2c(x, s, axes, norm, inverse, precision, target, cores, profile):
    x = np.asarray(x)
    long_in = _is_long(x.dtype)
    x = x.astype(_complex_dtype(x.dtype), copy=False)
    s, axes = _cook(x, s, axes)
    for a, n in zip(axes, s):
        x = _fit(x, a, n)
    run = _Run(precision, target, cores)
    y = _c2c_trailing(run, _trailing(x, axes), len(axes), 1 if inverse else -1)
    y = _restore(y, axes)
    return _finish(np.array(y, copy=False), _scale(norm, math.prod(s), inverse), run, profile, long_in)


def _r2c(x, s, axes, norm, precision, target, cores, profile):
    x = np.asarray(x)
    long_in = _is_long(x.dtype)
    x = x.astype(_real_dtype(x.dtype), copy=False)
    s, axes = _cook(x, s, axes)
    for a, n in zip(axes, s):
        x = _fit(x, a, n)
    run = _Run(precision, target, cores)
    y = _trailing(x, axes)
    k = len(axes)
    if k <= 3:
        y = run.call(_core.fft.r2c, y, k)
    else:
        y = run.call(_core.fft.r2c, y, 1)
        y = _c2c_trailing(run, np.ascontiguousarray(np.moveaxis(y, -1, -k)), k - 1, -1)
        y = np.moveaxis(y, -k, -1)
    y = _restore(y, axes)
    return _finish(np.array(y, copy=False), _scale(norm, math.prod(s), False), run, profile, long_in)


def _c2r(x, s, axes, norm, precision, target, cores, profile):
    x = np.asarray(x)
    long_in = _is_long(x.dtype)
    x = x.astype(_complex_dtype(x.dtype), copy=False)
    s, axes = _cook(x, s, axes, last_default=lambda m: 2 * (m - 1))
    for a, n in zip(axes[:-1], s[:-1]):
        x = _fit(x, a, n)
    x = _fit(x, axes[-1], s[-1] // 2 + 1)
    run = _Run(precision, target, cores)
    y = _trailing(x, axes)
    k = len(axes)
    if k <= 3:
        y = run.call(_core.fft.c2r, y, k, s[-1])
    else:
        y = np.moveaxis(_c2c_trailing(run, np.ascontiguousarray(np.moveaxis(y, -1, -k)), k - 1, 1), -k, -1)
        y = run.call(_core.fft.c2r, np.ascontiguousarray(y), 1, s[-1])
    y = _restore(y, axes)
    return _finish(np.array(y, copy=False), _scale(norm, math.prod(s), True), run, profile, long_in)


def _one(n, axis):
    return (None if n is None else [n]), [axis]


# ---- the numpy.fft / scipy.fft functions ----------------------------------------------------------

def fft(x, n=None, axis=-1, norm=None, *, precision=None, target=None, cores=None, profile=False):
    return _c2c(x, *_one(n, axis), norm, False, precision, target, cores, profile)


def ifft(x, n=None, axis=-1, norm=None, *, precision=None, target=None, cores=None, profile=False):
    return _c2c(x, *_one(n, axis), norm, True, precision, target, cores, profile)


def rfft(x, n=None, axis=-1, norm=None, *, precision=None, target=None, cores=None, profile=False):
    return _r2c(x, *_one(n, axis), norm, precision, target, cores, profile)


def irfft(x, n=None, axis=-1, norm=None, *, precision=None, target=None, cores=None, profile=False):
    return _c2r(x, *_one(n, axis), norm, precision, target, cores, profile)


def hfft(x, n=None, axis=-1, norm=None, **kw):
    """The FFT of a Hermitian-symmetric signal given by its first half (real output)."""
    return hfftn(x, *_one(n, axis), norm, **kw)


def ihfft(x, n=None, axis=-1, norm=None, **kw):
    """The inverse of hfft (the first half of a Hermitian spectrum)."""
    return ihfftn(x, *_one(n, axis), norm, **kw)


def hfftn(x, s=None, axes=None, norm=None, *, precision=None, target=None, cores=None, profile=False):
    """The n-D FFT of a Hermitian-symmetric signal given by its half (real output)."""
    x = np.asarray(x)
    xc = x if (x.dtype.kind == "c" and _is_long(x.dtype)) else x.astype(_complex_dtype(x.dtype), copy=False)
    return irfftn(np.conj(xc), s, axes, _swap(norm), precision=precision,
                  target=target, cores=cores, profile=profile)


def ihfftn(x, s=None, axes=None, norm=None, *, precision=None, target=None, cores=None, profile=False):
    """The inverse of hfftn."""
    r = rfftn(x, s, axes, _swap(norm), precision=precision, target=target, cores=cores, profile=profile)
    if profile:
        return np.conj(r[0], out=r[0]), r[1]
    return np.conj(r, out=r)


def fftn(x, s=None, axes=None, norm=None, *, precision=None, target=None, cores=None, profile=False):
    return _c2c(x, s, axes, norm, False, precision, target, cores, profile)


def ifftn(x, s=None, axes=None, norm=None, *, precision=None, target=None, cores=None, profile=False):
    return _c2c(x, s, axes, norm, True, precision, target, cores, profile)


def rfftn(x, s=None, axes=None, norm=None, *, precision=None, target=None, cores=None, profile=False):
    return _r2c(x, s, axes, norm, precision, target, cores, profile)


def irfftn(x, s=None, axes=None, norm=None, *, precision=None, target=None, cores=None, profile=False):
    return _c2r(x, s, axes, norm, precision, target, cores, profile)


def fft2(x, s=None, axes=(-2, -1), norm=None, **kw):
    return fftn(x, s, axes, norm, **kw)


def ifft2(x, s=None, axes=(-2, -1), norm=None, **kw):
    return ifftn(x, s, axes, norm, **kw)


def rfft2(x, s=None, axes=(-2, -1), norm=None, **kw):
    return rfftn(x, s, axes, norm, **kw)


def irfft2(x, s=None, axes=(-2, -1), norm=None, **kw):
    return irfftn(x, s, axes, norm, **kw)


def hfft2(x, s=None, axes=(-2, -1), norm=None, **kw):
    return hfftn(x, s, axes, norm, **kw)


def ihfft2(x, s=None, axes=(-2, -1), norm=None, **kw):
    return ihfftn(x, s, axes, norm, **kw)


# scipy_backend (trnsci._scipy_backend) is bound here by the package's __init__: the backend imports this
# module, so this module does not import it.


# ---- DCT / DST (scipy.fft's dct/idct/dst/idst/dctn/idctn/dstn/idstn) -------------------------------
# trnfft has no real-to-real plans (cuFFT has none either), so each 1-D DCT/DST of length N is one
# R2C/D2Z transform of a symmetric extension z of x (length L), read at every `step`-th bin from
# `first`: y[k] = Re Z[first + step k] (cosines) or Im Z[first + step k] (sines).  z holds +x and -x
# at chosen positions and zeros elsewhere, so the host does no arithmetic (placement and sign flips);
# every flop is the emulator's FFT.  With Z[m] = sum_j z_j e^{-2 pi i j m / L}, a pair z_j = x_n,
# z_{L-j} = x_n adds 2 x_n cos(2 pi j m / L), a pair z_j = -x_n, z_{L-j} = x_n adds 2 i x_n sin(...),
# and a single z_j = x_n (j = 0 or j = L/2 - like positions) adds x_n once: the half-weight end
# terms of DCT-I/III and DST-III.  The sums are scipy.fft's definitions (unnormalised):
#   DCT-I  L = 2(N-1): z_n = x_n (n < N), z_{L-n} = x_n (0 < n < N-1);         bins k
#   DCT-II L = 4N: z_{2n+1} = z_{L-2n-1} = x_n;                                 bins k
#   DCT-III L = 4N: z_n = x_n, z_{L-n} = x_n (n > 0);                           bins 2k+1
#   DCT-IV L = 8N: z_{2n+1} = z_{L-2n-1} = x_n;                                 bins 2k+1
#   DST-I  L = 2(N+1): z_{n+1} = -x_n, z_{L-n-1} = x_n;                         bins k+1
#   DST-II L = 4N: z_{2n+1} = -x_n, z_{L-2n-1} = x_n;                           bins k+1
#   DST-III L = 4N: z_{n+1} = -x_n, z_{L-n-1} = x_n (n < N-1);                  bins 2k+1
#   DST-IV L = 8N: z_{2n+1} = -x_n, z_{L-2n-1} = x_n;                           bins 2k+1
# Cost: one R2C of 2N to 8N points per transformed vector (pocketfft's twiddled N-point forms would
# put the twiddle products on the host).  norm= and orthogonalize= are scipy's (pocketfft's factors
# 1, 1/sqrt(N'), 1/N' with N' = 2(N-1), 2(N+1) or 2N; orthogonalize's sqrt(2) on the first/last
# input or output element): host multiplies, like the FFT's norm scaling.

def _r2r_extension(cosine, kind, n):
    """(L, [(dst, src) with +x], [(dst, src) with -x], part, first, step) of one DCT/DST type."""
    r = np.arange(n)
    odd = 2 * r + 1
    if cosine:
        table = {1: (2 * (n - 1), [(r, r), (2 * (n - 1) - r[1:-1], r[1:-1])], 0, 1),
                 2: (4 * n, [(odd, r), (4 * n - odd, r)], 0, 1),
                 3: (4 * n, [(r, r), (4 * n - r[1:], r[1:])], 1, 2),
                 4: (8 * n, [(odd, r), (8 * n - odd, r)], 1, 2)}
        L, plus, first, step = table[kind]
        return L, plus, [], "re", first, step
    table = {1: (2 * (n + 1), [(2 * n + 1 - r, r)], [(r + 1, r)], 1, 1),
             2: (4 * n, [(4 * n - odd, r)], [(odd, r)], 1, 1),
             3: (4 * n, [(4 * n - 1 - r[:-1], r[:-1])], [(r + 1, r)], 1, 2),
             4: (8 * n, [(8 * n - odd, r)], [(odd, r)], 1, 2)}
    L, plus, minus, first, step = table[kind]
    return L, plus, minus, "im", first, step


def _r2r_last(run, x, cosine, kind):
    """The unnormalised DCT/DST of the real C-contiguous x over its last axis (one R2C call)."""
    n = x.shape[-1]
    if cosine and kind == 1 and n < 2:
        raise ValueError("DCT-I needs at least 2 data points (its extension has length 2(N-1))")
    L, plus, minus, part, first, step = _r2r_extension(cosine, kind, n)
    z = np.zeros(x.shape[:-1] + (L,), dtype=x.dtype)
    for dst, src in plus:
        z[..., dst] = x[..., src]
    for dst, src in minus:
        z[..., dst] = np.negative(x[..., src])  # a sign flip: exact
    spectrum = run.call(_core.fft.r2c, z, 1)
    picked = spectrum[..., first:first + step * n:step]
    return np.ascontiguousarray(picked.real if part == "re" else picked.imag)


def _r2r_inorm(norm, forward):
    if norm is None:
        norm = "backward"
    if norm not in _NORMS:
        raise ValueError(f'Invalid norm value {norm!r}; should be "backward", "ortho" or "forward".')
    if norm == "ortho":
        return 1
    return 0 if (norm == "backward") == forward else 2


def _r2r_axis(run, x, cosine, kind, axis, inorm, orthogonalize):
    """One scipy-normalised DCT/DST of the real x along axis."""
    n = x.shape[axis]
    xt = np.moveaxis(x, axis, -1)
    sqrt2 = math.sqrt(2.0)
    if orthogonalize and (cosine and kind in (1, 3) or not cosine and kind == 3):
        xt = np.array(xt, order="C")
        xt[..., 0] *= sqrt2
        if cosine and kind == 1:
            xt[..., -1] *= sqrt2
    y = _r2r_last(run, np.ascontiguousarray(xt), cosine, kind)
    if orthogonalize and kind in (1, 2):
        if kind == 2 or cosine:
            y[..., 0] /= sqrt2
        if cosine and kind == 1:
            y[..., -1] /= sqrt2
    big_n = 2 * (n - 1) if (cosine and kind == 1) else 2 * (n + 1) if (not cosine and kind == 1) else 2 * n
    factor = 1.0 if inorm == 0 else 1.0 / math.sqrt(big_n) if inorm == 1 else 1.0 / big_n
    if factor != 1.0:
        y *= y.dtype.type(factor)
    return np.moveaxis(y, -1, axis)


def _r2rn(cosine, forward, x, type, s, axes, norm, orthogonalize, precision, target, cores, profile, one_axis):
    x = np.asarray(x)
    if type not in (1, 2, 3, 4):
        raise ValueError(f"invalid {'DCT' if cosine else 'DST'} type {type!r} (1, 2, 3 or 4)")
    kind = type if forward or type in (1, 4) else 5 - type  # the inverse of type 2 is type 3 and back
    inorm = _r2r_inorm(norm, forward)
    if orthogonalize is None:
        orthogonalize = norm == "ortho"
    complex_in, long_in = x.dtype.kind == "c", _is_long(x.dtype)
    real_dt = _complex_dtype(x.dtype).type(0).real.dtype if complex_in else _real_dtype(x.dtype)
    s, axes = _cook(x, s, axes)
    for a, n in zip(axes, s):
        x = _fit(x, a, n)
    run = _Run(precision, target, cores)

    def transform(part):
        y = np.asarray(part, dtype=real_dt)
        for a in axes:
            y = _r2r_axis(run, y, cosine, kind, a, inorm, orthogonalize)
        return y

    if complex_in:
        xc = x.astype(_complex_dtype(x.dtype), copy=False)
        out = np.empty(xc.shape, dtype=xc.dtype)
        out.real, out.imag = transform(xc.real), transform(xc.imag)
    else:
        out = np.ascontiguousarray(transform(x)) if axes else np.array(x, dtype=real_dt)
    out = _widen(out, long_in)
    return (out, run.profile) if profile else out


def _r2r_public(cosine, forward, name):
    def one(x, type=2, n=None, axis=-1, norm=None, overwrite_x=False, workers=None, orthogonalize=None, *,
            precision=None, target=None, cores=None, profile=False):
        return _r2rn(cosine, forward, x, type, *_one(n, axis), norm, orthogonalize, precision, target, cores, profile,
                     True)

    def many(x, type=2, s=None, axes=None, norm=None, overwrite_x=False, workers=None, orthogonalize=None, *,
             precision=None, target=None, cores=None, profile=False):
        return _r2rn(cosine, forward, x, type, s, axes, norm, orthogonalize, precision, target, cores, profile, False)

    one.__name__, many.__name__ = name, name + "n"
    kind = "DCT" if cosine else "DST"
    one.__doc__ = (f"scipy.fft.{name}: the {'inverse ' if not forward else ''}{kind} of types 1-4 along axis "
                   "(one trnfft R2C of a symmetric extension per call; overwrite_x and workers are accepted "
                   "and ignored).")
    many.__doc__ = f"scipy.fft.{name}n: {name} over several axes (one after another)."
    return one, many


dct, dctn = _r2r_public(True, True, "dct")
idct, idctn = _r2r_public(True, False, "idct")
dst, dstn = _r2r_public(False, True, "dst")
idst, idstn = _r2r_public(False, False, "idst")
