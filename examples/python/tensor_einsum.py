"""trnsci.tensor.einsum: numpy's einsum with the contraction plan and the modeled time.

    PYTHONPATH=build/python /usr/bin/python3 examples/python/tensor_einsum.py
"""
import numpy as np

import trnsci

rng = np.random.default_rng(5)
a, b, c = (rng.standard_normal(s).astype(np.float32) for s in ((64, 32), (32, 128), (128, 16)))
y, plan, prof = trnsci.tensor.einsum("ij,jk,kl->il", a, b, c, optimize="optimal", return_plan=True, profile=True)
print("path", plan["path"], "flops", plan["optimized_flops"], "of naive", plan["naive_flops"])
print("max |trnsci - numpy|:", np.abs(y - np.einsum("ij,jk,kl->il", a, b, c)).max(), "| modeled", prof.modeled_us, "us")
batch = rng.standard_normal((8, 16, 16)).astype(np.float32)
print("batched traces:", trnsci.tensor.einsum("bii->b", batch)[:3], np.einsum("bii->b", batch)[:3])
