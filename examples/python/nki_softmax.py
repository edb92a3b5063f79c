"""An NKI kernel on the emulated NeuronCore (docs/nki.md): a row softmax written with nki.language,
its outputs against numpy, its modeled time on trn1 and trn2, and what a capacity error looks like.

    PYTHONPATH=build/python /usr/bin/python3 examples/python/nki_softmax.py
"""
import numpy as np

import trnsci
import trnsci.nki as nki
import trnsci.nki.language as nl


@nki.jit
def softmax_rows(x):
    """softmax over the free axis of [P, F] row tiles, one program per 128 rows."""
    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    rows = nl.program_id(0) * 128 + nl.arange(128)[:, None]
    cols = nl.arange(x.shape[1])[None, :]
    t = nl.load(x[rows, cols])
    e = nl.exp(t - nl.max(t, axis=1, keepdims=True))          # VectorE reduce, tensor_scalar, ScalarE exp
    nl.store(out[rows, cols], value=e * nl.reciprocal(nl.sum(e, axis=1, keepdims=True)))
    return out


def main():
    rng = np.random.default_rng(0)
    x = rng.standard_normal((512, 1024)).astype(np.float32)
    ref = np.exp(x - x.max(axis=1, keepdims=True))
    ref /= ref.sum(axis=1, keepdims=True)
    for target in ("trn1", "trn2"):
        y, prof = nki.simulate(softmax_rows[4], x, target=target, cores=2)
        print(f"{target}: max |error| {np.abs(y - ref).max():.2e}, modeled {prof.modeled_us:.2f} us, "
              f"critical engine {prof.roofline_engine}")
    print(prof.summary())

    @nki.jit
    def too_big(x):
        return [nl.ndarray((128, 40000), dtype=nl.float32, buffer=nl.sbuf, name=f"block{i}") for i in range(2)]

    try:
        too_big(x)
    except trnsci.errors.LimitError as exc:
        print("capacity error, as on hardware:", exc)


if __name__ == "__main__":
    main()
