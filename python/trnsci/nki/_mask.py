"""NKI's `mask=` argument in trnsci.nki.

A mask is an affine comparison of `nl.arange` / `nl.mgrid` indices (`i_p < n`, `off + i_f >= 0`) or a
conjunction of them (`(i_p < n) & (i_f < m)`). Each comparison must bound ONE index axis (one term):
the conjunction is then a box of the instruction's index grid, and the masked instruction is the
same instruction on every operand narrowed to that box (`Tensor.tile()` narrows each operand while a
masked call runs), so the elements outside the box are neither read nor written — NKI's semantics
(a fresh result tile keeps its undefined contents there). Comparisons of several index axes
(`i_p - i_f >= 0`: use nisa.affine_select), `==` / `!=`, masks on matmul / transpose calls and a
mask selecting no element raise.
"""
import functools

from ._tensor import IndexExpr, mask_box as _active, unsupported


class Conjunction:
    """`pred & pred`: every comparison must hold."""

    def __init__(self, preds):
        self.preds = list(preds)

    def __and__(self, other):
        return Conjunction(self.preds + _preds(other))


def conjoin(a, b):
    return Conjunction(_preds(a) + _preds(b))


def _preds(m):
    if isinstance(m, Conjunction):
        return m.preds
    if hasattr(m, "expr") and hasattr(m, "cmp"):
        return [m]
    unsupported(f"mask of type {type(m).__name__}", "a comparison of nl.arange / nl.mgrid indices, or an & of them")


def _bound(pred, who):
    """(axis from the end, lo, hi, extent) for one comparison c * i + k <cmp> 0 of one index axis."""
    e = pred.expr if isinstance(pred.expr, IndexExpr) else IndexExpr._lift(pred.expr, 1)
    if len(e.terms) > 1:
        unsupported(f"{who}(mask=...) comparing several index axes", "use nisa.affine_select")
    if pred.cmp not in ("greater_equal", "greater", "less_equal", "less"):
        unsupported(f"{who}(mask=...) with {pred.cmp}")
    # as c * i + k >= 0 over the integers
    sign = 1 if pred.cmp in ("greater_equal", "greater") else -1
    shift = -1 if pred.cmp in ("greater", "less") else 0
    if not e.terms:
        if sign * e.const + shift < 0:
            raise ValueError(f"trnsci.nki: {who}(mask=...) selects no element")
        return None
    ((r, (c, n)),) = e.terms.items()
    c, k = sign * c, sign * e.const + shift
    lo, hi = 0, n - 1
    if c > 0:
        lo = max(lo, -(k // c))              # i >= ceil(-k / c)
    else:
        hi = min(hi, k // -c)                # i <= floor(k / -c)
    return r - e.ndim, lo, hi, n


def box(mask, who):
    """The narrowing box of a mask (see module doc)."""
    out = {}
    for p in _preds(mask):
        b = _bound(p, who)
        if b is None:
            continue
        axis, lo, hi, n = b
        plo, phi, _ = out.get(axis, (0, n - 1, n))
        out[axis] = (max(lo, plo), min(hi, phi), n)
    for axis, (lo, hi, _) in out.items():
        if lo > hi:
            raise ValueError(f"trnsci.nki: {who}(mask=...) selects no element")
    return out


def masked(fn, who):
    """fn with NKI's mask= keyword: the call runs with its operands narrowed to the mask's box."""
    @functools.wraps(fn)
    def f(*args, mask=None, **kw):
        if mask is None:
            return fn(*args, **kw)
        b = box(mask, who)
        prev, _active[0] = _active[0], b
        try:
            return fn(*args, **kw)
        finally:
            _active[0] = prev
    return f


class suspended:
    """Runs a nested instruction (a deferred matmul materialised inside a masked call) unmasked."""

    def __enter__(self):
        self.prev, _active[0] = _active[0], None

    def __exit__(self, *exc):
        _active[0] = self.prev
