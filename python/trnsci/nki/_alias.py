"""install_alias(): `import neuronxcc.nki`, `neuronxcc.nki.language`, `.isa`, `.typing` (NKI v1) and
`import nki`, `nki.language`, `nki.isa`, `nki.typing` (current NKI) resolve to trnsci.nki, so NKI kernel
files run unmodified. A meta-path finder serves those names (and only those) from sys.modules entries
that point at trnsci.nki's modules; uninstall_alias() removes both."""
import importlib.abc
import importlib.util
import sys
import types

_PARTS = {"": "trnsci.nki", ".language": "trnsci.nki.language", ".isa": "trnsci.nki.isa",
          ".typing": "trnsci.nki.typing"}
_ROOTS = ("neuronxcc.nki", "nki")


def _targets():
    return {root + suffix: target for root in _ROOTS for suffix, target in _PARTS.items()}


class _Loader(importlib.abc.Loader):
    def __init__(self, target):
        self.target = target

    def create_module(self, spec):
        return importlib.import_module(self.target)

    def exec_module(self, module):
        pass


class _Finder(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name == "neuronxcc":
            return importlib.util.spec_from_loader(name, _PackageLoader(), is_package=True)
        t = _targets().get(name)
        if t is None:
            return None
        return importlib.util.spec_from_loader(name, _Loader(t), is_package=name in _ROOTS)


class _PackageLoader(importlib.abc.Loader):
    def create_module(self, spec):
        m = types.ModuleType(spec.name, "trnsci.nki alias of Neuron's compiler package (nki only)")
        m.__path__ = []
        return m

    def exec_module(self, module):
        pass


_finder = _Finder()


def install_alias():
    """Makes neuronxcc.nki[.language|.isa|.typing] and nki[...] import trnsci.nki's modules."""
    import importlib as _il
    for name, target in _targets().items():
        sys.modules[name] = _il.import_module(target)
    if "neuronxcc" not in sys.modules or getattr(sys.modules["neuronxcc"], "__file__", None) is None:
        pkg = types.ModuleType("neuronxcc", "trnsci.nki alias of Neuron's compiler package (nki only)")
        pkg.__path__ = []
        pkg.nki = sys.modules["neuronxcc.nki"]
        sys.modules["neuronxcc"] = pkg
    if _finder not in sys.meta_path:
        sys.meta_path.insert(0, _finder)


def uninstall_alias():
    for name in list(_targets()) + ["neuronxcc"]:
        sys.modules.pop(name, None)
    if _finder in sys.meta_path:
        sys.meta_path.remove(_finder)
