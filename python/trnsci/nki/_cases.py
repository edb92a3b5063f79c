"""`trnsci validate --suite nki` / `trnsci bench --suite nki`: the public NKI tutorial kernels run
unmodified through trnsci.nki (tools/cli/suite_nki.cpp runs this module with /usr/bin/python3).

    python3 -m trnsci.nki._cases <case> <target> <tutorials folder>

prints `key=value` lines: measured, bound, pass (1/0), modeled_ns, busy_ns and roofline_ns (tensor,
vector, scalar, gpsimd, dma), cores, roofline, roofline_engine, tensor_flops, dma_bytes, target, note. Cases:

* attention_v8 / attention_v9 / attention_v10 [seqlen]: attention forward (v8: automatic allocation;
  v9, v10: every tile placed by nki.compiler.sbuf/psum.mod_alloc, v10 software-pipelined), fp32
  q, k, v of shape [128, seqlen] (default 1024); measured: max |out - numpy float64 reference|,
  bound: the tutorial's atol 1e-2.
* matmul_<kernel>: the matmul tutorial's kernel at its benchmark shape (lhsT [8192, 4096], rhs
  [8192, 8192], 16-bit), timing-only; measured: |modeled / published - 1| (published trn1 figures of
  the tutorial: 51.80 / 42.96 / 22.07 / 6.97 ms), bound 0.20.
"""
import importlib.util
import pathlib
import sys

import numpy as np

from . import install_alias, simulate

PUBLISHED_TRN1_MS = {"tiled": 51.80, "hoist_load": 42.96, "block_free_dimension": 22.07, "fully_optimized": 6.97}


def _profile_fields(prof):
    def per_engine(d):
        return ",".join(repr(float(d[e])) for e in ("tensor", "vector", "scalar", "gpsimd", "dma"))
    return {"modeled_ns": prof.modeled_ns, "busy_ns": per_engine(prof.busy_ns),
            "roofline_ns": per_engine(prof.roofline_ns), "cores": prof.cores, "roofline": float(prof.roofline),
            "roofline_engine": prof.roofline_engine, "tensor_flops": float(prof.tensor_flops),
            "dma_bytes": float(prof.dma_bytes)}


def _load(folder, rel, name):
    path = pathlib.Path(folder, rel)
    if str(path.parent) not in sys.path:
        sys.path.insert(0, str(path.parent))
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


def _attention_reference(q, k, v):
    qk = q.T.astype(np.float64) @ k
    e = np.exp(qk - qk.max(axis=1, keepdims=True))
    return (e / e.sum(axis=1, keepdims=True)) @ v.T


def attention(folder, version, target, seqlen=1024):
    mod = _load(folder, "attention_fwd_performance/attention_kernels.py", "attention_kernels")
    rng = np.random.default_rng(2025)
    q, k, v = [((rng.random((128, seqlen)) - 0.5) * 2).astype(np.float32) for _ in range(3)]
    if hasattr(mod, "allocator"):
        mod.allocator.offset = 0   # the tutorial's module-level SBufAllocator: one kernel per process there
    out, prof = simulate(getattr(mod, f"attn_fwd_{version}"), q, k, v, target=target)
    err = float(np.abs(out - _attention_reference(q, k, v)).max())
    return {"measured": err, "bound": 1e-2, "pass": int(err <= 1e-2), **_profile_fields(prof),
            "note": f"attn_fwd_{version} seqlen {seqlen} fp32: max abs error vs numpy (tutorial atol 1e-2), "
                    f"modeled {prof.modeled_us:.1f} us on {target}"}


def matmul(folder, kernel, target):
    mod = _load(folder, "matrix_multiplication/matrix_multiplication_nki_kernels.py", "tutorial_matmul")
    lhsT = np.empty((8192, 4096), np.float16)   # 16-bit (numpy has no bf16: same bytes and TensorE rate)
    rhs = np.empty((8192, 8192), np.float16)
    _, prof = simulate(getattr(mod, f"nki_matmul_{kernel}_"), lhsT, rhs, target=target, execute=False)
    ms = prof.modeled_ns * 1e-6
    pub = PUBLISHED_TRN1_MS[kernel]
    err = abs(ms / pub - 1)
    return {"measured": err, "bound": 0.20, "pass": int(err <= 0.20), **_profile_fields(prof),
            "note": f"nki_matmul_{kernel}_ modeled {ms:.2f} ms on {target}, published {pub} ms (trn1)"}


def main(argv):
    case, target, folder = argv[1], argv[2], argv[3]
    install_alias()
    if case.startswith("attention_"):
        parts = case.split("_")
        r = attention(folder, parts[1], target, int(argv[4]) if len(argv) > 4 else 1024)
    elif case.startswith("matmul_"):
        r = matmul(folder, case[len("matmul_"):], target)
    else:
        raise SystemExit(f"trnsci.nki._cases: unknown case {case!r}")
    r["target"] = target
    for key, value in r.items():
        print(f"{key}={value!r}" if isinstance(value, float) else f"{key}={value}")


if __name__ == "__main__":
    main(sys.argv)
