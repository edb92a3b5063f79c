"""trnsci.nki: NKI's mask= (boxes of the index grid) and nki.compiler.sbuf/psum.mod_alloc (manual modular
placement: logical tiles folded onto physical ones, placements sharing addresses alias). Kernels written
here in the tutorials' style; numpy references."""
import numpy as np
import pytest

import trnsci
import trnsci.nki as nki
import trnsci.nki.isa as nisa
import trnsci.nki.language as nl


# ---- mask= ------------------------------------------------------------------------------------------

@nki.jit
def masked_exp_rows(x, n_valid):
    """exp of the first n_valid rows of a ragged [N, 256] input, tile by tile (boundary tile masked)."""
    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    i_p = nl.arange(128)[:, None]
    i_f = nl.arange(256)[None, :]
    for t in nl.affine_range((x.shape[0] + 127) // 128):
        row = t * 128 + i_p
        tile = nl.load(x[row, i_f], mask=(row < n_valid))
        e = nl.exp(tile, mask=(row < n_valid))
        nl.store(out[row, i_f], value=e, mask=(row < n_valid))
    return out


def test_mask_bounds_the_partition_axis(rng):
    x = rng.standard_normal((256, 256)).astype(np.float32)
    out = masked_exp_rows(x, 200)
    np.testing.assert_allclose(out[:200], np.exp(x[:200]), rtol=2e-6)
    assert np.isnan(out[200:]).all()   # never stored: the fresh shared_hbm output's NaN fill


@nki.jit
def masked_column_sum(x, lo, hi):
    """row sums over columns lo <= j < hi only (a free-axis box from a conjunction)."""
    out = nl.ndarray((128, 1), dtype=x.dtype, buffer=nl.shared_hbm)
    i_p, i_f = nl.mgrid[0:128, 0:512]
    tile = nl.load(x)
    s = nl.sum(tile[i_p, i_f], axis=1, keepdims=True, mask=(i_f >= lo) & (i_f < hi))
    nl.store(out, value=s)
    return out


def test_mask_conjunction_on_the_free_axis(rng):
    x = rng.standard_normal((128, 512)).astype(np.float32)
    out, prof = nki.simulate(masked_column_sum, x, 100, 300)
    np.testing.assert_allclose(out[:, 0], x[:, 100:300].sum(axis=1), rtol=1e-5, atol=1e-5)
    assert prof.modeled_ns > 0


def test_mask_tensor_tensor_leaves_the_rest_untouched(rng):
    @nki.jit
    def k(a, b):
        out = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.shared_hbm)
        i_p, i_f = nl.mgrid[0:128, 0:64]
        ta, tb = nl.load(a), nl.load(b)
        nisa.tensor_tensor(dst=ta[i_p, i_f], data1=ta[i_p, i_f], data2=tb[i_p, i_f], op=nl.add,
                           mask=(i_p < 96) & (i_f < 40))
        nl.store(out, value=ta)
        return out

    a = rng.standard_normal((128, 64)).astype(np.float32)
    b = rng.standard_normal((128, 64)).astype(np.float32)
    ref = a.copy()
    ref[:96, :40] += b[:96, :40]
    np.testing.assert_array_equal(k(a, b), ref)


def test_mask_errors():
    @nki.jit
    def empty(x):
        i_p = nl.arange(128)[:, None]
        return nl.load(x, mask=(i_p < 0))

    with pytest.raises(ValueError, match="selects no element"):
        empty(np.zeros((128, 4), np.float32))

    @nki.jit
    def on_matmul(x):
        i_p = nl.arange(128)[:, None]
        t = nl.load(x)
        return nl.matmul(t, t, transpose_x=True, mask=(i_p < 64))

    with pytest.raises(NotImplementedError, match=r"nl.matmul\(mask="):
        on_matmul(np.zeros((128, 128), np.float32))


# ---- mod_alloc ---------------------------------------------------------------------------------------

