"""trnsci.tensor: numpy.einsum on trntensor (trntensorEinsum; docs/python.md).

    y = trnsci.tensor.einsum("bij,bjk->bik", a, b)                 # numpy semantics, '...', repeats
    y, plan = trnsci.tensor.einsum("ij,jk,kl->il", a, b, c, optimize="optimal", return_plan=True)

Operands are read in place with their numpy strides (zero copy for any layout); all operands share
one dtype (float32/64, complex64/128).  optimize: True/"auto"/False -> trntensor's AUTO planner
(the emulator always contracts pairwise, so there is no unoptimised order to fall back to),
"greedy", "optimal", "dp"; an explicit path (numpy's ['einsum_path', (0, 1), ...] or a list of
tuples) runs one trntensorEinsum per step in that order (opt_einsum's convention: the step's
operands leave the list, their result is appended), each step keeping the labels later steps or the
output need (the last step writes the output's labels in the output's order).  mode= picks the
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
    s = settings_of(target, cores)
    if isinstance(optimize, (list, tuple)):
        return _einsum_explicit(subscripts, ops, _explicit_path(optimize, len(ops)), mode, s, return_plan, out,
                                profile)
    path_mode = _path_mode(optimize)
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


def _explicit_path(optimize, count):
    """numpy's explicit path (['einsum_path', (i, j), ...] or [(i, j), ...]) as a list of index tuples, checked."""
    steps = list(optimize[1:]) if optimize and optimize[0] == "einsum_path" else list(optimize)
    left = count
    for step in steps:
        if not isinstance(step, (list, tuple)) or not step or any(not isinstance(i, (int, np.integer)) for i in step):
            raise TypeError(f"einsum: a contraction path step must be a tuple of operand positions, got {step!r}")
        if len(set(step)) != len(step) or any(not 0 <= i < left for i in step):
            raise ValueError(f"einsum: path step {tuple(step)} names positions outside the {left} operands left")
        left -= len(step) - 1
    if left != 1:
        raise ValueError(f"einsum: the path leaves {left} operands (it must contract all {count} into one)")
    return [tuple(int(i) for i in step) for step in steps]


def _einsum_explicit(subscripts, ops, steps, mode, s, return_plan, out, profile):
    """The contraction in the caller's order: one trntensorEinsum (one C call) per step."""
    inputs, output, _ = _parse_einsum_input((subscripts,) + tuple(ops))  # '...' spelled out as letters
    specs, arrays, profiles = inputs.split(","), list(ops), []
    for n, step in enumerate(steps):
        taken = [specs[i] for i in step]
        rest = [spec for i, spec in enumerate(specs) if i not in step]
        if n == len(steps) - 1:
            keep = output
        else:
            needed = set(output).union(*rest) if rest else set(output)
            keep = "".join(dict.fromkeys(c for c in "".join(taken) if c in needed))
        step_ops = [arrays[i] for i in step]
        sub = ",".join(taken) + "->" + keep
        result, prof = _core.tensor.einsum(sub, step_ops, _output_shape(sub, step_ops), mode, 0, s)
        profiles.append(prof)
        specs = rest + [keep]
        arrays = [a for i, a in enumerate(arrays) if i not in step] + [result]
    result = arrays[0]
    if not steps:  # one operand, no step: its own einsum (a permutation / trace)
        sub = specs[0] + "->" + output
        result, prof = _core.tensor.einsum(sub, arrays, _output_shape(sub, arrays), mode, 0, s)
        profiles.append(prof)
    if out is not None:
        out[...] = result
        result = out
    extra = []
    if return_plan:
        extra.append({"path": steps, "naive_flops": None, "optimized_flops": None, "largest_intermediate": None})
    if profile:
        extra.append(profiles)
    return (result, *extra) if extra else result
