"""examples/python: every example script runs to the end (exit 0) against this build, so the README's
examples stay true.  They print measurements; their numbers are asserted by the library tests."""
import os
import pathlib
import subprocess
import sys

import pytest

EXAMPLES = pathlib.Path(__file__).resolve().parents[2] / "examples" / "python"


@pytest.mark.parametrize("script", sorted(p.name for p in EXAMPLES.glob("*.py")))
def test_example_runs(script):
    env = dict(os.environ)
    done = subprocess.run([sys.executable, str(EXAMPLES / script)], env=env, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip(), "the example printed nothing"


def test_one_example_per_library():
    names = {p.stem.split("_")[0] for p in EXAMPLES.glob("*.py")}
    assert {"blas", "fft", "rand", "solver", "sparse", "tensor", "nki"} <= names