@nki.jit
def folded_matmuls(lhsT, rhs):
    """[4 x 128, 128] = lhsT^T rhs with 4 logical PSUM tiles folded onto 2 banks and 4 logical SBUF
    tiles onto 2 buffers: every tile accumulates over K = 2 x 128 with +=, is evacuated, then its
    bank is reused by the tile two later (a new accumulation group)."""
    K, M = lhsT.shape
    out = nl.ndarray((M, 128), dtype=nl.float32, buffer=nl.shared_hbm)
    acc = nl.ndarray((M // 128, nl.par_dim(128), 128), dtype=nl.float32,
                     buffer=nki.compiler.psum.mod_alloc(base_bank=2, num_bank_tiles=(2,)))
    res = nl.ndarray((M // 128, nl.par_dim(128), 128), dtype=nl.float32,
                     buffer=nki.compiler.sbuf.mod_alloc(base_addr=0, num_free_tiles=(2,)))
    for m in nl.sequential_range(M // 128):
        for k in nl.affine_range(K // 128):
            lt = nl.load(lhsT[k * 128:(k + 1) * 128, m * 128:(m + 1) * 128])
            rt = nl.load(rhs[k * 128:(k + 1) * 128, :])
            acc[m] += nisa.nc_matmul(lt, rt)
        res[m] = nl.copy(acc[m])
        nl.store(out[m * 128:(m + 1) * 128, :], value=res[m])
    return out


def test_mod_alloc_folds_tiles_and_restarts_accumulation(rng):
    lhsT = rng.standard_normal((256, 512)).astype(np.float32)
    rhs = rng.standard_normal((256, 128)).astype(np.float32)
    out, prof = nki.simulate(folded_matmuls, lhsT, rhs)
    ref = lhsT.T.astype(np.float64) @ rhs
    assert np.abs(out - ref).max() <= 2 * 258 * 2.0 ** -24 * (np.abs(lhsT.T) @ np.abs(rhs)).max()
    assert prof.modeled_ns > 0


def test_mod_alloc_placements_sharing_banks_alias(rng):
    @nki.jit
    def alias(x):
        out = nl.ndarray((128, 128), dtype=nl.float32, buffer=nl.shared_hbm)
        a = nl.ndarray((nl.par_dim(128), 128), dtype=nl.float32,
                       buffer=nki.compiler.sbuf.mod_alloc(base_addr=1024, num_free_tiles=(1,)))
        b = nl.ndarray((nl.par_dim(128), 64), dtype=nl.float32,   # the upper half of a's bytes
                       buffer=nki.compiler.sbuf.mod_alloc(base_addr=1024 + 256, num_free_tiles=(1,)))
        a[...] = nl.load(x)
        b[...] = nl.multiply(b, 2.0)
        nl.store(out, value=a)
        return out

    x = rng.standard_normal((128, 128)).astype(np.float32)
    ref = x.copy()
    ref[:, 64:] *= 2
    np.testing.assert_array_equal(alias(x), ref)


def test_mod_alloc_errors(rng):
    def kernel_with(shape, placement, index):
        @nki.jit
        def k(x):
            t = nl.ndarray(shape, dtype=nl.float32, buffer=placement())
            t[index] = nl.load(x)
            return x
        return k

    x = np.zeros((128, 128), np.float32)
    with pytest.raises(NotImplementedError, match="overlapping partially"):
        @nki.jit
        def partial(x):
            nl.ndarray((nl.par_dim(128), 128), dtype=nl.float32,
                       buffer=nki.compiler.sbuf.mod_alloc(base_addr=0, num_free_tiles=(1,)))
            nl.ndarray((nl.par_dim(128), 128), dtype=nl.float32,
                       buffer=nki.compiler.sbuf.mod_alloc(base_addr=256, num_free_tiles=(1,)))
            return x
        partial(x)
    with pytest.raises(NotImplementedError, match="tile count"):
        kernel_with((4, nl.par_dim(128), 128), lambda: nki.compiler.psum.mod_alloc(base_bank=0, num_bank_tiles=(2,)),
                    (slice(None), slice(None), slice(None)))(x)
    with pytest.raises(trnsci.errors.LimitError, match="partition"):
        kernel_with((nl.par_dim(128), 128), lambda: nki.compiler.sbuf.mod_alloc(base_addr=10 ** 7), 0)(x)
    with pytest.raises(NotImplementedError, match="nki.compiler.sbuf.alloc"):
        nki.compiler.sbuf.alloc(lambda *a: 0)


# ---- PSUM block tensors folded by liveness -----------------------------------------------------------

@nki.jit
def blockwise_products(a, b, order):
    """out[t] = a[t]^T b[t] for 12 [128, 128] blocks through ONE PSUM block tensor of 12 x 2 KiB (24 KiB:
    more than PSUM's 16 KiB per partition), accumulated in two halves of the contraction, in `order`."""
    nb = a.shape[0]
    out = nl.ndarray((nb, 128, 512), dtype=nl.float32, buffer=nl.shared_hbm)
    acc = nl.ndarray((nb, nl.par_dim(128), 512), dtype=nl.float32, buffer=nl.psum)
    for t in order:
        for h in nl.affine_range(2):
            at = nl.load(a[t, nl.ds(h * 64, 64), :])
            bt = nl.load(b[t, nl.ds(h * 64, 64), :])
            acc[t] += nisa.nc_matmul(at, bt)
        res = nl.copy(acc[t], dtype=nl.float32)
        nl.store(out[t], value=res)
    return out


def test_psum_block_tensor_folded_by_liveness(rng):
    a = rng.standard_normal((12, 128, 128)).astype(np.float32)
    b = rng.standard_normal((12, 128, 512)).astype(np.float32)
    ref = np.einsum("tki,tkj->tij", a.astype(np.float64), b)
    out, prof = nki.simulate(blockwise_products, a, b, list(range(12)))
    np.testing.assert_allclose(out, ref, rtol=1e-4, atol=1e-3)   # each block's own products, accumulated afresh
    assert prof.modeled_ns > 0
    # a block used again after another took its space: raises, naming the tensor and both blocks
    with pytest.raises(trnsci.errors.LimitError, match=r"block 0 .*12 blocks declared.*folded by liveness"):
        nki.simulate(blockwise_products, a, b, list(range(12)) + [0])
