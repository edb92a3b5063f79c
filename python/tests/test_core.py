"""The package skeleton: import, settings, Profile, errors."""
import json
import threading
import time

import numpy as np
import pytest

import trnsci


def test_import_and_hardware():
    assert trnsci.hardware("trn2")["name"] == "trn2"
    with pytest.raises(trnsci.InvalidArgumentError):
        trnsci.hardware("trn9")


def test_settings_nest_and_validate():
    assert trnsci.current_settings()["target"] == "trn1"
    with trnsci.settings(target="trn2", cores=2):
        assert trnsci.current_settings()["target"] == "trn2"
        with trnsci.settings(numerics="trn1_measured", stochastic_rounding=True):
            s = trnsci.current_settings()
            assert (s["target"], s["cores"], s["numerics"], s["stochastic_rounding"]) == ("trn2", 2, "trn1_measured", True)
        assert trnsci.current_settings()["numerics"] == "ideal"
    assert trnsci.current_settings()["cores"] == 1
    for bad in ({"target": "trn4"}, {"cores": 0}, {"numerics": "exact"}):
        with pytest.raises(ValueError):
            with trnsci.settings(**bad):
                pass


def test_settings_reach_the_call(rng):
    a = rng.standard_normal((64, 64), dtype=np.float32)
    _, p1 = trnsci.blas.gemm(a, a, profile=True)
    with trnsci.settings(target="trn2"):
        _, p2 = trnsci.blas.gemm(a, a, profile=True)
    _, p3 = trnsci.blas.gemm(a, a, target="trn3", profile=True)
    assert (p1.target, p2.target, p3.target) == ("trn1", "trn2", "trn3")
    assert p1.modeled_ns != p2.modeled_ns


def test_profile(tmp_path, rng):
    a = rng.standard_normal((128, 96), dtype=np.float32)
    b = rng.standard_normal((96, 80), dtype=np.float32)
    _, prof = trnsci.blas.gemm(a, b, mode="bf16", profile=True)
    assert prof is not None and trnsci.last_profile().modeled_ns == prof.modeled_ns
    assert isinstance(prof, trnsci.Profile)
    assert prof.modeled_ns > 0 and prof.modeled_us == pytest.approx(prof.modeled_ns * 1e-3)
    assert set(prof.busy_ns) == {"tensor", "vector", "scalar", "gpsimd", "dma"}
    assert prof.busy_ns["tensor"] > 0 and prof.tensor_flops == 2 * 128 * 96 * 80
    assert prof.roofline >= 1.0 and prof.roofline_engine in ("tensor", "vector", "scalar", "gpsimd", "dma", "host")
    assert "gemm" in prof.plan.lower() or prof.plan == ""
    path = tmp_path / "gemm.json"
    prof.to_perfetto(str(path))
    events = json.loads(path.read_text())
    assert len(events["traceEvents"] if isinstance(events, dict) else events) > 0
    t = prof.timeline()
    assert t["end_ns"].max() == pytest.approx(prof.modeled_ns, rel=1e-9)
    html = prof._repr_html_()
    assert "<svg" in html and "tensor" in html
    assert "trnsci.Profile" in repr(prof)


def test_profile_without_trace_says_so(rng):
    a = rng.standard_normal((32, 32), dtype=np.float32)
    with trnsci.settings(keep_trace=False):
        _, prof = trnsci.blas.gemm(a, a, profile=True)
    assert prof.modeled_ns > 0
    with pytest.raises(trnsci.Error, match="no instruction trace"):
        prof.timeline()


def test_error_hierarchy():
    e = trnsci.errors.from_status("trnblas", "gemm", "TRNBLAS_STATUS_INVALID_VALUE", 7, 8, "lda bad")
    assert isinstance(e, trnsci.InvalidValueError) and isinstance(e, ValueError)
    assert (e.status, e.param, e.code, e.library) == ("TRNBLAS_STATUS_INVALID_VALUE", 8, 7, "trnblas")
    assert isinstance(trnsci.errors.from_status("x", "y", "TRNFFT_NOT_SUPPORTED", 1, 0, ""), NotImplementedError)
    assert isinstance(trnsci.errors.from_status("x", "y", "TRNBLAS_STATUS_EXECUTION_FAILED", 1, 0, ""), RuntimeError)
    assert isinstance(trnsci.errors.from_status("x", "y", "TRNBLAS_STATUS_ALLOC_FAILED", 1, 0, ""), MemoryError)


@pytest.mark.parametrize("bad, why", [
    (lambda a: a.astype(np.int32), "dtype"),
    (lambda a: a[:, ::2], "not contiguous"),
    (lambda a: a.reshape(-1), "dimension"),
    (lambda a: a.tolist(), "numpy.ndarray"),
])
def test_bad_arrays_raise_with_reason(bad, why, rng):
    a = rng.standard_normal((16, 16), dtype=np.float32)
    with pytest.raises(trnsci.InvalidArgumentError, match=why) as info:
        trnsci.blas.gemm(bad(a), a)
    assert info.value.param == 1 and info.value.argument == "a"


def test_gil_released_during_emulation(rng):
    a = rng.standard_normal((384, 384), dtype=np.float32)
    ticks = []
    done = threading.Event()

    def work():
        trnsci.blas.gemm(a, a, mode="bf16x9")
        done.set()

    t = threading.Thread(target=work)
    t.start()
    while not done.is_set():
        ticks.append(time.perf_counter())
        time.sleep(0.001)
    t.join()
    assert len(ticks) > 3  # the main thread ran while the emulator worked
