# The Python package `trnsci` (python/, docs/python.md): a pybind11 extension trnsci._core over the six
# libraries' C APIs plus the pure-Python package around it. Built by default when Debian's
# /usr/bin/python3 with numpy and pybind11 (pybind11-dev) is found; -DTRNSCI_PYTHON=OFF leaves it out,
# -DTRNSCI_PYTHON=ON makes a missing dependency an error. Python3_EXECUTABLE defaults to /usr/bin/python3:
# on these machines `python3` on PATH may be an interpreter without numpy.
if(NOT DEFINED Python3_EXECUTABLE AND EXISTS /usr/bin/python3)
  set(Python3_EXECUTABLE /usr/bin/python3 CACHE FILEPATH "Python interpreter of the trnsci module")
endif()
set(TRNSCI_PYTHON_DEFAULT OFF)
find_package(Python3 COMPONENTS Interpreter Development.Module NumPy QUIET)
if(Python3_FOUND AND Python3_NumPy_FOUND)
  find_package(pybind11 CONFIG QUIET)
  if(pybind11_FOUND)
    set(TRNSCI_PYTHON_DEFAULT ON)
  endif()
endif()
option(TRNSCI_PYTHON "Build the Python package trnsci (pybind11 + numpy; python/)" ${TRNSCI_PYTHON_DEFAULT})
if(TRNSCI_PYTHON AND NOT TRNSCI_PYTHON_DEFAULT)
  message(FATAL_ERROR "TRNSCI_PYTHON=ON needs Python3 (${Python3_EXECUTABLE}) with numpy and pybind11 "
                      "(Debian: python3-dev python3-numpy pybind11-dev python3-pybind11)")
endif()
if(TRNSCI_PYTHON)
  message(STATUS "trnsci: Python module trnsci._core: built (${Python3_EXECUTABLE}, Python ${Python3_VERSION}, "
                 "numpy ${Python3_NumPy_VERSION}, pybind11 ${pybind11_VERSION})")
else()
  message(STATUS "trnsci: Python module trnsci._core: not built (needs /usr/bin/python3 with numpy and pybind11-dev)")
endif()
