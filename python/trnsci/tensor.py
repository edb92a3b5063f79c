"""trnsci.tensor: numpy.einsum on trntensor (trntensorEinsum; docs/python.md).

    y = trnsci.tensor.einsum("bij,bjk->bik", a, b)                 # numpy semantics, '...', repeats
    y, plan = trnsci.tensor.einsum("ij,jk,kl->il", a, b, c, optimize="optimal", return_plan=True)

Operands are read in place with their numpy strides (zero copy for any layout); all operands share
one dtype (float32/64, complex64/128).  optimize: True/"auto"/False -> trntensor's AUTO planner
(the emulator always contracts pairwise, so there is no unoptimised order to fall back to),
"greedy", "optimal", "dp"; an explicit path list raises NotImplementedError.  mode= picks the
compute descriptor: fp32 (float32 default), fp64 (float64 default: Ozaki), bf16, fp16, tf32, 3xtf32,
bf16x9.  return_plan=True also returns trntensorEinsumPath's plan: the pairwise path in
opt_einsum's format and its FLOP counts.
"""
import numpy as np
from numpy.core.einsumfunc import _parse_einsum_input

from . import _core
from ._call import settings_of

_PATHS = {True: 0, False: 0, None: 0, "auto": 0, "greedy": 1, "optimal": 2, "dp": 3, "dynamic-programming": 3}


def _path_mode(optimize):
    if isinstance(optimize, (list, tuple)):
        raise NotImplementedError("trnsci.tensor.einsum: an explicit contraction path (optimize=[...]) is not "
                                  "supported; use 'greedy', 'optimal' or 'dp'")
    if optimize not in _PATHS:
        raise ValueError(f"optimize must be one of {sorted(map(str, _PATHS))}, got {optimize!r}")
    return _PATHS[optimize]


def _output_shape(subscripts, operands):
    inputs, output, ops = _parse_einsum_input((subscripts,) + tuple(operands))
    dims = {}
    for spec, op in zip(inputs.split(","), ops):
        if len(spec) != np.ndim(op):
            raise ValueError(f"einsum: operand has {np.ndim(op)} dimensions, subscripts '{spec}' name {len(spec)}")
        for label, size in zip(spec, np.shape(op)):
            if dims.get(label, 1) != 1 and size != 1 and dims[label] != size:
                raise ValueError(f"einsum: size of label '{label}' differs between operands ({dims[label]} vs {size})")
            dims[label] = max(dims.get(label, 1), size)
    return [dims[c] for c in output]


def einsum(subscripts, *operands, optimize=True, mode=None, return_plan=False, out=None, target=None, cores=None,
           profile=False):
    """numpy.einsum(subscripts, *operands) on the emulated NeuronCore."""
    if not isinstance(subscripts, str):
        raise NotImplementedError("trnsci.tensor.einsum: only the subscripts-string form is supported")
    ops = [np.asarray(o) for o in operands]
    shape = _output_shape(subscripts, ops)
    path_mode = _path_mode(optimize)
    s = settings_of(target, cores)
    result, prof = _core.tensor.einsum(subscripts, ops, shape, mode, path_mode, s)
    if out is not None:
        out[...] = result
        result = out
    extra = []
    if return_plan:
        extra.append(_core.tensor.einsum_path(subscripts, ops, path_mode, s) if len(ops) > 1 else
                     {"path": [], "naive_flops": 0.0, "optimized_flops": 0.0, "largest_intermediate": 0.0})
    if profile:
        extra.append(prof)
    return (result, *extra) if extra else result


def einsum_path(subscripts, *operands, optimize="auto", target=None, cores=None):
    """trntensor's contraction plan: {'path': [(i, j), ...], 'naive_flops', 'optimized_flops', 'largest_intermediate'}."""
    return _core.tensor.einsum_path(subscripts, [np.asarray(o) for o in operands], _path_mode(optimize),
                                    settings_of(target, cores))
