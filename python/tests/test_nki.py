"""trnsci.nki on kernels written for these tests in the NKI style (both the current `dst=` form and
neuronxcc's v1 return-value form): outputs against independent numpy references, the Profile, and
bad input (capacity, partitions, dtypes, unsupported calls) raising, never crashing."""
import numpy as np
import pytest

import trnsci
import trnsci.nki as nki
import trnsci.nki.isa as nisa
import trnsci.nki.language as nl

# ---- kernels -----------------------------------------------------------------------------------------


@nki.jit
def axpy_kernel(x, y):
    """out = 2 x + y over a grid of [128, 256] tiles (v1 style, arange index expressions)."""
    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    i = nl.program_id(0) * 128 + nl.arange(128)[:, None]
    j = nl.program_id(1) * 256 + nl.arange(256)[None, :]
    xt = nl.load(x[i, j])
    yt = nl.load(y[i, j])
    nl.store(out[i, j], value=xt * 2.0 + yt)
    return out


@nki.jit
def matmul_kernel(lhsT, rhs):
    """result = lhsT^T @ rhs, K accumulated in one PSUM tile (current dst= style)."""
    K, M = lhsT.shape
    _, N = rhs.shape
    result = nl.ndarray((M, N), dtype=nl.float32, buffer=nl.shared_hbm)
    for m in nl.affine_range(M // 128):
        for n in nl.affine_range(N // 512):
            acc = nl.ndarray((128, 512), dtype=nl.float32, buffer=nl.psum)
            for k in nl.sequential_range(K // 128):
                a = nl.ndarray((128, 128), dtype=lhsT.dtype, buffer=nl.sbuf)
                b = nl.ndarray((128, 512), dtype=rhs.dtype, buffer=nl.sbuf)
                nisa.dma_copy(dst=a, src=lhsT[k * 128:(k + 1) * 128, m * 128:(m + 1) * 128])
                nisa.dma_copy(dst=b, src=rhs[k * 128:(k + 1) * 128, n * 512:(n + 1) * 512])
                nisa.nc_matmul(dst=acc, stationary=a, moving=b)
            res = nl.ndarray((128, 512), dtype=nl.float32, buffer=nl.sbuf)
            nisa.tensor_copy(dst=res, src=acc)
            nisa.dma_copy(dst=result[m * 128:(m + 1) * 128, n * 512:(n + 1) * 512], src=res)
    return result


@nki.jit
def matmul_v1_kernel(lhsT, rhs):
    """The same with neuronxcc's v1 idiom: a zeroed PSUM accumulator and `+=` of nl.matmul."""
    K, M = lhsT.shape
    _, N = rhs.shape
    result = nl.ndarray((M, N), dtype=nl.float32, buffer=nl.shared_hbm)
    acc = nl.zeros((M, N), nl.float32, buffer=nl.psum)
    for k in nl.affine_range(K // 128):
        a = nl.load(lhsT[k * 128:(k + 1) * 128, :])
        b = nl.load(rhs[k * 128:(k + 1) * 128, :])
        acc += nl.matmul(a, b, transpose_x=True)
    nl.store(result, value=nl.copy(acc))
    return result


@nki.jit
def softmax_kernel(x):
    """Row softmax of a [128, F] tile: reductions, tensor-scalar broadcast, activation."""
    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    t = nl.load(x)
    mx = nl.max(t, axis=1, keepdims=True)
    e = nl.exp(nl.subtract(t, mx))
    s = nl.sum(e, axis=1, keepdims=True)
    nl.store(out, value=nl.multiply(e, nl.reciprocal(s)))
    return out


@nki.jit
def block_scan_kernel(a, b):
    """Per row r[i] = a[i] * r[i-1] + b[i] in chunks of 128 columns chained through a [P, 1] tile,
    accumulated in a block tensor (nl.par_dim) with `+=` and `[...] =` on views."""
    P, F = a.shape
    out = nl.ndarray((P, F), dtype=nl.float32, buffer=nl.shared_hbm)
    acc = nl.zeros((2, nl.par_dim(P), F // 2), dtype=nl.float32)
    carry = nl.zeros((P, 1), dtype=nl.float32)
    for c in nl.static_range(F // 128):
        at = nl.load(a[:, nl.ds(c * 128, 128)])
        bt = nl.load(b[:, nl.ds(c * 128, 128)])
        r = nisa.tensor_tensor_scan(at, bt, initial=carry, op0=np.multiply, op1=np.add)
        carry[...] = r[:, 127]
        half, col = divmod(c * 128, F // 2)
        acc[half, :, col:col + 128] += r
    for h in nl.affine_range(2):
        nl.store(out[:, h * (F // 2):(h + 1) * (F // 2)], value=acc[h, :, :])
    return out


@nki.jit
def transpose_kernel(x):
    """out = x^T of a [P, F] (P, F <= 128) through TensorE, and a [P, F1, F2] -> [P, F2, F1] free-axis
    permutation written with nl.mgrid index expressions."""
    P, F = x.shape
    out = nl.ndarray((F, P), dtype=nl.float32, buffer=nl.shared_hbm)
    perm = nl.ndarray((P, F), dtype=x.dtype, buffer=nl.shared_hbm)
    t = nl.load(x)
    nl.store(out, value=nl.copy(nl.transpose(t)))
    i0, i1, i2 = nl.mgrid[0:P, 0:4, 0:F // 4]
    p = nl.ndarray((P, F), dtype=x.dtype, buffer=nl.sbuf)
    p[i0, i2 * 4 + i1] = nl.copy(t[i0, i1 * (F // 4) + i2])
    nl.store(perm, value=p)
    return out, perm


@nki.jit
def causal_mask_kernel(x):
    """x with the upper triangle (column > row) replaced by -9999: iota-free affine_select."""
    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    t = nl.load(x)
    i_p = nl.arange(128)[:, None]
    i_f = nl.arange(128)[None, :]
    m = nisa.affine_select(pred=(i_p - i_f >= 0), on_true_tile=t, on_false_value=-9999.0)
    nl.store(out, value=m)
    return out


@nki.jit
def iota_kernel():
    out = nl.ndarray((64, 32), dtype=nl.int32, buffer=nl.shared_hbm)
    expr = nl.arange(64)[:, None] * 100 + nl.arange(32)[None, :] * 3 + 7
    nl.store(out, value=nisa.iota(expr, dtype=nl.int32))
    return out


# ---- results against numpy ------------------------------------------------------------------------------

def test_spmd_axpy_grid(rng):
    x = rng.standard_normal((256, 512)).astype(np.float32)
    y = rng.standard_normal((256, 512)).astype(np.float32)
    out = axpy_kernel[2, 2](x, y)
    np.testing.assert_array_equal(out, (x * np.float32(2.0)) + y)   # fp32 ops: exact to the numpy ones


def test_matmul_both_styles_and_profile(rng):
    lhsT = rng.standard_normal((384, 256)).astype(np.float32)
    rhs = rng.standard_normal((384, 512)).astype(np.float32)
    ref = lhsT.T.astype(np.float64) @ rhs.astype(np.float64)
    out, prof = nki.simulate(matmul_kernel, lhsT, rhs)
    bound = 384 * np.finfo(np.float32).eps * (np.abs(lhsT).T.astype(np.float64) @ np.abs(rhs))
    assert np.all(np.abs(out - ref) <= bound)
    out_v1 = matmul_v1_kernel(lhsT[:, :128], rhs)
    np.testing.assert_array_equal(out_v1, out[:128])   # same nc_matmul contract, same K order
    assert isinstance(prof, trnsci.Profile)
    assert prof.library == "nki" and prof.routine == "matmul_kernel"
    assert prof.instructions["tensor"] == (256 // 128) * (512 // 512) * (384 // 128)
    assert prof.modeled_ns > 0 and prof.busy_ns["tensor"] > 0 and prof.busy_ns["dma"] > 0
    assert prof.tensor_flops == 2.0 * 384 * 256 * 512


def test_targets_change_time_not_values(rng):
    lhsT = rng.standard_normal((256, 128)).astype(np.float32)
    rhs = rng.standard_normal((256, 512)).astype(np.float32)
    o1, p1 = nki.simulate(matmul_kernel, lhsT, rhs, target="trn1")
    with trnsci.settings(target="trn2"):
        o2, p2 = nki.simulate(matmul_kernel, lhsT, rhs)
    np.testing.assert_array_equal(o1, o2)
    assert p1.target == "trn1" and p2.target == "trn2" and p1.modeled_ns != p2.modeled_ns


def test_grid_over_cores_is_deterministic(rng):
    x = rng.standard_normal((512, 512)).astype(np.float32)
    y = rng.standard_normal((512, 512)).astype(np.float32)
    o1, p1 = nki.simulate(axpy_kernel, x, y, grid=(4, 2), cores=1)
    o2, p2 = nki.simulate(axpy_kernel, x, y, grid=(4, 2), cores=2)
    np.testing.assert_array_equal(o1, o2)
    assert p2.cores == 2 and p2.modeled_ns < p1.modeled_ns


def test_softmax(rng):
    x = rng.standard_normal((128, 300)).astype(np.float32)
    e = np.exp(x.astype(np.float64) - x.max(axis=1, keepdims=True))
    np.testing.assert_allclose(softmax_kernel(x), e / e.sum(axis=1, keepdims=True), rtol=2e-5, atol=1e-7)


def test_block_tensor_scan(rng):
    a = rng.uniform(0.5, 1.0, (128, 512)).astype(np.float32)
    b = rng.standard_normal((128, 512)).astype(np.float32)
    ref = np.empty((128, 512))
    r = np.zeros(128)
    for i in range(512):
        r = a[:, i] * r + b[:, i]
        ref[:, i] = r
    np.testing.assert_allclose(block_scan_kernel(a, b), ref, rtol=1e-4, atol=1e-4)


def test_transposes_and_index_expressions(rng):
    x = rng.standard_normal((96, 64)).astype(np.float32)
    t, perm = transpose_kernel(x)
    np.testing.assert_array_equal(t, x.T)        # trn1 TensorE transpose: exact for finite values
    np.testing.assert_array_equal(perm, x.reshape(96, 4, 16).transpose(0, 2, 1).reshape(96, 64))


def test_affine_select_and_iota(rng):
    x = rng.standard_normal((128, 128)).astype(np.float32)
    np.testing.assert_array_equal(causal_mask_kernel(x), np.where(np.tril(np.ones((128, 128), bool)), x, -9999.0))
    p, f = np.meshgrid(np.arange(64), np.arange(32), indexing="ij")
    np.testing.assert_array_equal(iota_kernel(), 100 * p + 3 * f + 7)


# ---- bad input: an exception with the reason, never a crash ---------------------------------------------

def test_sbuf_overflow_raises_limit_error():
    @nki.jit
    def hog(x):
        tiles = [nl.ndarray((128, 16384), dtype=nl.float32, buffer=nl.sbuf, name=f"hog{i}") for i in range(4)]
        return tiles

    with pytest.raises(trnsci.errors.LimitError, match=r"SBUF alloc.*hog3.*capacity|hog3"):
        hog(np.zeros((1, 1), np.float32))


def test_partitions_over_pmax_raise():
    @nki.jit
    def tall(x):
        t = nl.load(x)          # 256 partitions
        return t

    with pytest.raises(trnsci.errors.LimitError, match="pmax"):
        tall(np.zeros((256, 4), np.float32))


def test_matmul_moving_too_wide_raises():
    @nki.jit
    def wide(a, b):
        acc = nl.ndarray((128, 640), dtype=nl.float32, buffer=nl.psum)
        nisa.nc_matmul(dst=acc, stationary=nl.load(a), moving=nl.load(b))

    with pytest.raises(trnsci.Error, match="nc_matmul|PSUM|moving"):
        wide(np.zeros((128, 128), np.float32), np.zeros((128, 640), np.float32))


def test_dma_from_psum_raises_usage_error():
    @nki.jit
    def bad(x):
        out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
        p = nl.ndarray(x.shape, dtype=nl.float32, buffer=nl.psum)
        nisa.memset(dst=p, value=1.0)
        nisa.dma_copy(dst=out, src=p)
        return out

    with pytest.raises(trnsci.errors.UsageError, match="PSUM"):
        bad(np.zeros((128, 64), np.float32))


def test_bad_dtypes_and_indices_raise():
    with pytest.raises(TypeError, match="float64"):
        axpy_kernel(np.zeros((128, 256)), np.zeros((128, 256)))

    @nki.jit
    def oob(x):
        return nl.load(x[0:128, 100:300])

    with pytest.raises(IndexError, match="slice bound 300 outside axis 1"):
        oob(np.zeros((128, 256), np.float32))


def test_unsupported_calls_name_themselves():
    @nki.jit
    def uses_mask(x):   # a triangle is no box of the index grid (test_nki_mask_alloc.py: what masks do)
        i_p, i_f = nl.mgrid[0:128, 0:128]
        return nl.load(x[i_p, i_f], mask=(i_p - i_f >= 0))

    with pytest.raises(NotImplementedError, match=r"nl.load\(mask=...\) comparing several index axes"):
        uses_mask(np.zeros((128, 128), np.float32))

    @nki.jit
    def uses_unknown(x):
        return nisa.dropout(nl.load(x), prob=0.5)

    with pytest.raises(NotImplementedError, match="nisa.dropout"):
        uses_unknown(np.zeros((128, 4), np.float32))


def test_outside_a_kernel_raises():
    with pytest.raises(RuntimeError, match="outside a kernel"):
        nl.ndarray((128, 4), dtype=nl.float32, buffer=nl.sbuf)


def test_fuzz_shapes_and_dtypes_never_crash():
    """Random shapes and dtypes through a load/add/store kernel: a correct result or a trnsci /
    Python exception with a reason."""
    fuzz = np.random.default_rng(7)

    @nki.jit
    def add_one(x):
        out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
        nl.store(out, value=nl.load(x) + 1)
        return out

    dtypes = [np.float32, np.float16, np.int32, np.int8, np.float64, np.uint8, np.complex64]
    outcomes = {"ok": 0, "raised": 0}
    for _ in range(40):
        shape = tuple(int(v) for v in fuzz.integers(1, 300, size=fuzz.integers(1, 4)))
        dt = dtypes[fuzz.integers(len(dtypes))]
        x = (fuzz.standard_normal(shape) * 10).astype(dt)
        try:
            out = add_one(x)
        except (trnsci.Error, TypeError, ValueError, IndexError, NotImplementedError) as exc:
            assert str(exc)
            outcomes["raised"] += 1
            continue
        ref = x.astype(np.float64) + 1
        if np.issubdtype(dt, np.integer):   # integer results saturate (docs/numerics.md), no wrap-around
            ref = np.clip(ref, np.iinfo(dt).min, np.iinfo(dt).max)
        np.testing.assert_allclose(out.astype(np.float64), ref.astype(dt).astype(np.float64), rtol=1e-3, atol=1)
        outcomes["ok"] += 1
    assert outcomes["ok"] > 0 and outcomes["raised"] > 0


def test_install_alias_runs_an_unmodified_kernel_file(tmp_path):
    src = tmp_path / "user_kernel.py"
    src.write_text(
        "import numpy as np\n"
        "import neuronxcc.nki as nki\n"
        "import neuronxcc.nki.language as nl\n"
        "import neuronxcc.nki.isa as nisa\n"
        "from neuronxcc.nki.typing import tensor\n"
        "@nki.jit\n"
        "def scale_rows(x, s):\n"
        "    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)\n"
        "    xt: tensor[128, 64] = nl.load(x)\n"
        "    st = nl.load(s)\n"
        "    nl.store(out, value=nisa.tensor_scalar(data=xt, op0=np.multiply, operand0=st))\n"
        "    return out\n")
    import importlib.util
    import sys
    nki.install_alias()
    try:
        spec = importlib.util.spec_from_file_location("user_kernel", src)
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        assert sys.modules["neuronxcc.nki.language"] is nl
        x = np.arange(128 * 64, dtype=np.float32).reshape(128, 64)
        s = np.arange(128, dtype=np.float32).reshape(128, 1)
        np.testing.assert_array_equal(mod.scale_rows(x, s), x * s)
    finally:
        nki.uninstall_alias()
    assert "neuronxcc.nki" not in sys.modules


def test_timing_only_run_models_without_computing():
    lhsT = np.empty((1024, 256), np.float16)
    rhs = np.empty((1024, 1024), np.float16)
    _, p = nki.simulate(matmul_kernel, lhsT, rhs, execute=False)
    _, q = nki.simulate(matmul_kernel, np.zeros_like(lhsT), np.zeros_like(rhs))
    assert p.modeled_ns == q.modeled_ns and p.tensor_flops == 2.0 * 1024 * 256 * 1024


def test_bf16_outputs_widen_exactly(rng):
    @nki.jit
    def to_bf16(x):
        out = nl.ndarray(x.shape, dtype=nl.bfloat16, buffer=nl.shared_hbm)
        nl.store(out, value=nl.copy(nl.load(x), dtype=nl.bfloat16))
        return out

    x = rng.standard_normal((128, 64)).astype(np.float32)
    y = to_bf16(x)
    assert y.dtype == np.float32
    np.testing.assert_array_equal(y, nl.static_cast(x, nl.bfloat16))   # RNE to bf16, as the host rounds


def test_partition_alignment_and_matmul_dtypes_raise():
    @nki.jit
    def misaligned(x):
        t = nl.load(x)
        return nl.exp(t[32:96, :])      # 64 partitions must start at 0 or 64 (ARCH2)

    with pytest.raises(trnsci.Error, match="partition"):
        misaligned(np.zeros((128, 8), np.float32))

    @nki.jit
    def int_matmul(a, b):
        acc = nl.ndarray((128, 128), dtype=nl.float32, buffer=nl.psum)
        nisa.nc_matmul(dst=acc, stationary=nl.load(a), moving=nl.load(b))

    with pytest.raises(trnsci.Error, match="nc_matmul"):
        int_matmul(np.zeros((128, 128), np.int32), np.zeros((128, 128), np.int32))


def test_failing_program_of_a_grid_raises_cleanly(rng):
    @nki.jit
    def third_fails(x):
        out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
        i = nl.program_id(0)
        rows = 130 if i == 2 else 128
        t = nl.ndarray((rows, 4), dtype=x.dtype, buffer=nl.sbuf)
        nisa.dma_copy(dst=t, src=x[i * 128:i * 128 + rows, :])
        nisa.dma_copy(dst=out[i * 128:(i + 1) * 128, :], src=t)
        return out

    x = rng.standard_normal((640, 4)).astype(np.float32)
    with pytest.raises(trnsci.errors.LimitError, match="pmax 128"):
        third_fails[4](x)
    np.testing.assert_array_equal(axpy_kernel(x[:128, :4].repeat(64, axis=1), x[:128, :4].repeat(64, axis=1)),
                                  3 * x[:128, :4].repeat(64, axis=1))   # the next launch is unaffected


def test_profile_timeline_and_perfetto(rng, tmp_path):
    x = rng.standard_normal((128, 300)).astype(np.float32)
    _, prof = nki.simulate(softmax_kernel, x)
    path = tmp_path / "softmax.json"
    prof.to_perfetto(str(path))
    text = path.read_text()
    assert '"activation"' in text or "activation" in text
    svg = prof.timeline_svg()
    assert svg.startswith("<svg") and "scalar" in svg and "vector" in svg
    assert prof.instructions["scalar"] == 1 and prof.instructions["dma"] == 2


@nki.jit
def assorted_kernel(x, y):
    """One call of each remaining table row, results to HBM."""
    P, F = x.shape
    t = nl.load(x)
    outs = {}
    for name, shape in (("tr2d", (F, P)), ("stats", (P, 2)), ("rowsum", (P, 1)), ("ts", (P, F)), ("vt", (32, 32)),
                        ("gelu", (P, F))):
        outs[name] = nl.ndarray(shape, dtype=nl.float32, buffer=nl.shared_hbm)
    nl.store(outs["tr2d"], value=nl.load_transpose2d(x))
    nl.store(outs["stats"], value=nisa.bn_aggr(nisa.bn_stats(t)))
    rowsum = nl.ndarray((P, 1), dtype=nl.float32, buffer=nl.sbuf)
    e = nisa.activation(op=nl.exp, data=t, bias=nl.load(y), scale=0.5, reduce_op=nl.add, reduce_res=rowsum)
    nl.store(outs["rowsum"], value=rowsum)
    nl.store(outs["ts"], value=nisa.tensor_scalar(data=e, op0=nl.subtract, operand0=1.0, op1=nl.multiply,
                                                  operand1=3.0))
    nl.store(outs["vt"], value=nisa.nc_transpose(t[0:32, 0:32], engine=nisa.vector_engine))
    nl.store(outs["gelu"], value=nl.gelu(t))
    return outs


def test_assorted_instructions(rng):
    x = rng.uniform(-1, 1, (128, 64)).astype(np.float32)
    y = rng.uniform(-1, 1, (128, 1)).astype(np.float32)
    o = assorted_kernel(x, y)
    x64 = x.astype(np.float64)
    np.testing.assert_array_equal(o["tr2d"], x.T)
    np.testing.assert_allclose(o["stats"][:, 0], x64.mean(axis=1), atol=1e-6)
    np.testing.assert_allclose(o["stats"][:, 1], x64.var(axis=1), rtol=1e-5, atol=1e-7)
    e = np.exp(0.5 * x64 + y)
    np.testing.assert_allclose(o["rowsum"][:, 0], e.sum(axis=1), rtol=1e-5)
    np.testing.assert_allclose(o["ts"], (e - 1) * 3, rtol=1e-5, atol=1e-6)
    np.testing.assert_array_equal(o["vt"], x[:32, :32].T)
    from math import erf, sqrt
    gelu = 0.5 * x64 * (1 + np.vectorize(erf)(x64 / sqrt(2)))
    np.testing.assert_allclose(o["gelu"], gelu, rtol=1e-4, atol=1e-5)


def test_transpose_mode_needs_the_identity(rng):
    @nki.jit
    def tmode(x, m):
        out = nl.ndarray((x.shape[1], x.shape[0]), dtype=nl.float32, buffer=nl.shared_hbm)
        t = nisa.nc_matmul(nl.load(x), nl.load(m), is_transpose=True)
        nl.store(out, value=nl.copy(t))
        return out

    x = rng.standard_normal((128, 128)).astype(np.float32)
    np.testing.assert_array_equal(tmode(x, np.eye(128, dtype=np.float32)), x.T)
    with pytest.raises(NotImplementedError, match="is_transpose=True"):
        tmode(x, 2 * np.eye(128, dtype=np.float32))


def test_random_views_match_numpy_indexing():
    """Random slices of HBM and SBUF tensors and random affine mgrid expressions: the same
    elements numpy's indexing selects (numpy's own arange arithmetic is the reference)."""
    fuzz = np.random.default_rng(3)
    for _ in range(12):
        P, F = int(fuzz.integers(2, 129)), int(fuzz.integers(2, 200))
        x = fuzz.standard_normal((P, F)).astype(np.float32)
        p0 = int(fuzz.integers(0, P - 1))
        p1 = int(fuzz.integers(p0 + 1, P + 1))
        step = int(fuzz.integers(1, 4))
        f0 = int(fuzz.integers(0, F - 1))
        f1 = int(fuzz.integers(f0 + 1, F + 1))
        a = int(fuzz.integers(1, 5))            # row blocks of `a` columns, read column-major
        nb = F // a

        @nki.jit
        def views(x):
            sl = nl.ndarray((p1 - p0, len(range(f0, f1, step))), dtype=x.dtype, buffer=nl.shared_hbm)
            t = nl.load(x[p0:p1, :])            # any partition range from HBM (on chip: aligned starts)
            nl.store(sl, value=nl.copy(t[:, f0:f1:step]))
            ex = nl.ndarray((P, a, nb), dtype=x.dtype, buffer=nl.shared_hbm)
            i, j, k = nl.mgrid[0:P, 0:a, 0:nb]
            nl.store(ex, value=nl.load(x[i, k * a + j]))
            return sl, ex

        sl, ex = views(x)
        np.testing.assert_array_equal(sl, x[p0:p1, f0:f1:step])
        i, j, k = np.mgrid[0:P, 0:a, 0:nb]
        np.testing.assert_array_equal(ex, x[i, k * a + j])
