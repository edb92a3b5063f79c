# Reference libraries used only by tests, benchmarks and the CLI (never by the libraries).
find_package(PkgConfig REQUIRED)
pkg_check_modules(OPENBLAS REQUIRED IMPORTED_TARGET openblas)
find_package(Eigen3 3.3 REQUIRED NO_MODULE)
# FFTW in double, float and long double: the FFT oracle (tests/reference/fft_reference.hpp).
pkg_check_modules(FFTW3 REQUIRED IMPORTED_TARGET fftw3)
pkg_check_modules(FFTW3F REQUIRED IMPORTED_TARGET fftw3f)
pkg_check_modules(FFTW3L REQUIRED IMPORTED_TARGET fftw3l)
