// Registration of trnsci._core.nki (python/src/nki_core.cpp): the extension module's init calls it.
#pragma once
#include <pybind11/pybind11.h>

namespace trnsci_py {
void bind_nki(pybind11::module_& parent);
}
