// trnsci._core: the one extension module. Every python/src/*.cpp registers its part through
// trnsci::py::Registrar (common.hpp); this file only assembles them.
#include "common.hpp"

PYBIND11_MODULE(_core, m) {
  m.doc() = "trnsci: numpy bindings of the emulated-Trainium libraries (docs/python.md)";
  trnsci::py::Registrar::register_all(m);
}
