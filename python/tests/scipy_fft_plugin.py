"""pytest plugin: SciPy's own scipy/fft/tests with trnsci.fft.scipy_backend as SciPy's global FFT
backend for the whole session (only=True: what the backend does not implement raises instead of
falling back to SciPy's pocketfft).  Run by ctest (python.scipy_fft):

    PYTHONPATH=build/python:python/tests /usr/bin/python3 -m pytest -p scipy_fft_plugin \\
        /usr/lib/python3/dist-packages/scipy/fft/tests

Tests the backend cannot pass are listed in EXCLUSIONS with the reason: those that run are marked
xfail (strict: a listed test that starts passing fails the run, so the list stays true); those that
cannot run (they hang or cost minutes) are deselected.  Every exclusion is printed with its count
and reason in the terminal summary ("documented exclusions"), never skipped silently.
"""
import os

import pytest
import scipy.fft

import trnsci

# Why a test is not run by default, by kind: run=False: deselected (it costs minutes of emulation),
# counted with the reason in the summary; run=True would mark it xfail (strict).
_COST = ("emulation cost (minutes of host time: 17 concurrent FP64 transforms of 800 x 200, 2 x 511 FP64 plans, "
         "2 x 36 FP64 512 x 128 transforms); they pass: run them with TRNSCI_SCIPY_FFT_FULL=1", False)
# nodeid substring -> (reason, run)
EXCLUSIONS = {
    "TestFFTThreadSafe": _COST,
    "test_numpy.py::TestFFT1D::test_identity": _COST,
    "test_multithreading.py::test_threaded_same": _COST,
}
if os.environ.get("TRNSCI_SCIPY_FFT_FULL") == "1":  # the cost exclusions run too
    EXCLUSIONS = {k: v for k, v in EXCLUSIONS.items() if v is not _COST}


def pytest_configure(config):
    scipy.fft.set_global_backend(trnsci.fft.scipy_backend, only=True)
    config.addinivalue_line("markers", "trnsci_exclusion: a documented precision/feature exclusion")


def pytest_report_header(config):
    return "scipy.fft global backend: trnsci.fft.scipy_backend (only=True)"


def _exclusion(nodeid):
    for pattern, value in EXCLUSIONS.items():
        if pattern in nodeid:
            return value
    return None


_REPORT = {}  # reason -> [run, count]


def pytest_collection_modifyitems(config, items):
    kept, dropped = [], []
    for item in items:
        found = _exclusion(item.nodeid)
        if found is None:
            kept.append(item)
            continue
        reason, run = found
        entry = _REPORT.setdefault(reason, [run, 0])
        entry[1] += 1
        if run:
            item.add_marker(pytest.mark.xfail(reason=reason, strict=True))
            kept.append(item)
        else:
            dropped.append(item)
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = kept


def pytest_terminal_summary(terminalreporter):
    terminalreporter.section("trnsci.fft.scipy_backend: documented exclusions")
    for reason, (run, count) in _REPORT.items():
        how = "xfail (strict, run)" if run else "not run (deselected)"
        terminalreporter.write_line(f"{count:5d} tests, {how}: {reason}")
