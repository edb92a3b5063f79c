"""trnsci.rand: cuRAND-identical streams with numpy-like methods.

    PYTHONPATH=build/python /usr/bin/python3 examples/python/rand_streams.py
"""
import numpy as np

import trnsci

g = trnsci.rand.Generator(seed=1234, rng="philox")
print("uniform (0,1]:", g.random(4))
print("normal f32   :", g.normal(0.0, 2.0, 4, dtype=np.float32))
print("integers     :", g.integers(0, 10, size=8))
print("poisson(4)   :", g.poisson(4.0, 8))
for rng in ("xorwow", "mrg32k3a", "mt19937"):
    x = trnsci.rand.Generator(7, rng=rng).standard_normal(100000)
    print(f"{rng:9s} mean {x.mean():+.4f} std {x.std():.4f}  modeled", trnsci.last_profile().modeled_us, "us")
