"""trnsci.settings: the emulator settings every call runs under (a context manager, per thread and
per asyncio task through contextvars).  Keyword arguments of a call (target=, cores=) override them
for that call."""
import contextlib
import contextvars

from . import _core

TARGETS = {"trn1": 1, "trn2": 2, "trn3": 3}
NUMERICS = {"ideal": 0, "trn1_measured": 1}

_DEFAULT = {"target": "trn1", "numerics": "ideal", "stochastic_rounding": False, "seed": 0, "cores": 1,
            "keep_trace": True}
_current = contextvars.ContextVar("trnsci_settings", default=dict(_DEFAULT))


def _validate(values):
    if values["target"] not in TARGETS:
        raise ValueError(f"target must be one of {sorted(TARGETS)}, got {values['target']!r}")
    if values["numerics"] not in NUMERICS:
        raise ValueError(f"numerics must be one of {sorted(NUMERICS)}, got {values['numerics']!r}")
    cores = values["cores"]
    if not isinstance(cores, int) or isinstance(cores, bool) or not 1 <= cores <= 64:
        raise ValueError(f"cores must be an int in 1..64, got {cores!r}")
    if not isinstance(values["seed"], int) or values["seed"] < 0:
        raise ValueError(f"seed must be a non-negative int, got {values['seed']!r}")


@contextlib.contextmanager
def settings(*, target=None, numerics=None, stochastic_rounding=None, seed=None, cores=None, keep_trace=None):
    """Runs the enclosed calls under these emulator settings (unset ones keep the enclosing values).

    target: "trn1" | "trn2" | "trn3" (the emulated generation and the cost model's target);
    numerics: "ideal" | "trn1_measured" (docs/numerics.md); stochastic_rounding: bool, its bits keyed
    by seed; cores: emulated NeuronCores (1..64); keep_trace: keep each call's instruction trace for
    Profile.to_perfetto / the timeline (default True).
    """
    values = dict(_current.get())
    for key, value in (("target", target), ("numerics", numerics), ("stochastic_rounding", stochastic_rounding),
                       ("seed", seed), ("cores", cores), ("keep_trace", keep_trace)):
        if value is not None:
            values[key] = value
    _validate(values)
    token = _current.set(values)
    try:
        yield dict(values)
    finally:
        _current.reset(token)


def current():
    """The settings in force (a dict)."""
    return dict(_current.get())


def resolve(target=None, cores=None, numerics=None):
    """The _core.EmuSettings of a call: the context's settings with the call's overrides."""
    values = dict(_current.get())
    if target is not None:
        values["target"] = target
    if cores is not None:
        values["cores"] = cores
    if numerics is not None:
        values["numerics"] = numerics
    _validate(values)
    s = _core.EmuSettings()
    s.target = TARGETS[values["target"]]
    s.numerics = NUMERICS[values["numerics"]]
    s.stochastic_rounding = bool(values["stochastic_rounding"])
    s.seed = values["seed"]
    s.cores = values["cores"]
    s.keep_trace = bool(values["keep_trace"])
    return s
